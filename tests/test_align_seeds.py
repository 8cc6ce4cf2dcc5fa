"""Acceptance on the seeds: Portuguese paste 000 and Spanish web card 001 against the archive."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EDITIONS, SHARED, needs_shared

CARDS = sorted((SHARED / "corpus" / "rulings" / "mtgjson3").glob("*.json"))


@pytest.fixture(scope="module")
def seed0(request):
    if not EDITIONS.is_dir():
        pytest.skip(f"shared data not found at {SHARED}")
    from pipeline.align.run import align_file

    root = Path(__file__).resolve().parents[1]
    return align_file(next((root / "corpus" / "seeds").glob("000_*.txt")), EDITIONS, cards=CARDS[:3])


@pytest.fixture(scope="module")
def seed1():
    if not EDITIONS.is_dir():
        pytest.skip(f"shared data not found at {SHARED}")
    from pipeline.align.run import align_file

    root = Path(__file__).resolve().parents[1]
    return align_file(next((root / "corpus" / "seeds").glob("001_*.txt")), EDITIONS, EDITIONS / "2025-11-14.txt")


def _checks(row, check):
    return [i for i in row.issues if i.check == check]


@needs_shared
def test_seed0_base_edition_is_the_ingestion_range(seed0):
    from pipeline.editions.base import infer_base_edition
    from pipeline.ingest.loader import load_document

    root = Path(__file__).resolve().parents[1]
    doc = load_document(next((root / "corpus" / "seeds").glob("000_*.txt")))
    be = infer_base_edition(doc, EDITIONS)
    assert seed0.base_edition.range.first == be.first
    assert seed0.base_edition.range.last == be.last
    # Before 117 -> 118 (2019-07-12): the paste cites 117.8 and 117.9 for costs.
    assert be.last < "2019-07-12"
    assert seed0.base_edition.label == be.last


@needs_shared
def test_seed0_rows_and_current_ids(seed0):
    rows = [r for r in seed0.rows if r.id]
    assert [r.id for r in rows] == ["616.1", "107.3b", "202.3e", "601.2b", "706.2", "702.78", "702.78a", "117.9d"]
    assert [r.current_id for r in rows] == ["616.1", "107.3b", "202.3e", "601.2b", "707.2", "702.79", "702.79a", "118.9d"]
    assert all(r.status == "aligned" and r.base_id == r.id for r in rows)
    assert "Persist" in seed0.row("702.78").source and "Persist" in seed0.row("702.78").current


@needs_shared
def test_seed0_stale_references(seed0):
    stale = {(i.excerpt, i.suggestion) for i in _checks(seed0.row("601.2b"), "references.stale")}
    assert stale == {("702.46", "702.47"), ("117.8", "118.8"), ("117.9", "118.9")}
    # 117.9d cites 601.2f, which still holds.
    assert _checks(seed0.row("117.9d"), "references.stale") == []
    # Faithful to its base: no citation differs from the English of the base edition.
    assert all(not _checks(r, "references.mismatch") for r in seed0.rows)


@needs_shared
def test_seed0_terminology_typo_and_glued_words(seed0):
    term = _checks(seed0.row("202.3e"), "terminology.renamed")
    assert len(term) == 1 and term[0].excerpt == "custo de mana convertido"
    assert "mana value" in term[0].message and term[0].suggestion == "valor de mana"
    typos = [i for r in seed0.rows for i in _checks(r, "damage.typo")]
    assert [(i.rule, i.excerpt, i.suggestion) for i in typos] == [("601.2b", "jogadro", "jogador")]
    glued = {(i.rule, i.suggestion) for r in seed0.rows for i in _checks(r, "damage.glued")}
    for rule, repaired in [("601.2b", "recuperar ou"), ("706.2", "do texto"), ("706.2", "no campo"),
                           ("702.78a", "sobre ela,"), ("616.1", "regra 101.4).")]:
        assert (rule, repaired) in glued


@needs_shared
def test_seed1_webcard_aligned_to_2025_11_14(seed1):
    assert seed1.base_edition.label == "2025-11-14" and seed1.current_edition == "2025-11-14"
    ids = ["614.12", "614.12a", "614.12b", "614.12c"]
    assert [(r.id, r.base_id, r.current_id, r.status) for r in seed1.rows] == [(i, i, i, "aligned") for i in ids]
    assert [r.inferred_number for r in seed1.rows] == [False, True, True, True]
    inferred = [r.id for r in seed1.rows if _checks(r, "structure.inferred-number")]
    assert inferred == ["614.12a", "614.12b", "614.12c"]
    # No false finding: the inferred numbers are the only findings.
    assert [i.check for i in seed1.issues] == ["structure.inferred-number"] * 3


@needs_shared
def test_cli_align_writes_every_report(tmp_path):
    root = Path(__file__).resolve().parents[1]
    seed = next((root / "corpus" / "seeds").glob("001_*.txt"))
    outs = {k: tmp_path / f"r.{k}" for k in ("json", "html", "csv", "xlf")}
    cmd = [sys.executable, "-m", "pipeline.cli", "align", str(seed), "--reference", str(EDITIONS),
           "--current", str(EDITIONS / "2025-11-14.txt"), "--json", str(outs["json"]), "--html", str(outs["html"]),
           "--csv", str(outs["csv"]), "--xliff", str(outs["xlf"])]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(outs["json"].read_text(encoding="utf-8"))
    assert [r["current_id"] for r in data["rows"]] == ["614.12", "614.12a", "614.12b", "614.12c"]
    assert data["counts"]["structure.inferred-number"] == 3 and data["score"]["words"] > 300
    assert outs["csv"].read_text(encoding="utf-8").count("structure.inferred-number") == 3
    assert outs["html"].read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert b"urn:oasis:names:tc:xliff:document:2.0" in outs["xlf"].read_bytes()
    # Same inputs, same bytes.
    first = {k: p.read_bytes() for k, p in outs.items()}
    subprocess.run(cmd, capture_output=True, text=True, cwd=root, check=True)
    assert first == {k: p.read_bytes() for k, p in outs.items()}


def test_cli_bad_input_is_one_line_and_nothing_written(tmp_path):
    root = Path(__file__).resolve().parents[1]
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01\x02binary\xff\xfe" * 50)
    ref = tmp_path / "ref.txt"
    ref.write_text("not an edition", encoding="utf-8")
    out = tmp_path / "out.json"
    proc = subprocess.run([sys.executable, "-m", "pipeline.cli", "align", str(junk), "--reference", str(ref),
                           "--json", str(out)], capture_output=True, text=True, cwd=root)
    assert proc.returncode == 2
    assert proc.stderr.startswith("crpipe: error: ") and len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr and not out.exists()
    proc = subprocess.run([sys.executable, "-m", "pipeline.cli", "align", str(junk), "--reference",
                           str(tmp_path / "nowhere")], capture_output=True, text=True, cwd=root)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


@needs_shared
def test_build_stage_writes_reports(tmp_path, cr_2025):
    from pipeline.report.stage import stage_align
    from pipeline.build import BuildContext, Input
    from pipeline.ingest.loader import load_document

    root = Path(__file__).resolve().parents[1]
    seed = next((root / "corpus" / "seeds").glob("001_*.txt"))
    ctx = BuildContext(corpus=root / "corpus", out=tmp_path, manifest={}, inputs=[Input(seed, "es", "translation", seed.stem)],
                       reference=cr_2025, editions_dir=EDITIONS)
    ctx.translations[seed.stem] = load_document(seed, lang="es")
    stage_align(ctx)
    names = sorted(p.name for p in ctx.outputs)
    assert names == [f"align-es-{seed.stem}.{x}" for x in ("csv", "html", "json", "xlf")]
    data = json.loads((tmp_path / f"align-es-{seed.stem}.json").read_text(encoding="utf-8"))
    # Issue 12: one definition of "current" everywhere, the newest edition available to the command
    # (the build's folder of editions), as in the CLI; the seed is consistent with it, so it is the base too.
    newest = sorted(p.stem for p in EDITIONS.glob("????-??-??.txt"))[-1]
    assert data["current_edition"] == newest and data["base_edition"]["label"] == newest
    assert [s["stage"] for s in ctx.skipped] == ["align: card names"]  # no MTGJSON in this manifest

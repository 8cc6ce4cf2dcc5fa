"""The build stage: the diff from a translation's base edition to the reference edition."""

from __future__ import annotations

import json

from conftest import EDITIONS, edition, needs_shared
from pipeline.build import BuildContext
from pipeline.diff.stage import stage_diff
from pipeline.ingest.loader import load_document


def _ctx(tmp_path, **kw) -> BuildContext:
    out = tmp_path / "aligned"
    out.mkdir()
    return BuildContext(corpus=tmp_path, out=out, manifest={}, inputs=[], **kw)


@needs_shared
def test_stage_writes_the_base_to_reference_diff(tmp_path, seed_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "editions"
    folder.mkdir()
    for date in ("2019-06-12", "2021-04-19", "2025-11-14"):
        (folder / f"{date}.txt").symlink_to(EDITIONS / f"{date}.txt")
    pt = load_document(seed_path("000"), lang="pt")  # cites persist as 702.78: made from an older edition
    ctx = _ctx(tmp_path, reference=edition("2025-11-14"), editions_dir=folder, translations={"seed": pt})
    stage_diff(ctx)
    assert not ctx.skipped, ctx.skipped
    d = json.loads((ctx.out / "diff-pt-seed.json").read_text(encoding="utf-8"))
    assert d["translation"]["base_edition"] == "2019-06-12"
    assert d["old"]["file"] == "2019-06-12.txt" and d["new"]["effective_date"] == "2025-11-14"
    ren = {x["old"]: x["new"] for x in d["renumbering"]}
    assert ren["702.78a"] == "702.79a" and ren["117.9d"] == "118.9d"
    assert (ctx.out / "diff-pt-seed.md").read_text(encoding="utf-8").startswith("# Comprehensive Rules changes")
    assert {p.name for p in ctx.outputs} == {"diff-pt-seed.json", "diff-pt-seed.md", "diff-pt-seed.html"}


def test_stage_skips_with_a_reason_without_editions(tmp_path):
    ctx = _ctx(tmp_path)
    stage_diff(ctx)
    assert ctx.skipped and "no translation" in ctx.skipped[0]["reason"]
    second = tmp_path / "second"
    second.mkdir()
    ctx = _ctx(second, translations={"t": object()}, reference=object())
    stage_diff(ctx)
    assert "folder of editions" in ctx.skipped[-1]["reason"]
    assert not list(ctx.out.iterdir())

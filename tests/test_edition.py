"""Edition detection: declared dates and the inferred base-edition range (acceptance item 3)."""

from __future__ import annotations

import random

import pytest

from pipeline.editions.base import declared_date, infer_base_edition
from pipeline.model import BaseMethod
from pipeline.ingest.loader import load_document
from pipeline.segment.paste import segment_text
from tests.conftest import CORPUS, EDITIONS, edition, needs_shared


def _seed(prefix):
    return sorted((CORPUS / "seeds").glob(f"{prefix}_*.txt"))[0]


@pytest.mark.parametrize("text,lang,iso", [
    ("These rules are effective as of November 14, 2025.", "en", "2025-11-14"),
    ("Essas regras são válidas na data de 14 de novembro de 2025.", "pt", "2025-11-14"),
    ("Estas reglas son válidas desde el 19 de septiembre de 2025.", "es", "2025-09-19"),
    ("Estas reglas son válidas desde el 1 de marzo de 2019.", None, "2019-03-01"),
])
def test_declared_dates_in_three_languages(text, lang, iso):
    assert declared_date(text, lang)[0] == iso


def test_declared_date_wins_in_a_paste():
    doc = segment_text("Essas regras são válidas na data de 12 de junho de 2019.\n\n616.1. Se dois efeitos tentam.", "pt")
    assert doc.meta.effective_date == "2019-06-12"


@needs_shared
def test_seed0_range_and_evidence():
    doc = load_document(_seed("000"), editions_dir=EDITIONS)
    be = doc.meta.base_edition
    assert (be.first, be.last) == ("2018-08-10", "2019-06-12")
    assert be.editions == ["2018-08-10", "2018-10-05", "2019-01-25", "2019-05-03", "2019-06-12"]
    ev = "\n".join(be.evidence)
    assert "rule 202.3e holds the symbol {X}: true in 2018-08-10" in ev
    assert "rule 117.9d exists: true in 2010-07-16 … 2019-06-12" in ev
    assert "rule 702.78 is named 'Persistir'" in ev
    assert be.confidence >= 0.9
    print("seed 000 base edition:", be.first, "…", be.last, "confidence", be.confidence)


@needs_shared
def test_seed1_range_starts_when_614_12c_appears():
    be = load_document(_seed("001"), editions_dir=EDITIONS).meta.base_edition
    assert be.first == "2025-09-19"
    assert "rule 614.12c exists: true in 2025-09-19" in "\n".join(be.evidence)


def _glued_paste(doc, n, rng):
    """``n`` rules of ``doc`` run together as text pasted out of a PDF."""
    rules = [r for r in doc.rules if r.level in ("subrule", "lettered") and len(r.text) > 30]
    picked = sorted(rng.sample(rules, n), key=lambda r: r.number)
    out = []
    for r in picked:
        sep = rng.choice([" ", "", "\n"])
        body = r.text + "".join(e.text for e in r.examples)
        out.append(f"{r.id}{sep if sep else ''}{body}")
    return " ".join(out)


@needs_shared
@pytest.mark.parametrize("date", ["2009-10-01", "2011-09-30", "2013-07-11", "2015-11-13", "2017-09-25",
                                  "2018-08-10", "2019-07-12", "2021-04-19", "2023-04-14", "2025-06-06",
                                  "2025-11-14", "2026-01-16"])
def test_30_glued_rules_find_their_edition(date):
    rng = random.Random(date)
    src = edition(date)
    doc = segment_text(_glued_paste(src, 30, rng), "en", repair=False)
    assert len(doc.rules) >= 29
    be = infer_base_edition(doc, EDITIONS)
    assert date in be.editions, (date, be.first, be.last, be.evidence[:5])
    assert be.first <= date <= be.last


@needs_shared
def test_edition_facts_are_cached_in_memory_and_on_disk(tmp_path, monkeypatch):
    import pipeline.editions.base as ed

    p = EDITIONS / "2019-06-12.txt"
    first = ed.edition_facts(p)
    assert ed.edition_facts(p) is first  # memory
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path))
    monkeypatch.setattr(ed, "_MEMO", {})
    built = ed.edition_facts(p)
    files = list((tmp_path / "edition-facts").glob("2019-06-12-*.json"))
    assert len(files) == 1
    monkeypatch.setattr(ed, "_MEMO", {})
    assert ed.edition_facts(p) == built  # read back from disk
    assert built["rules"]["117.9d"]["refs"] == first["rules"]["117.9d"]["refs"]


@needs_shared
def test_edition_facts_come_from_the_one_inventory(tmp_path, monkeypatch):
    """The facts are worked out from the edition's inventory (pipeline.inventory, which show and
    diff read too), not from a parse of their own: with the facts gone, nothing is parsed."""
    import hashlib

    import pipeline.editions.base as ed
    from pipeline.inventory import cached_document

    p = EDITIONS / "2019-06-12.txt"
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path))
    monkeypatch.setattr(ed, "_MEMO", {})
    built = ed.edition_facts(p)
    for f in (tmp_path / "edition-facts").iterdir():
        f.unlink()
    monkeypatch.setattr(ed, "_MEMO", {})

    def refuse(*_a):
        raise AssertionError("parsed again")

    monkeypatch.setattr(ed, "parse_file", refuse)
    assert ed.edition_facts(p) == built
    doc = cached_document(hashlib.sha256(p.read_bytes()).hexdigest(), p.name, "official", refuse)
    assert sorted(built["rules"]) == sorted(r.id for r in doc.rules)


@needs_shared
def test_a_declared_date_wins_over_inference():
    doc = segment_text("Estas reglas son válidas desde el 12 de junio de 2019.\n\n616.1. Si dos efectos.", "es")
    be = infer_base_edition(doc, EDITIONS)
    assert be.method is BaseMethod.DECLARED and be.editions == ["2019-06-12"] and be.declared == "2019-06-12"
    # File names can lie: the 2019-06-12 PDF states June 14, which is the 2019-06-12 file's edition.
    pdf = load_document(EDITIONS.parent / "pdf" / "2019-06-12.pdf", editions_dir=EDITIONS)
    assert pdf.meta.base_edition.editions == ["2019-06-12"]


@needs_shared
def test_each_editions_head_states_the_date_its_parse_finds():
    """The head read for a declared document's edition list agrees with a full parse of every
    edition of the archive (the 2006-06-01 file states 2004-06-01, 2013-04-29 states May 1...)."""
    import pipeline.editions.base as ed
    from pipeline.segment.official import parse_file

    for p in sorted(EDITIONS.glob("*.txt")):
        assert ed._stated_date(p) == parse_file(p).meta.effective_date, p.name


@needs_shared
def test_a_declared_document_reads_no_inventory(monkeypatch):
    import pipeline.editions.base as ed

    def refuse(path):
        raise AssertionError(f"inventory of {path} loaded")

    monkeypatch.setattr(ed, "edition_facts", refuse)
    monkeypatch.setattr(ed, "_MEMO", {})
    doc = load_document(EDITIONS / "2025-11-14.txt", editions_dir=EDITIONS)
    assert doc.meta.base_edition.editions == ["2025-11-14"]
    assert doc.meta.base_edition.method is BaseMethod.DECLARED


def test_a_head_that_does_not_settle_the_date_defers_to_the_inventory(tmp_path):
    import pipeline.editions.base as ed

    late = tmp_path / "late.txt"
    late.write_text("Comprehensive Rules\n" + "x\n" * 5000 + "These rules are effective as of May 1, 2020.\n")
    assert ed._stated_date(late) is None  # past the head: the caller parses the file
    utf16 = tmp_path / "utf16.txt"
    utf16.write_bytes("\ufeffThese rules are effective as of May 1, 2020.\n\n".encode("utf-16-le") + b"x\x00" * 200)
    assert ed._stated_date(utf16) == "2020-05-01"
    bomless = tmp_path / "bomless.txt"
    bomless.write_bytes("These rules are effective as of May 1, 2020.\n".encode("utf-16-le") + b"x\x00" * 200)
    assert ed._stated_date(bomless) is None  # no BOM: the decoder decides

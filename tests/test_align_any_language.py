"""Issue 28: a translation in a language without a profile is aligned, not refused (acceptance 1),
and a CR published as a site's Markdown or HTML pages reads as one document (acceptance 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import EDITIONS, SHARED, needs_shared

DATA = Path(__file__).parent / "data"
RU = DATA / "any-language" / "ru-paste.txt"  # Russian, written for this test: no profile ships for it
PAGES = DATA / "site-pages"
SEED0 = Path(__file__).resolve().parents[1] / "corpus" / "seeds"
PO = SHARED / "corpus" / "translations" / "pt-BR" / "comprehensive-rules.pt-BR.po"


def _cli(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)


# -- acceptance 1: a language without a profile -------------------------------------------------

@pytest.fixture(scope="module")
def ru_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("ru") / "ru.json"
    r = _cli("align", RU, "--json", out)  # the embedded editions: no shared data needed
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    return r, json.loads(out.read_text(encoding="utf-8"))


def test_a_russian_paste_is_aligned_by_number_with_structure_and_references(ru_report):
    r, d = ru_report
    rows = {x["id"] or x["base_id"]: x for x in d["rows"]}
    assert [x["id"] for x in d["rows"] if x["id"]] == ["100.1", "100.1a", "100.1b", "100.2", "100.2a", "100.2c",
                                                       "100.2d", "100.4a"]
    assert all(x["status"] == "aligned" and x["method"] == "number" for x in d["rows"] if x["id"])
    # Structure: 100.2b lies between two translated rules of its family (a paste's gap).
    assert rows["100.2b"]["status"] == "missing"
    assert [f["check"] for f in rows["100.2b"]["findings"]] == ["structure.missing"]
    # The rule left in English is coverage, not a missing or a translated rule.
    assert d["coverage"]["untranslated_rules"] == ["100.3"]
    # References read with the cue words learnt from the document: 902 for the English 903.
    ref = [f for f in rows["100.2c"]["findings"] if f["check"] == "references.mismatch"]
    assert len(ref) == 1 and ref[0]["suggestion"] == "903"
    # "См. раздел 8": the section word is learnt too (no mismatch on 100.1b).
    assert rows["100.1b"]["findings"] == []
    # Digits: "50 карт" where the English has 60 cards.
    assert any(f["check"] == "anchors.numbers" and "50" in f["message"] for f in rows["100.2a"]["findings"])
    # The base edition is inferred from the rule inventory (100.2d cites 717 since 2023-04-14).
    assert d["base_edition"]["range"]["first"] == "2023-04-14" and d["base_edition"]["label"]
    assert r.returncode == 1  # errors found (--fail-on error), never a refusal


def test_every_check_needing_a_profile_is_listed_as_not_run(ru_report):
    from pipeline.align.checks.registry import all_checks, is_neutral

    r, d = ru_report
    not_run = {x["check"]: x["reason"] for x in d["not_run"]}
    every = {c.id for c in all_checks()}
    assert set(not_run) == {c for c in every if not is_neutral(c)}
    assert {"structure.missing", "references.mismatch", "references.stale", "anchors.numbers"} <= every - set(not_run)
    assert all("needs a language profile" in why for why in not_run.values())
    assert not set(not_run) & set(d["counts"])  # a check not run counts nothing, not zero
    assert any(n.startswith(f"{len(not_run)} checks not run") for n in d["notes"])
    assert "rule_words правило; see_words см" in " ".join(d["notes"])
    assert "checks not run" in r.stdout  # the summary says it too
    found = {f["check"] for x in d["rows"] for f in x["findings"]}
    assert not found & set(not_run)


def test_a_language_code_without_a_profile_is_taken_and_a_bad_one_refused(tmp_path):
    r = _cli("align", RU, "--lang", "ru", "--json", tmp_path / "a.json")
    assert r.returncode in (0, 1), r.stderr
    d = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert d["translation"]["language"] == "ru"
    assert "no profile for 'ru'" in d["not_run"][0]["reason"]
    bad = _cli("align", RU, "--lang", "../x", "--json", tmp_path / "b.json")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
    assert not (tmp_path / "b.json").exists()


@needs_shared
def test_the_portuguese_seed_with_its_profile_withheld_keeps_numbers_structure_and_references():
    from pipeline.align.run import align_file

    res = align_file(next(SEED0.glob("000_*.txt")), EDITIONS, lang="xx")
    rows = [r for r in res.rows if r.id]
    # As with the Portuguese profile (tests/test_align_seeds.py): rows, current ids, base edition.
    assert [r.id for r in rows] == ["616.1", "107.3b", "202.3e", "601.2b", "706.2", "702.78", "702.78a", "117.9d"]
    assert [r.current_id for r in rows] == ["616.1", "107.3b", "202.3e", "601.2b", "707.2", "702.79", "702.79a",
                                            "118.9d"]
    assert res.base_edition.label < "2019-07-12"
    stale = sorted(i.message.split(",")[0] for i in res.issues if i.check == "references.stale")
    assert stale == ["cites 117.8", "cites 117.9", "cites 702.46"]
    assert res.learnt_profile.rule_words[:1] == ("regra",) and res.learnt_profile.see_words[:1] == ("consulte",)
    assert res.not_run and {d["check"] for d in res.not_run} >= {"damage.typo", "grammar.agreement"}


@needs_shared
@pytest.mark.skipif(not PO.is_file(), reason=f"the pt-BR PO is not in {SHARED}")
def test_the_pt_br_po_with_its_profile_withheld(tmp_path):
    out = tmp_path / "po.json"
    r = _cli("align", PO, "--lang", "xx", "--reference", EDITIONS, "--json", out)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    d = json.loads(out.read_text(encoding="utf-8"))
    # As with the profile: the same pinned edition, every rule aligned, the stale references found.
    assert d["base_edition"]["label"] == "2020-11-20"
    assert len(d["rows"]) == 1178 and all(x["status"] == "aligned" for x in d["rows"])
    assert d["counts"]["references.stale"] == 183 and d["counts"]["references.mismatch"] == 5
    assert "grammar.agreement" in {x["check"] for x in d["not_run"]}


# -- acceptance 2: a site's pages -----------------------------------------------------------------

EXPECTED = ["100", "100.1", "100.1a", "100.2", "100.2a", "101", "101.1", "200", "200.1", "200.2", "201.1", "400",
            "400.1", "400.1a"]


def _model(doc):
    return [(r.id, r.text, [e.text for e in r.examples]) for r in doc.rules]


def test_markdown_pages_read_as_one_document_in_page_order():
    from pipeline.ingest.loader import load_document

    doc = load_document(PAGES / "md")
    assert doc.meta.format == "markdown" and doc.meta.language == "pt"
    assert [r.id for r in doc.rules] == EXPECTED
    r = {x.id: x for x in doc.rules}
    assert r["100.2"].text.endswith("Consulte a regra 100.2a.")  # the anchor left no trace
    assert r["101.1"].examples[0].text.startswith("Exemplo: Um card diz")
    assert "**" not in " ".join(x.text for x in doc.rules) and "weight" not in " ".join(x.text for x in doc.rules)


def test_the_rendered_html_pages_give_the_same_model():
    from pipeline.ingest.loader import load_document

    md, html = load_document(PAGES / "md"), load_document(PAGES / "html")
    assert html.meta.format == "html"
    assert _model(md) == _model(html)


def test_a_list_of_pages_and_page_order():
    from pipeline.ingest.loader import load_document
    from pipeline.ingest.pages import order_pages

    files = sorted((PAGES / "md").glob("*.md"))
    # Every page has a weight: the front matter orders them, whatever the list's order.
    assert _model(load_document(list(reversed(files)))) == _model(load_document(PAGES / "md"))
    # Without weights: natural name order for a folder ("2-…" before "10-…"), the order given for a list.
    names = [Path("10-b.html"), Path("2-a.html")]
    assert order_pages(names) == [Path("2-a.html"), Path("10-b.html")]
    assert order_pages(names, given=True) == names


def test_one_markdown_page_is_chosen_by_content(tmp_path):
    from pipeline.ingest.detect import detect_format
    from pipeline.ingest.loader import load_document

    page = (PAGES / "md" / "02-partes.md").read_bytes()
    assert detect_format(page, "secao-2.txt") == "markdown"  # TOML front matter, whatever the name
    plain = b"200.1. As partes de um card.\n\n200.2. Algumas partes.\n"
    assert detect_format(plain, "x.txt") == "paste"
    bold = b"**200.1.** As partes de um card.\n\n**200.2.** Algumas partes.\n"
    assert detect_format(bold, "x.txt") == "markdown"
    p = tmp_path / "secao.txt"
    p.write_bytes(page)
    assert [r.id for r in load_document(p).rules] == ["200", "200.1", "200.2", "201.1"]


def test_cli_parses_a_folder_of_pages_and_refuses_an_empty_one(tmp_path):
    r = _cli("parse", PAGES / "md", "--json", tmp_path / "doc.json")
    assert r.returncode == 0, r.stderr
    (tmp_path / "empty").mkdir()
    bad = _cli("parse", tmp_path / "empty")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200).filter(lambda s: not s.startswith(("-", "+")))


@settings(max_examples=200, deadline=None)
@given(body=_TEXT, title=st.text(st.characters(whitelist_categories=("L", "N")), min_size=1, max_size=20))
def test_front_matter_is_taken_off_and_nothing_else(body, title):
    from pipeline.ingest.pages import front_matter

    assert front_matter(body) == ({}, body)
    meta, rest = front_matter(f"---\ntitle: \"{title}\"\nweight: 3\n---\n{body}")
    assert meta == {"title": title, "weight": 3} and rest == body
    meta, rest = front_matter(f"+++\ntitle = \"{title}\"\n+++\n{body}")
    assert meta == {"title": title} and rest == body

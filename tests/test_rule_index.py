"""Issue 18: what ``show`` and ``history`` read from the cache instead of parsing -- the
per-edition rule index, the rule-text tables and the catalog's remembered scan -- gives the
same answers as the parse, and a damaged cache entry is rebuilt, never believed."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from conftest import EDITIONS, needs_shared
from pipeline.editions.catalog import Catalog, default_catalog
from pipeline.inventory import from_data, to_data
from pipeline.rule_index import build_index, edition_index, index_path
from pipeline.rulenum import RuleNumber, sort_ids
from pipeline.show import show_rule
from pipeline.xref import extract_references

pytestmark = needs_shared

QUERIES = [("601.2f", None), ("persist", None), ("mana value", None), ("120.4.", None), ("702", None),
           ("100.1", "2025-11-14"), ("702.78a", "2019-06-12")]


@pytest.fixture
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("CRPIPE_MIRROR", str(EDITIONS))
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_index_cites_and_cited_by_are_the_cross_references(cache):
    """The index's lists are exactly what the cross-reference pass says (the formula show used)."""
    ref = default_catalog().resolve("2025-11-14")
    doc = ref.parse()
    idx = build_index(doc)
    refs = extract_references(doc)
    for rid in ["601.2f", "702.79", "100.1", "704.5k", "117.1", "509.1"]:
        rule = doc.rule(rid)
        inside = {rid}
        todo = list(rule.children)
        while todo:
            c = doc.rule(todo.pop())
            if c is not None:
                inside.add(c.id)
                todo += c.children
        cites = sort_ids({t for r in refs if r.source == rid for t in r.targets if t != rid})
        cited_by = sorted({r.source for r in refs if rid in r.targets and r.source not in inside},
                          key=lambda s: (s.startswith("glossary:"), RuleNumber.try_parse(s) or RuleNumber.parse("999"), s))
        assert idx.cites[rid] == cites and idx.cited_by[rid] == cited_by, rid
    assert [r.id for r in idx.doc.rules] == [r.id for r in doc.rules]
    assert [r.example_texts for r in idx.doc.rules] == [r.example_texts for r in doc.rules]
    # The references found in the inventory are the parse's, and the inventory survives JSON.
    again = build_index(idx.doc)
    assert (again.cites, again.cited_by) == (idx.cites, idx.cited_by)
    assert to_data(from_data(json.loads(json.dumps(to_data(doc))))) == to_data(doc)


def test_show_is_the_same_cold_warm_and_after_damage(cache):
    cat = default_catalog()
    cold = [show_rule(q, e, catalog=cat).to_dict() for q, e in QUERIES]
    ref = cat.resolve("latest")
    path = index_path(ref.sha256)
    assert path.is_file()
    warm = [show_rule(q, e, catalog=cat).to_dict() for q, e in QUERIES]
    assert warm == cold
    inv = next(cache.glob("inventory-*/" + ref.sha256 + "-*.json"))
    for entry, spoil in ((path, lambda d: d["cites"].update({"601.2f": 5})), (inv, lambda d: d["rules"][0].__setitem__(4, 17))):
        good = entry.read_text(encoding="utf-8")
        data = json.loads(good)
        spoil(data)
        for junk in ["", "{not json", json.dumps({"schema": "other"}), json.dumps(data),
                     good.replace(ref.sha256, "0" * 64)]:  # another edition's
            entry.write_text(junk, encoding="utf-8")
            assert show_rule("601.2f", catalog=cat).to_dict() == cold[0]
            assert json.loads(entry.read_text(encoding="utf-8")) == json.loads(good)  # rebuilt


def test_show_needs_no_cache(cache, monkeypatch):
    """An unwritable cache only costs time."""
    cat = default_catalog()
    want = show_rule("601.2f", catalog=cat, history=False).to_dict()  # (history: the test above)
    monkeypatch.setenv("CRPIPE_CACHE", "/proc/crpipe-cannot-write-here")
    assert show_rule("601.2f", catalog=default_catalog(), history=False).to_dict() == want
    monkeypatch.setenv("CRPIPE_CACHE", str(cache))
    ref = cat.resolve("latest")
    nocache = edition_index(ref, cache=False)
    warm = edition_index(ref)
    assert to_data(nocache.doc) == to_data(warm.doc) and nocache.refs_data() == warm.refs_data()


def test_catalog_scan_notices_a_changed_file(cache, tmp_path):
    folder = tmp_path / "eds"
    folder.mkdir()
    for d in ("2025-09-19", "2025-11-14"):
        shutil.copy(EDITIONS / f"{d}.txt", folder / f"{d}.txt")
    first = Catalog(folder=folder)
    again = Catalog(folder=folder)  # from the remembered scan
    assert [(r.name, r.date, r.sha256) for r in again.editions] == [(r.name, r.date, r.sha256) for r in first.editions]
    # Replace one file's bytes (another edition under the same name): a new sha256 and date.
    target = folder / "2025-09-19.txt"
    target.unlink()
    shutil.copy(EDITIONS / "2025-06-06.txt", target)
    changed = Catalog(folder=folder)
    got = {r.name: (r.date, r.sha256) for r in changed.editions}
    assert got["2025-09-19.txt"][0] == "2025-06-06" and got["2025-09-19.txt"][1] != first.editions[0].sha256
    # A damaged scan record is ignored.
    for rec in (cache.glob("editions-meta-*/folders/*.json")):
        rec.write_text('{"folder": "x", "files": 3}')
    assert [(r.name, r.date, r.sha256) for r in Catalog(folder=folder).editions] == \
        [(r.name, r.date, r.sha256) for r in changed.editions]


def test_history_texts_table_matches_the_parse(cache, tmp_path):
    from pipeline.diff.history import EditionArchive  # noqa: PLC0415

    folder = tmp_path / "eds"
    folder.mkdir()
    for d in ("2025-09-19", "2025-11-14"):
        shutil.copy(EDITIONS / f"{d}.txt", folder / f"{d}.txt")
    arch = EditionArchive(folder, cache_dir=cache)
    cold = arch.lineage("601.2f").to_dict()
    fresh = EditionArchive(folder, cache_dir=cache)
    table = fresh.texts(1)
    doc = fresh.editions[1].ref.parse()
    assert table == {r.id: doc.rule(r.id).text for r in doc.rules}
    assert fresh.lineage("601.2f").to_dict() == cold
    for p in cache.glob("texts-*/*.json"):
        p.write_text(json.dumps({"601.2f": 5}))
    assert EditionArchive(folder, cache_dir=cache).lineage("601.2f").to_dict() == cold
    assert os.environ["CRPIPE_CACHE"] == str(cache)


def test_show_history_line_is_recorded_and_damage_is_ignored(cache):
    cat = default_catalog()
    want = show_rule("702.79a", catalog=cat).history
    assert want and "702.78a" in want
    (path,) = cache.glob("show-history/*.json")
    assert json.loads(path.read_text())["lines"]["702.79a"] == want
    for junk in ('{"lines": {"702.79a": 5}}', "{not json", '{"lines": []}'):
        path.write_text(junk)
        assert show_rule("702.79a", catalog=cat).history == want
    # A recorded line is what is shown (the record is what a warm show reads) ...
    path.write_text(json.dumps({"lines": {"702.79a": "recorded"}}))
    assert show_rule("702.79a", catalog=cat).history == "recorded"
    # ... and another archive (here: one edition fewer) has its own record.
    fewer = Catalog(folder=None, mirror=EDITIONS)
    fewer.editions = [r for r in fewer.editions if r.date != "2003-03-15"]
    assert show_rule("702.79a", catalog=fewer).history == want  # persist is younger than 2003: same line
    assert len(list(cache.glob("show-history/*.json"))) == 2

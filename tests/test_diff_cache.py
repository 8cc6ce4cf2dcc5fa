"""Issue 18, item 3: a diff reads its fixed costs (the rule matching, the line-diff count) from
the disk cache the second time, with the same result; a changed document is never served a
stale entry."""

from __future__ import annotations

import copy

import pytest

from conftest import edition, needs_shared
from pipeline.diff import classify, diff_documents
from pipeline.io import dumps


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path))
    return tmp_path


def _no_matching(*a, **k):
    raise AssertionError("the matching should have come from the cache")


@needs_shared
def test_second_diff_reads_the_cache_and_says_the_same(cache, monkeypatch):
    old, new = edition("2025-09-19"), edition("2025-11-14")
    first = dumps(diff_documents(old, new).to_dict())
    entries = list(cache.glob("diff-*/documents/*.json"))
    assert len(entries) == 1
    monkeypatch.setattr(classify, "match_items", _no_matching)
    monkeypatch.setattr(classify, "_count_line_diff", _no_matching)
    assert dumps(diff_documents(old, new).to_dict()) == first


@needs_shared
def test_a_changed_document_is_matched_again(cache, monkeypatch):
    old, new = edition("2025-09-19"), edition("2025-11-14")
    diff_documents(old, new)
    edited = copy.deepcopy(new)
    r = next(r for r in edited.rules if r.id == "601.2f")
    r.text = r.text.replace("total cost", "full cost")
    assert classify.content_key(edited) != classify.content_key(new)
    res = diff_documents(old, edited)
    assert any(c.new == "601.2f" and "full" in (c.new_text or "") for c in res.changes)
    assert len(list(cache.glob("diff-*/documents/*.json"))) == 2


@needs_shared
def test_no_cache_when_asked(cache):
    diff_documents(edition("2025-09-19"), edition("2025-11-14"), cache=False)
    assert list(cache.glob("diff-*/documents/*.json")) == []


# -- the editions' inventories (pipeline/inventory.py): a warm ``crpipe diff`` parses nothing ------

@needs_shared
@pytest.mark.parametrize("pair", [("2025-09-19", "2025-11-14"), ("2021-02-24", "2021-04-19"),
                                  ("2019-06-12", "2019-07-12"), ("2025-04-04", "2025-06-06")])
def test_diff_from_inventories_is_byte_identical(cache, monkeypatch, pair):
    """Every format of the report is the same from the parse and from the cached inventories
    (cold, warm, and after an inventory entry was damaged)."""
    from conftest import EDITIONS  # noqa: PLC0415
    from pipeline.diff import bounds  # noqa: PLC0415
    from pipeline.diff.report_html import render_html  # noqa: PLC0415
    from pipeline.diff.report_md import render_markdown  # noqa: PLC0415

    a, b = (EDITIONS / f"{d}.txt" for d in pair)

    def reports(cache_on: bool) -> list[str]:
        res = diff_documents(bounds.load_diffable(a, cache=cache_on), bounds.load_diffable(b, cache=cache_on))
        return [dumps(res.to_dict()), dumps(res.to_dict(expand_moves=True)), render_markdown(res), render_html(res)]

    want = reports(False)
    assert reports(True) == want  # cold: inventories written
    entries = sorted(cache.glob("inventory-*/*.json"))
    assert len(entries) == 2
    monkeypatch.setattr(bounds, "load_document", _no_matching)  # warm: no parse
    assert reports(True) == want
    monkeypatch.undo()
    monkeypatch.setenv("CRPIPE_CACHE", str(cache))
    entries[0].write_text('{"schema": "crpipe-inventory/1", "rules": 7}')
    assert reports(True) == want

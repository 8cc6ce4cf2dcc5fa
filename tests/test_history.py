"""EditionArchive and ``crpipe history`` on a few real editions (acceptance 4; the full
110-edition run with timings is in benchmarks/bench_diff.py)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from conftest import EDITIONS, needs_shared
from pipeline.cli import app
from pipeline.diff import EditionArchive
from pipeline.errors import InputError

pytestmark = needs_shared

PERSIST = ["2013-07-11", "2019-06-12", "2021-02-24", "2021-04-19", "2021-07-12", "2026-01-16"]


def _folder(tmp_path, dates) -> "Path":
    d = tmp_path / "editions"
    d.mkdir()
    for date in dates:
        (d / f"{date}.txt").symlink_to(EDITIONS / f"{date}.txt")
    return d


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hist")
    return EditionArchive(_folder(tmp, PERSIST), cache_dir=tmp / "cache")


def test_persist_lineage(archive):
    lin = archive.lineage("702.79a")
    spans = [(s["number"], s["first"], s["last"]) for s in lin.spans]
    assert spans == [("702.78a", "2013-07-11", "2021-02-24"), ("702.79a", "2021-04-19", "2026-01-16")]
    assert lin.appeared is None and lin.disappeared is None  # present throughout
    assert lin.numbers == ["702.78a", "702.79a"]


def test_text_changes_are_dated(archive):
    lin = archive.lineage("118.9d")  # costs 117 -> 118 on 2019-07-12; wording changed since
    assert lin.spans[0]["number"] == "117.9d" and lin.spans[-1]["number"] == "118.9d"
    assert lin.text_changes, "118.9d was reworded at least once since 2013"
    for ch in lin.text_changes:
        assert ch["edition"] in PERSIST and ch["old_text"] != ch["new_text"]
        assert "".join(t for op, t in ch["word_diff"] if op != "+") == ch["old_text"]


def test_map_number_both_ways(archive):
    assert archive.map_number("702.78a", "2021-02-24", "2026-01-16") == "702.79a"
    assert archive.map_number("702.79a", "2026-01-16", "2013-07-11") == "702.78a"
    assert archive.map_number("117.9d", "2019-06-12", "2021-07-12") == "118.9d"
    # by stated effective date as well as by file date
    assert archive.map_number("702.78a", "2021-02-15", "2021-04-22") == "702.79a"


def test_a_rule_that_appeared(archive):
    lin = archive.lineage("702.21a")  # ward arrived 2021-04-19
    assert lin.appeared == "2021-04-19"
    assert lin.spans[0]["first"] == "2021-04-19"


def test_warm_queries_use_the_cache(archive, monkeypatch):
    archive.precompute()
    fresh = EditionArchive(archive.dir, cache_dir=archive.cache_dir.parent)
    import pipeline.diff.history as history

    def boom(*a, **k):
        raise AssertionError("a cached pair was matched again")

    monkeypatch.setattr(history, "match_rules", boom)
    assert fresh.lineage("702.79a").numbers == ["702.78a", "702.79a"]


def test_editions_ordered_by_stated_date_not_file_name(tmp_path):
    arch = EditionArchive(_folder(tmp_path, ["2004-02-01", "2004-10-01", "2006-06-01"]), cache_dir=tmp_path / "c")
    assert arch.dates() == ["2004-02-01", "2006-06-01", "2004-10-01"]  # 2006-06-01.txt is the 2004-06-01 edition
    assert arch.editions[1].effective_date == "2004-06-01"


def test_truncated_edition_is_left_out(tmp_path):
    arch = EditionArchive(_folder(tmp_path, ["2012-10-01", "2013-02-01"]), cache_dir=tmp_path / "c")
    assert arch.dates() == ["2012-10-01"]
    assert arch.skipped == [{"file": "2013-02-01.txt", "reason": "truncated edition"}]


def test_unknown_rule_and_folder_are_input_errors(archive, tmp_path):
    with pytest.raises(InputError, match="no rule 999.9z"):
        archive.lineage("999.9z")
    with pytest.raises(InputError):
        EditionArchive(tmp_path / "missing")


def test_cli_history_json(archive):
    res = CliRunner().invoke(app, ["history", "702.79a", "--editions", str(archive.dir),
                                   "--cache", str(archive.cache_dir.parent), "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert [s["number"] for s in d["spans"]] == ["702.78a", "702.79a"]
    assert d["spans"][0]["last"] == "2021-02-24" and d["spans"][1]["first"] == "2021-04-19"
    table = CliRunner().invoke(app, ["history", "702.79a", "--editions", str(archive.dir),
                                     "--cache", str(archive.cache_dir.parent)])
    # the table names editions by their stated dates (2021-04-19.txt states 2021-04-22)
    assert table.exit_code == 0 and "702.78a" in table.output and "2021-04-22" in table.output
    bad = CliRunner().invoke(app, ["history", "banana", "--editions", str(archive.dir)])
    assert bad.exit_code == 2 and "not a rule number" in bad.output


@pytest.mark.parametrize("date", ["2006-06-01", "2013-02-01", "2013-04-29", "2022-11-18", "2024-08-02", "2026-01-16"])
def test_quick_scan_agrees_with_the_parser(date):
    """The archive's cheap scan (no decoding, no parse) must see what the parser sees:
    UTF-16, bare CR, cp1252, a lying file name, a truncated file."""
    from conftest import edition
    from pipeline.diff.history import _quick_meta

    doc = edition(date)
    meta = _quick_meta(EDITIONS / f"{date}.txt")
    assert meta["effective_date"] == doc.meta.effective_date
    assert meta["truncated"] == any(f.kind == "truncated" for f in doc.findings)


def test_cold_archive_is_matched_in_worker_processes(tmp_path, archive):
    dates = ["2019-06-12", "2019-07-12", "2019-08-23", "2019-10-04", "2020-01-22", "2020-04-17",
             "2020-06-01", "2020-07-03", "2021-02-24", "2021-04-19"]
    # Not the shipped maps of these pairs: the workers must match them.
    arch = EditionArchive(_folder(tmp_path, dates), cache_dir=tmp_path / "c", shipped=False)
    assert len(arch.missing()) == len(dates) - 1 >= 8
    assert arch.precompute(workers=2) == len(dates) - 1
    assert arch.missing() == []
    assert arch.map_number("117.9d", "2019-06-12", "2021-04-19") == "118.9d"
    assert arch.map_number("702.78a", "2019-06-12", "2021-04-19") == "702.79a"
    # the same answers as the serially matched archive
    assert arch.map_number("702.79a", "2021-04-19", "2019-06-12") == archive.map_number("702.79a", "2021-04-19", "2019-06-12")

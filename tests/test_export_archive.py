"""Issue 14, acceptance 6: the export works on every official edition, including the five that
print one rule number twice; it writes all formats or none.

The 110 editions are parsed once per session (``conftest.edition``, shared with the archive
tests), so this costs only the exports (~0.15 s an edition)."""

from __future__ import annotations

import json
import os
import sqlite3

import pytest
from typer.testing import CliRunner

from conftest import EDITIONS, edition, edition_files, edition_spread, needs_shared

REPEATING = ("2005-08-01", "2006-05-01", "2006-06-01", "2009-09-04", "2009-10-01")


@needs_shared
def test_export_all_110_editions(tmp_path):
    """Every edition exports (the spread of 15 and the truncated one in the suite: exporting all
    110 took 37 s of its 10 minutes; CRPIPE_TEST_ALL_EDITIONS=1 exports every one)."""
    from pipeline.export import export_all

    dates = [p.stem for p in edition_files()]
    assert len(dates) == 110
    every = os.environ.get("CRPIPE_TEST_ALL_EDITIONS") == "1"
    dates = dates if every else sorted(set(edition_spread(dates)) | {"2013-02-01"})
    truncated = []
    for date in dates:
        doc = edition(date)
        if any(f.kind == "truncated" for f in doc.findings):
            truncated.append(date)  # `parse` exports it only with --partial, by design
        paths = export_all(doc, tmp_path, date)
        con = sqlite3.connect(paths[3])
        try:
            assert con.execute("SELECT count(*) FROM rules").fetchone()[0] == len(doc.rules), date
        finally:
            con.close()
        for p in paths:
            p.unlink()
    assert truncated == ["2013-02-01"]


@needs_shared
@pytest.mark.parametrize("date", REPEATING)
def test_parse_export_on_editions_that_repeat_a_number(tmp_path, date):
    from pipeline.cli import app

    r = CliRunner().invoke(app, ["parse", str(EDITIONS / f"{date}.txt"), "--export", str(tmp_path)])
    assert r.exit_code == 0, r.output
    doc = edition(date)
    ids = [x.id for x in doc.rules]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    assert dup, f"{date} should repeat a rule number"
    db = next(tmp_path.glob("*.sqlite"))
    con = sqlite3.connect(db)
    try:
        for rid in dup:
            rows = con.execute("SELECT ord, text FROM rules WHERE id = ? ORDER BY ord", (rid,)).fetchall()
            assert len(rows) == ids.count(rid) and len({o for o, _ in rows}) == len(rows)
    finally:
        con.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(  # the four formats and the export's record
        [f"en-{doc.meta.effective_date}{x}" for x in (".json", ".rules.csv", ".rules.parquet", ".sqlite")]
        + ["crpipe-export.json"])
    model = json.loads(next(p for p in tmp_path.glob("*.json") if p.name != "crpipe-export.json").read_text())
    assert [r["id"] for r in model["rules"]] == ids


def test_export_writes_all_formats_or_none(tmp_path, monkeypatch):
    from crfixture import CLEAN_RULES, document
    from pipeline import export
    from pipeline.segment.official import parse_text

    rules = list(CLEAN_RULES)
    rules.insert(rules.index("100.1b A multiplayer game has more.") + 1, "100.1b The same number again.")
    doc = parse_text(document(rules))
    export.export_all(doc, tmp_path / "ok", "x")
    assert len(list((tmp_path / "ok").iterdir())) == 4
    con = sqlite3.connect(tmp_path / "ok" / "x.sqlite")
    assert [t for (t,) in con.execute("SELECT text FROM rules WHERE id = '100.1b' ORDER BY ord")] == [
        "A multiplayer game has more.", "The same number again."]
    con.close()

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export, "_sqlite_to", boom)
    with pytest.raises(OSError):
        export.export_all(doc, tmp_path / "bad", "x")
    assert list((tmp_path / "bad").iterdir()) == []

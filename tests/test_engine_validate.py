"""Issue 8, acceptance 1-2: ``crpipe validate-engine`` against the engine's own edition and,
through the diffs' renumbering map, against 2019-06-12."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from conftest import EDITIONS, edition, needs_shared
from pipeline.cli import app
from pipeline.engine.validate import TARGET_SECTIONS, validate

pytestmark = needs_shared
runner = CliRunner()


def _folder(tmp_path, dates):
    d = tmp_path / "editions"
    d.mkdir()
    for date in dates:
        (d / f"{date}.txt").symlink_to(EDITIONS / f"{date}.txt")
    return d


def test_validate_2025_has_no_missing_or_undeclared(cr_2025):
    rep = validate(cr_2025)
    assert rep.ok
    assert rep.missing == [] and rep.undeclared == [] and rep.scenario_missing == []
    assert rep.review == []  # the key terms were taken from this edition
    assert all(r.passed for r in rep.results) and len(rep.results) >= 60
    sections = [row.declared_as for row in rep.coverage]
    assert sections == list(TARGET_SECTIONS)
    row = {r.section: r for r in rep.coverage}
    assert {"702.79", "702.79a"} <= set(row["702.79"].implemented)
    assert "707.10" in row["707"].with_scenario and "601.2f" in row["601.2"].implemented


def test_cli_validate_engine_prints_coverage():
    res = runner.invoke(app, ["validate-engine", "--rules", str(EDITIONS / "2025-11-14.txt")])
    assert res.exit_code == 0, res.output
    assert "coverage of the targeted sections" in res.output
    assert "missing rule ids" in res.output and "passed" in res.output
    res = runner.invoke(app, ["validate-engine", "--rules", str(EDITIONS / "2025-11-14.txt"), "--json"])
    data = json.loads(res.output)
    assert data["ok"] and data["missing"] == [] and data["undeclared"] == []
    assert data["scenarios"]["passed"] == data["scenarios"]["total"]


def test_older_edition_maps_through_the_known_editions_without_flags():
    """Issue 13: no --editions needed; an edition named by its date (the embedded archive
    or the mirror) is mapped through every known edition."""
    res = runner.invoke(app, ["validate-engine", "--rules", "2019-06-14", "--json"])
    assert res.exit_code == 1, res.output  # 118.13a did not exist in 2019
    data = json.loads(res.output)
    # 616.1d is no longer declared: nothing in the kernel reaches it
    assert data["renumbered"]["118.9d"] == "117.9d" and data["missing"] == ["118.13a"]


def test_renumbered_through_the_diffs(tmp_path):
    # A few editions around the renumberings (111 tokens in 2019-07-12, ward in 2021-04-19,
    # 706 "Rolling a Die" in 2021-07-12) keep this fast; the map is the diffs', not ours.
    folder = _folder(tmp_path, ["2019-06-12", "2019-07-12", "2021-04-19", "2021-07-12", "2025-11-14"])
    rep = validate(edition("2019-06-12"), folder, target_label="2019-06-12", cache_dir=tmp_path / "cache")
    ren = rep.renumbered
    assert ren["118.9d"] == "117.9d"
    sevens = {k: v for k, v in ren.items() if k.startswith("707.")}
    assert sevens and all(v == "706." + k[4:] for k, v in sevens.items())
    assert ren["702.79a"] == "702.78a" and ren["709.4b"] == "708.4b"
    assert rep.mapping.startswith("diff renumbering map")
    # rules that did not exist yet are reported, not guessed
    assert "118.13a" in rep.missing
    # reworded rules are flagged: "mana value" was "converted mana cost" in 2019
    flagged = {c.declaration.rule: c.missing_terms for c in rep.review}
    assert "mana value" in flagged["202.3"]


def test_cli_against_2019_with_the_archive():
    """The acceptance run: the whole archive folder (its diffs are cached after a first run)."""
    res = runner.invoke(app, ["validate-engine", "--rules", str(EDITIONS / "2019-06-12.txt"),
                              "--editions", str(EDITIONS), "--json"])
    assert res.exit_code == 1  # a rule the engine needs did not exist in 2019 (118.13a)
    data = json.loads(res.output)
    assert data["renumbered"]["118.9d"] == "117.9d"
    assert data["renumbered"]["707.10"] == "706.10" and data["renumbered"]["707.2"] == "706.2"
    assert data["missing"] == ["118.13a"]  # 616.1d is no longer declared: nothing in the kernel reaches it

"""Issue 8, acceptance 6: the same scenarios on phase.rs (PyPI phase-python), skipped when
the optional extra is not installed."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

pytest.importorskip("phase", reason="phase-python not installed (pip install '.[phase]')")

from conftest import EDITIONS  # noqa: E402
from pipeline.cli import app  # noqa: E402
from pipeline.engine.phase_adapter import ADAPTED, compare  # noqa: E402


@pytest.fixture(scope="module")
def rows():
    return compare()


def test_x_and_copy_and_persist_run_on_phase(rows):
    assert {r.scenario for r in rows} == set(ADAPTED) == {"ruling-cooperate-copy-keeps-x", "own-702.79a-returns-with-counter"}
    by = {(r.scenario, r.check.split(" (")[0].split(":")[0]): r for r in rows}
    x = by[("ruling-cooperate-copy-keeps-x", "copy's X")]
    assert x.ours == 5 and x.phase == 5 and x.agree
    cast = by[("ruling-cooperate-copy-keeps-x", "spells cast")]
    assert cast.agree and cast.phase == 2
    back = by[("own-702.79a-returns-with-counter", "counters on the returned permanent")]
    assert back.phase == {"-1/-1": 1} and back.agree
    assert by[("own-702.79a-returns-with-counter", "power/toughness")].phase == "2/1"


def test_phase_departs_on_announcement_order(rows):
    order = next(r for r in rows if r.check == "order of announcements")
    assert not order.agree
    assert order.phase == "TargetSelection then ChooseXValue"
    assert order.ours == "601.2b:X then 601.2c:targets"


def test_cli_shows_phase_next_to_ours():
    if not EDITIONS.is_dir():
        pytest.skip("shared data not found")
    res = CliRunner().invoke(app, ["validate-engine", "--rules", str(EDITIONS / "2025-11-14.txt"), "--phase", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert len(data["phase"]) >= 5 and all({"ours", "phase", "agree"} <= set(r) for r in data["phase"])

"""Issue 27.1's R@5 bar against the labels it would need: the committed out-of-set learning curve
(``benchmarks/link_loso_curve.py``; the runs take ≈ 3 min CPU each, so the suite checks the
committed figures and the script's own helpers, not a new run)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"


def _curve_module():
    spec = importlib.util.spec_from_file_location("link_loso_curve", BENCH / "link_loso_curve.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_kept_shares_whole_cards_and_is_deterministic():
    mod = _curve_module()
    rows = [{"group": f"card{i // 3}", "i": i} for i in range(600)]
    half = mod.kept(rows, 0.5, 1)
    assert half == mod.kept(rows, 0.5, 1)
    assert mod.kept(rows, 1.0, 0) is rows
    cards = {r["group"] for r in half}
    # A card's rulings stay together, and about the share of cards is kept.
    assert all(r in half for r in rows if r["group"] in cards)
    assert 0.35 < len(cards) / 200 < 0.65
    assert {r["group"] for r in mod.kept(rows, 0.5, 2)} != cards


def test_log_fit_recovers_a_line():
    mod = _curve_module()
    n = [100.0, 200.0, 400.0, 800.0]
    a, b = mod.log_fit([(x, 0.3 + 0.08 * np.log(x)) for x in n])
    assert a == pytest.approx(0.3) and b == pytest.approx(0.08)


@pytest.mark.parametrize("name", ["link_loso_curve", "link_loso_curve_semantic"])
def test_committed_curve_says_the_bar_needs_more_labels_than_the_six_sets_hold(name):
    mod = _curve_module()
    d = json.loads((BENCH / f"{name}.result.json").read_text(encoding="utf-8"))
    labels = json.loads((ROOT / "tests" / "data" / "linking" / "labels.json").read_text(encoding="utf-8"))
    assert d["labelled_rulings_all_splits"] == labels["counts"]["governed"]
    assert {r["share"] for r in d["runs"]} == set(mod.SHARES)
    fit = d["fits"]["r_at_5"]
    a, b = mod.log_fit([(r["rulings_per_fold"], r["r_at_5"]) for r in d["runs"]])
    assert (round(a, 4), round(b, 4)) == (fit["a"], fit["b_per_ln"])
    # R@5 grows with labels, and the bar lies past every labelled ruling of the six sets.
    assert b > 0.03
    assert fit["rulings_per_fold_for_bar"] > d["rulings_per_fold_all_splits"]
    full = next(r for r in d["runs"] if r["share"] == 1.0)
    assert full["r_at_5"] < 0.90


@pytest.mark.parametrize("name", ["link_loso_all_labels", "link_loso_all_labels_semantic"])
def test_committed_all_labels_measurement_stays_under_the_bar(name):
    d = json.loads((BENCH / f"{name}.result.json").read_text(encoding="utf-8"))
    labels = json.loads((ROOT / "tests" / "data" / "linking" / "labels.json").read_text(encoding="utf-8"))
    assert d["labels"] == "train and test split" and sum(d["n"].values()) == labels["counts"]["governed"]
    assert d["mean_over_sets"]["r_at_5"] < 0.90

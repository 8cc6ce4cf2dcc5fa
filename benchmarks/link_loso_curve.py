"""Benchmark: the out-of-set learning curve of the linker's ranker (issue 27.1: how many labels the bars need).

    python3 benchmarks/link_loso_curve.py [--semantic] [--json OUT]

Leave-one-set-out CV as ``python -m pipeline.link.loso --fixed`` runs it (the shipped model's
settings, train split only, the test split never read), but each fold's ranker learns from a
share of the five training sets' labelled rulings: 25 %, 50 % and 75 % (three draws each, by
card, so a card's rulings stay together) and all of them.  The prior and the labelled-ruling
memory of a fold are those of the kept rulings only, for the training rows (refilled per fold
by ``with_priors``) and for the held set's rulings (their candidate pools drawn again from the
kept rulings' prior and memory).  The rules' examples stay as weak queries at every share.

A line ``figure = a + b·ln(rulings a fold learns from)`` is fitted to the runs by least
squares, for P@1 and R@5 each, and solved for issue 27.1's bars (P@1 0.62, R@5 0.90): how many
labelled training rulings a fold would need if the curve went on as it does.  That is an
extrapolation, and learning curves bend down, so it is a lower bound more than an estimate.
Beside it: what the curve says for every labelled ruling of the six sets (train and test
split: the pool drawn out, ``tests/data/linking/PROTOCOL.md``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHARES = (0.25, 0.5, 0.75, 1.0)
DRAWS = 3
BARS = {"p_at_1": 0.62, "r_at_5": 0.90}


def kept(rows: list[dict], share: float, draw: int) -> list[dict]:
    """The labelled rows of a share of the cards (the same cards at every fold of a run)."""
    if share >= 1:
        return rows
    return [r for r in rows if int(hashlib.sha256(f"curve{draw}:{r['group']}".encode()).hexdigest(), 16) % 1000
            < share * 1000]


def log_fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """(a, b) of y = a + b·ln(n), least squares."""
    n = np.log([p[0] for p in points])
    y = np.array([p[1] for p in points])
    b, a = np.polyfit(n, y, 1)
    return float(a), float(b)


def main() -> int:
    from pipeline.io import atomic_write
    from pipeline.link.evaluate import load_gold
    from pipeline.link.rerank import MODEL_PATH, SEMANTIC_MODEL_PATH, Prior, train_split_path
    from pipeline.link.train import SETS, _counts, build_labelled, data_arguments, labelled, leave_sets_out, mean_over_sets

    ap = data_arguments(__doc__)
    ap.add_argument("--json", default=None, help="also write the figures here")
    args = ap.parse_args()
    if not Path(args.sets).is_dir() or not Path(args.rules).is_file():
        print(f"shared data not found ({args.sets}); nothing to measure", file=sys.stderr)
        return 2
    t0 = time.process_time()
    data = labelled(args, "train")
    ix, linker, rulings, gold, memory, rows, weak = (data.ix, data.linker, data.rulings, data.gold, data.memory,
                                                     data.rows, data.weak)
    everything = len(load_gold(args.labels, split=None))
    # The folds over the train split: the train-split ranker's settings.
    model = train_split_path(SEMANTIC_MODEL_PATH if args.semantic is not None else MODEL_PATH)
    params = {**json.loads(model.with_suffix(".json").read_text(encoding="utf-8"))["chosen"]["params"], "seed": 15}
    groups = [g.card for g in gold]
    runs = []
    for share in SHARES:
        for draw in range(DRAWS if share < 1 else 1):
            keep = kept(rows, share, draw)
            ids = {r["gold"].id for r in keep}
            held = {}
            for s in SETS:
                # The held set's pools drawn from the kept rulings of the other five alone.
                others = [r for r in keep if r["gold"].set != s]
                prior = Prior.from_counts(ix, _counts(others), len(others))
                allowed = np.array([g.id in ids and g.set != s for g in gold])
                held[s] = build_labelled(linker, [g for g in gold if g.set == s], rulings, prior, memory, groups,
                                         allowed=allowed)
            per, _ = leave_sets_out(ix, keep, weak, memory, held, params, SETS)
            n = float(np.mean([sum(r["gold"].set != s for r in keep) for s in SETS]))
            runs.append({"share": share, "draw": draw, "rulings_per_fold": round(n, 1), **mean_over_sets(per)})
            print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    # Every labelled ruling of the six sets, as a fold would have it (five sets of six).
    all_per_fold = everything * 5 / 6
    fits = {}
    for k, bar in BARS.items():
        a, b = log_fit([(r["rulings_per_fold"], r[k]) for r in runs])
        fits[k] = {"a": round(a, 4), "b_per_ln": round(b, 4), "bar": bar,
                   "rulings_per_fold_for_bar": round(float(np.exp((bar - a) / b))) if b > 0 else None,
                   "at_every_labelled_ruling": round(a + b * np.log(all_per_fold), 4)}
    out = {"semantic": data.semantic.encoder.key if data.semantic is not None else None, "params": params, "runs": runs,
           "fits": fits, "labelled_rulings_all_splits": everything,
           "rulings_per_fold_all_splits": round(all_per_fold, 1),
           "cpu_s": round(time.process_time() - t0, 1), "load_average": round(os.getloadavg()[0], 2)}
    text = json.dumps(out, indent=1, sort_keys=True) + "\n"
    if args.json:  # whole or not at all
        atomic_write(Path(args.json), text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

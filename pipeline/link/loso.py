"""Leave-one-set-out cross-validation of the learned ranker, and the confidence it is calibrated by.

    python -m pipeline.link.loso [--labels tests/data/linking/labels.json] [--rules EN.txt]
                                 [--sets DIR] [--json OUT] [--write-calibration] [--semantic]
                                 [--fixed] [--seed N] [--all-labels [--held-split train|test]]

How a user links a set the model never saw (issue 27.1): for each of the six labelled sets,
a ranker is trained on the *train split* of the other five (their labelled rulings, the rules'
examples as weak queries, the label prior and the labelled-ruling memory of those five sets
only) and measured on the sixth set's train-split rulings.  The held set's rulings neither
train the model, nor feed its prior or memory, nor draw candidates into its pools.  The test
split is never read here, so it stays an unfitted figure.  Every model choice is made inside
the five sets (nested): the settings of :func:`pipeline.link.train.choices` are compared by
leave-one-set-out CV within the five (each of them held out in turn, its pools drawn from the
other four), and the best trains the model that scores the sixth.  ``--fixed`` uses the
shipped model's settings for every fold instead (chosen over all six sets: faster, not nested).

With ``--semantic`` the folds use the semantic view too (the ``semantic`` extra); each fold also reports how often an accepted rule is in the held
rulings' candidate pool at all (``in_pool``: the ceiling of R@5).

The out-of-set first answers also calibrate the confidence shown with each link (issue 27.3):
a logistic model of "the first answer is right" on the ranker's score of the first answer and
its gap to the second, and the lowest probability at which the out-of-set first answers called
confident are at least :data:`TARGET` right.  ``--fixed --write-calibration`` stores both in
``pipeline/data/link-calibration-train-split.json`` (``link-calibration-semantic-train-split.json``
with ``--semantic``), the calibration of the train-split model, with which the test split is then
measured once (``crpipe link-eval … --split test``).  With ``--all-labels`` the folds run over
both splits, as the shipped model learns from every labelled ruling: they give its figures, and
``--all-labels --fixed --write-calibration`` its calibration (``link-calibration.json``), with no
split left to check it on: the out-of-set share reported with it is fitted.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from ..io import atomic_write, read_bounded_text
from .rerank import MODEL_PATH, SEMANTIC_MODEL_PATH, calibration_path, train_split_path
from .train import SETS, choices, data_arguments, held_rows, labelled, leave_sets_out, mean_over_sets, select

#: Out-of-set precision wanted of the links called confident (the bar is 0.85 on the test
#: split; the out-of-set rulings are harder than the by-card test split's, so this is safe).
TARGET = 0.85


def confidence_features(scores: np.ndarray) -> np.ndarray:
    """What the confidence reads: the first answer's score and its gap to the second."""
    top = float(scores[0]) if len(scores) else 0.0
    gap = float(scores[0] - scores[1]) if len(scores) > 1 else 0.0
    return np.array([top, gap])


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Weights (bias first) of a logistic regression by Newton's method (a two-feature fit
    needs no library)."""
    xb = np.column_stack([np.ones(len(x)), x])
    w = np.zeros(xb.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ w))
        g = xb.T @ (p - y) + l2 * w
        h = (xb * (p * (1 - p))[:, None]).T @ xb + l2 * np.eye(len(w))
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def probability(w, feats: np.ndarray) -> float:
    return float(1 / (1 + np.exp(-(w[0] + feats @ np.asarray(w[1:])))))


def threshold_for(p: np.ndarray, right: np.ndarray, target: float = TARGET, min_n: int = 30) -> float:
    """The lowest probability whose links at or above it are at least ``target`` right (at
    least ``min_n`` of them, so the figure is not a handful's)."""
    order = np.argsort(-p, kind="stable")
    hits = np.cumsum(right[order])
    n = np.arange(1, len(p) + 1)
    ok = (hits / n >= target) & (n >= min_n)
    if not ok.any():
        return 1.0
    k = int(np.nonzero(ok)[0].max())
    return float(p[order][k])


def fit_calibration(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """The logistic weights and the confident threshold fitted on first answers' features ``x``
    (:func:`confidence_features`) and whether each was right ``y``."""
    w = fit_logistic(x, y)
    return w, threshold_for(np.array([probability(w, f) for f in x]), y)


def main(argv=None) -> int:
    ap = data_arguments(__doc__)
    ap.add_argument("--json", default=None, help="write the figures here too")
    ap.add_argument("--write-calibration", action="store_true",
                    help="store the calibration beside the model it is for: link-calibration[-semantic]-train-split.json "
                         "(the train-split model), or with --all-labels link-calibration[-semantic].json (the shipped one)")
    ap.add_argument("--all-labels", action="store_true",
                    help="folds over every labelled ruling (train and test split), as the shipped model learns from "
                         "them: its figures and its calibration; no setting is chosen by it")
    ap.add_argument("--held-split", choices=("train", "test"), default=None,
                    help="with --all-labels: measure on this split's held rulings only (the folds still learn from "
                         "both splits; the calibration is then not written)")
    ap.add_argument("--fixed", action="store_true",
                    help="the shipped model's settings for every fold (chosen over all six sets) instead of "
                         "choosing them inside the five training sets (nested; six times the fits)")
    ap.add_argument("--seed", type=int, default=15, help="LightGBM's seed for the outer models (seed noise)")
    args = ap.parse_args(argv)
    if args.held_split and not args.all_labels:
        ap.error("--held-split needs --all-labels (without it only the train split is read)")
    if args.held_split and args.write_calibration:
        ap.error("--write-calibration is fitted on every held ruling: leave out --held-split")
    if args.write_calibration and not args.fixed:
        # The calibration reads the shipped model's scores, whose scale its settings set (an
        # L2 penalty shrinks them): it is fitted on folds trained with those settings.
        ap.error("--write-calibration needs --fixed (the shipped model's settings)")

    t0 = time.process_time()
    # Training rows (features of every labelled ruling; the prior and memory columns are refilled
    # per fold from the training sets by with_priors) and the weak example queries, built once.
    data = labelled(args, None if args.all_labels else "train")
    ix, semantic, linker, rulings = data.ix, data.semantic, data.linker, data.rulings
    gold, memory, rows, weak = data.gold, data.memory, data.rows, data.weak
    # The folds over the train split stand for the train-split model (the one the test split is
    # measured with), the folds over both splits for the shipped one (every labelled ruling).
    model_path = SEMANTIC_MODEL_PATH if args.semantic is not None else MODEL_PATH
    model_path = model_path if args.all_labels else train_split_path(model_path)
    params = json.loads(read_bounded_text(model_path.with_suffix(".json")))["chosen"]["params"]
    print(f"{len(rows)} labelled rulings, {len(weak)} example queries", file=sys.stderr)
    # The held sets' own pools: drawn with the five other sets' prior and memory only.
    held = {s: held_rows(linker, gold, rulings, rows, memory, s, SETS) for s in SETS}
    if args.held_split:
        # Learn from both splits, measure on one split's held rulings only: the same queries as
        # the folds over the train split, so the two label sets compare on equal terms.
        held = {s: [r for r in h if r["gold"].split == args.held_split] for s, h in held.items()}
    chosen = {}
    if args.fixed:
        per_set, got = leave_sets_out(ix, rows, weak, memory, held, {**params, "seed": args.seed}, SETS)
    else:
        # Nested: each held set's settings chosen by leave-one-set-out CV within the other five
        # (their rulings' pools drawn from four sets each), so no choice sees the held set.
        per_set, got = {}, []
        for s in SETS:
            five = tuple(x for x in SETS if x != s)
            inner = {t: held_rows(linker, gold, rulings, rows, memory, t, five) for t in five}
            best, _ = select(ix, rows, weak, memory, inner, five, choices(semantic is not None))
            chosen[s] = {"params": best["params"], "inner_mean": {k: best[k] for k in ("p_at_1", "r_at_5", "mrr")}}
            per, g = leave_sets_out(ix, rows, weak, memory, held, {**best["params"], "seed": args.seed}, SETS, (s,))
            per_set[s] = per[s]
            got.extend(g)
            print(json.dumps({"set": s, **per_set[s], "chosen": best["params"]}), file=sys.stderr)
    oof = [{"set": s, "id": r["gold"].id, "right": bool(ids and ids[0] in r["gold"].hits), "scores": sc[:2].tolist()}
           for s, r, ids, sc in got]
    allm = mean_over_sets(per_set)
    pooled = {"n": len(oof), "p_at_1": round(float(np.mean([o["right"] for o in oof])), 4)}
    x = np.array([confidence_features(np.array(o["scores"])) for o in oof])
    y = np.array([o["right"] for o in oof], dtype=float)
    w, thr = fit_calibration(x, y)
    conf = np.array([probability(w, f) for f in x]) >= thr
    calib = {"features": ["top_score", "gap_to_second"], "weights": [round(float(v), 6) for v in w],
             "threshold": round(thr, 6), "target": TARGET,
             "fitted_on": "out-of-set first answers of the leave-one-set-out CV ("
                          + ("train and test split" if args.all_labels else "train split") + " of the six sets)",
             "out_of_set": {"share_confident": round(float(conf.mean()), 4),
                            "precision_confident": round(float(y[conf].mean()), 4) if conf.any() else None,
                            "precision_rest": round(float(y[~conf].mean()), 4) if (~conf).any() else None,
                            "n": int(len(y))}}
    # The calibration checked out of set too: fitted on five sets' answers, applied to the sixth's.
    sets_of = np.array([o["set"] for o in oof])
    held_conf = np.zeros(len(y), dtype=bool)
    for s in SETS:
        rest = sets_of != s
        if not rest.any() or rest.all():
            continue
        ws, ts = fit_calibration(x[rest], y[rest])
        held_conf[~rest] = np.array([probability(ws, f) for f in x[~rest]]) >= ts
    check = {"how": "per held set: fitted on the other five sets' out-of-set answers, applied to its own",
             "share_confident": round(float(held_conf.mean()), 4),
             "precision_confident": round(float(y[held_conf].mean()), 4) if held_conf.any() else None}
    out = {"calibration_check": check, "semantic": semantic.encoder.key if semantic is not None else None, "labels": "train and test split" if args.all_labels else "train split", "held_split": args.held_split, "per_set": per_set, "mean_over_sets": allm, "pooled": pooled,
           "params": params if args.fixed else None, "chosen_per_set": chosen or None,
           "selection": "the shipped model's settings" if args.fixed else "nested: per held set, by leave-one-set-out CV within the other five",
           "n": {s: per_set[s]["n"] for s in SETS}, "calibration": calib,
           "cpu_s": round(time.process_time() - t0, 1), "load_average": round(os.getloadavg()[0], 2)}
    text = json.dumps(out, indent=1, sort_keys=True)
    print(text)
    if args.json:
        atomic_write(Path(args.json), text + "\n")
    if args.write_calibration:
        atomic_write(calibration_path(model_path), json.dumps(calib, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # How well rulings are linked to their rules, by rule section
#
# The committed labelled set `tests/data/rulings-gold-sets.json` (rulings of four sets, each
# with its primary rule and the other acceptable ones, labelled by hand), linked by
# `pipeline.link` against the edition it was labelled with.  Precision at 1 (the top rule
# is acceptable) and recall at 5, grouped by the section of the primary rule.  The set is
# small: each bar shows how many rulings it rests on.

# %%
from pathlib import Path

import pandas as pd
import matplotlib.pyplot as plt

from _common import CATALOG, SECTIONS, save, section
from pipeline.link.evaluate import gold_inputs, load_gold, metrics
from pipeline.link.index import build_index
from pipeline.link.linker import Linker
import json

GOLD = Path("../tests/data/rulings-gold-sets.json")
edition = json.loads(GOLD.read_text(encoding="utf-8"))["cr_edition"]
gold = load_gold(GOLD)
doc = CATALOG.resolve(edition).parse()
linker = Linker(build_index(doc))
ranked = linker.link_texts([g.text for g in gold], top=5, **gold_inputs(gold))
rankings = [[c.rule for c in cands] for cands in ranked]
print(edition, metrics(rankings, gold))

# %%
rows = []
for g, r in zip(gold, rankings):
    rows.append({"section": section(g.primary), "p_at_1": bool(r[:1] and r[0] in g.hits),
                 "r_at_5": any(x in g.hits for x in r[:5])})
q = pd.DataFrame(rows).groupby("section").agg(n=("p_at_1", "size"), p_at_1=("p_at_1", "mean"), r_at_5=("r_at_5", "mean"))
q.index = [f"{s}. {SECTIONS.get(s, '')} (n={n})" for s, n in zip(q.index, q.n)]
ax = q[["p_at_1", "r_at_5"]].plot.barh(figsize=(8, 4), xlim=(0, 1), title="Linker quality by section of the primary rule")
ax.set_xlabel("share of rulings")
save(ax.figure, "linker_quality_by_section")
q

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
# # How the Comprehensive Rules grew and churned
#
# Every consecutive pair of the 110 English editions embedded in crpipe, matched once by the
# history (`EditionArchive`): how many rules each release added, removed, reworded and
# renumbered, by section, and the renumbering cascades (runs of sibling rules shifted by one
# step, as when a new keyword is slotted into 702).

# %%
from collections import Counter

import pandas as pd
import matplotlib.pyplot as plt

from _common import CATALOG, SECTIONS, save, section
from pipeline.diff.history import EditionArchive
from pipeline.rulenum import RuleNumber

arch = EditionArchive(CATALOG)
arch.precompute()
E = arch.editions
print(len(E), "editions,", E[0].effective_date, "…", E[-1].effective_date)

# %%
rows = []
count = len(arch.load(E[0].label).rules)
sizes = [(E[0].effective_date, count)]
for i in range(len(E) - 1):
    pm = arch.pair(i)
    kinds = {"added": [n for n in pm.added], "removed": list(pm.removed),
             "modified": [o for o in pm.changed], "renumbered": list(pm.moved)}
    for kind, numbers in kinds.items():
        for n, c in Counter(section(x) for x in numbers).items():
            rows.append({"edition": E[i + 1].effective_date, "kind": kind, "section": n, "rules": c})
    count += len(pm.added) - len(pm.removed)
    sizes.append((E[i + 1].effective_date, count))
churn = pd.DataFrame(rows)
size = pd.DataFrame(sizes, columns=["edition", "rules"]).set_index("edition")
size.index = pd.to_datetime(size.index)
churn.groupby("kind").rules.sum()

# %%
fig, ax = plt.subplots(figsize=(10, 3.5))
ax.plot(size.index, size.rules, drawstyle="steps-post")
ax.set(title="Numbered rules per edition", ylabel="rules")
save(fig, "rules_per_edition")

# %%
per = churn.pivot_table(index="edition", columns="kind", values="rules", aggfunc="sum", fill_value=0)
per.index = pd.to_datetime(per.index)
fig, ax = plt.subplots(figsize=(10, 4))
bottom = None
for kind in ["added", "removed", "modified", "renumbered"]:
    vals = per.get(kind, pd.Series(0, index=per.index))
    ax.bar(per.index, vals, width=25, bottom=bottom, label=kind)
    bottom = vals if bottom is None else bottom + vals
ax.set(title="Churn per release", ylabel="rules", yscale="symlog")
ax.legend()
save(fig, "churn_per_release")

# %%
by_sec = churn.pivot_table(index="section", columns="kind", values="rules", aggfunc="sum", fill_value=0)
by_sec.index = [f"{s}. {SECTIONS.get(s, '?')}" for s in by_sec.index]
ax = by_sec.plot.barh(stacked=True, figsize=(8, 4), title="Churn by section, all releases")
save(ax.figure, "churn_by_section")
by_sec

# %% [markdown]
# ## Renumbering cascades
# A cascade: at least three sibling rules (same parent) renumbered by the same step in one release.

# %%
def cascades(moved: dict) -> list[tuple[str, int, int]]:
    groups = Counter()
    for old, new in moved.items():
        a, b = RuleNumber.try_parse(old), RuleNumber.try_parse(new)
        if a is None or b is None or "." not in old or old[-1].isalpha():
            continue
        pa, pb = old.rsplit(".", 1)[0], new.rsplit(".", 1)[0]
        if pa != pb:
            continue
        try:
            step = int(new.rsplit(".", 1)[1]) - int(old.rsplit(".", 1)[1])
        except ValueError:
            continue
        groups[(pa, step)] += 1
    return [(p, s, n) for (p, s), n in groups.items() if n >= 3]

casc = []
for i in range(len(E) - 1):
    for parent, step, n in cascades(arch.pair(i).moved):
        casc.append({"edition": E[i + 1].effective_date, "parent": parent, "step": step, "rules": n})
casc = pd.DataFrame(casc)
casc["edition"] = pd.to_datetime(casc["edition"])
fig, ax = plt.subplots(figsize=(10, 4))
for parent, g in casc.groupby(casc.parent.str[:1]):
    ax.scatter(g.edition, g.rules, label=f"section {parent}", s=18)
ax.set(title="Renumbering cascades over time (rules shifted per cascade)", ylabel="rules shifted")
ax.legend(fontsize=8)
save(fig, "renumbering_cascades")
casc.sort_values("rules", ascending=False).head(10)

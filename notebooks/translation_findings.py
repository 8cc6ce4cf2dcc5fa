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
# # A translation's coverage and the translator's findings, by section
#
# The seed translations in `corpus/seeds` (a Portuguese PDF paste, a Spanish web-viewer
# excerpt), aligned with their English base edition and today's English (`pipeline.align`)
# against the embedded archive.  The seeds are excerpts, so coverage is a share of the
# base edition's rules in each section they touch.

# %%
from collections import Counter
from pathlib import Path

import pandas as pd
import matplotlib.pyplot as plt

from _common import CATALOG, save, section
from pipeline.align.run import align_file

SEEDS = {"pt": Path("../corpus/seeds/000_460f8bf0ecd0529f.txt"), "es": Path("../corpus/seeds/001_b16e69f1b44391e7.txt")}
results = {lang: align_file(p, CATALOG, lang=lang) for lang, p in SEEDS.items()}
for lang, res in results.items():
    print(lang, res.base_edition.label, "→", res.current_edition, len(res.rows), "rows,",
          len(res.issues), "findings")

# %%
from pipeline.diff.history import EditionArchive

arch = EditionArchive(CATALOG)
cov = []
for lang, res in results.items():
    base = arch.load(res.base_edition.label)
    per_chapter = Counter(r.id.split(".")[0] for r in base.rules)
    have = Counter((r.base_id or "").split(".")[0] for r in res.rows if r.status in ("aligned", "realigned") and r.base_id)
    for ch, n in sorted(have.items()):
        cov.append({"translation": lang, "chapter": ch, "translated": n, "english": per_chapter[ch],
                    "coverage": n / per_chapter[ch]})
cov = pd.DataFrame(cov)
fig, ax = plt.subplots(figsize=(8, 3.5))
labels = cov.translation + " " + cov.chapter
ax.bar(labels, cov.coverage * 100)
ax.set(title="Share of each rule chapter the seed translations hold", ylabel="% of the base edition's rules")
save(fig, "translation_coverage")
cov

# %%
rows = []
for lang, res in results.items():
    for i in res.issues:
        rows.append({"translation": lang, "section": section(i.base_id or i.rule), "category": i.category,
                     "severity": i.severity})
found = pd.DataFrame(rows)
table = found.pivot_table(index=["translation", "section"], columns="category", aggfunc="size", fill_value=0)
ax = table.plot.barh(stacked=True, figsize=(8, 4), title="Translator's findings by section and category")
ax.set_xlabel("findings")
save(ax.figure, "translation_findings")
table

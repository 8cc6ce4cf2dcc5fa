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
# # Exploring the rules model
#
# Parse an edition embedded in crpipe, look at its rules as a pandas table, and compare the
# sections' sizes over two decades.

# %%
import pandas as pd
import matplotlib.pyplot as plt

from _common import CATALOG, SECTIONS, save
from pipeline.export import rules_frame

doc = CATALOG.resolve("2025-11-14").parse()
doc.counts()

# %%
df = rules_frame(doc)
df[df.id.str.startswith("702.79")][["id", "level", "text", "n_examples"]]

# %%
rows = []
for date in ["2004-10-01", "2009-07-11", "2014-09-26", "2019-07-12", "2026-01-16"]:
    d = CATALOG.resolve(date).parse()
    rows.append({"edition": d.meta.effective_date, **{f"{s}. {SECTIONS[s]}": sum(r.section == s for r in d.rules)
                                                      for s in range(1, 10)}})
sizes = pd.DataFrame(rows).set_index("edition")
ax = sizes.plot.bar(stacked=True, figsize=(8, 4), title="Rules per section over two decades")
ax.legend(fontsize=7, bbox_to_anchor=(1, 1))
save(ax.figure, "rules_per_section")
sizes

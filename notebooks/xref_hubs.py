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
# # The most cited rules and the hubs of the cross-reference graph
#
# The latest embedded edition, every reference resolved (`pipeline.xref`), as a graph of
# rules: which rules are cited most, which cite most, and which sit at the centre (PageRank).

# %%
import networkx as nx
import pandas as pd
import matplotlib.pyplot as plt

from _common import CATALOG, SECTIONS, save, section
from pipeline.xref import build_graph, extract_references

doc = CATALOG.latest().parse()
refs = extract_references(doc)
g = build_graph(doc, refs)
rules = nx.DiGraph()
rules.add_nodes_from(r.id for r in doc.rules)
rules.add_edges_from((u, v) for u, v in g.edges() if u in rules and v in rules and u != v)
print(doc.meta.effective_date, rules.number_of_nodes(), "rules,", rules.number_of_edges(), "citations between rules")

# %%
cited = pd.Series(dict(rules.in_degree())).sort_values(ascending=False)
top = cited.head(20)[::-1]
fig, ax = plt.subplots(figsize=(8, 6))
ax.barh(top.index, top.values)
ax.set(title=f"Most cited rules ({doc.meta.effective_date})", xlabel="rules citing it")
save(fig, "most_cited_rules")
cited.head(10)

# %%
pr = pd.Series(nx.pagerank(rules, alpha=0.85)).sort_values(ascending=False)
deg = pd.DataFrame({"cited_by": pd.Series(dict(rules.in_degree())), "cites": pd.Series(dict(rules.out_degree())),
                    "pagerank": pr})
deg["section"] = [section(i) for i in deg.index]
fig, ax = plt.subplots(figsize=(8, 5))
for s, gdf in deg.groupby("section"):
    ax.scatter(gdf.cites, gdf.cited_by, s=8 + 4000 * gdf.pagerank, alpha=.6, label=f"{s}. {SECTIONS.get(s, '')}")
for rid in pr.head(8).index:
    ax.annotate(rid, (deg.cites[rid], deg.cited_by[rid]), fontsize=8)
ax.set(title="Hubs: citations made vs received (size: PageRank)", xlabel="cites", ylabel="cited by")
ax.legend(fontsize=7)
save(fig, "xref_hubs")
deg.sort_values("pagerank", ascending=False).head(10)

# %%
flow = pd.crosstab(pd.Series([section(u) for u, v in rules.edges()], name="from section"),
                   pd.Series([section(v) for u, v in rules.edges()], name="to section"))
fig, ax = plt.subplots(figsize=(6, 5))
im = ax.imshow(flow.values, cmap="Blues")
ax.set_xticks(range(len(flow.columns)), flow.columns)
ax.set_yticks(range(len(flow.index)), flow.index)
ax.set(title="Citations between sections", xlabel="cited section", ylabel="citing section")
fig.colorbar(im)
save(fig, "section_citations")

"""The notebooks: each pair in step, each executes on the embedded data and draws its figures."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT

NOTEBOOKS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.py") if p.with_suffix(".ipynb").is_file())
#: The figures each notebook must write (the issue's list: growth and churn, cascades, most
#: cited rules and hubs, a translation's coverage and findings, the linker's quality).
FIGURES = {
    "cr_growth_and_churn": {"rules_per_edition", "churn_per_release", "churn_by_section", "renumbering_cascades"},
    "xref_hubs": {"most_cited_rules", "xref_hubs", "section_citations"},
    "translation_findings": {"translation_coverage", "translation_findings"},
    "linker_quality": {"linker_quality_by_section"},
    "explore_model": {"rules_per_section"},
}


def test_every_notebook_is_listed():
    assert set(NOTEBOOKS) == set(FIGURES)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_pairs_are_in_step(name):
    """The .py (percent format, the one people edit and diff) and the .ipynb hold the same cells."""
    jupytext = pytest.importorskip("jupytext")
    a = jupytext.read(ROOT / "notebooks" / f"{name}.py")
    b = jupytext.read(ROOT / "notebooks" / f"{name}.ipynb")
    assert [(c.cell_type, c.source) for c in a.cells] == [(c.cell_type, c.source) for c in b.cells]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebooks_read_the_embedded_data_only(name):
    src = (ROOT / "notebooks" / f"{name}.py").read_text(encoding="utf-8")
    assert "shared" not in src and "CRPIPE_MIRROR" not in src and "http" not in src
    common = (ROOT / "notebooks" / "_common.py").read_text(encoding="utf-8")
    assert "Catalog(mirror=None, use_cache=False, use_embedded=True)" in common


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_executes_and_draws(name, rendered_notebooks):
    from matplotlib.image import imread

    nb, figures, page = rendered_notebooks[name]
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []
    assert all(c.get("execution_count") for c in nb.cells if c.cell_type == "code")
    written = {p.stem for p in figures.glob("*.png")}
    assert FIGURES[name] <= written, f"missing figures: {FIGURES[name] - written}"
    for p in figures.glob("*.png"):
        img = imread(p)
        assert img.shape[0] > 100 and img.shape[1] > 100
        # Not blank: the figure holds many different colours, not a white canvas.
        assert img[..., :3].std() > 0.02, p.name
    inline = [o for c in nb.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    assert len(inline) >= len(FIGURES[name])
    html = page.read_text(encoding="utf-8")
    assert len(re.findall(r'<img[^>]+src="data:image/png;base64,', html)) >= len(FIGURES[name])

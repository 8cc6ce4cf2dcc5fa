"""Execute the project's notebooks (jupytext ``.py`` percent files) and export them as HTML.

The ``.py`` file is the source of truth (it diffs as text); its ``.ipynb`` pair is kept in
step with ``jupytext --sync``.  Executing needs the ``notebooks`` extra (jupytext,
nbclient, ipykernel, matplotlib, nbconvert).  Notebooks read only the English archive
embedded in the package: the kernel runs without ``CRPIPE_MIRROR``.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..environ import environment
from ..errors import CrpipeError, InputError


class NotebookError(CrpipeError):
    """A notebook failed to execute (the cell's error is in the message)."""


def notebook_sources(folder: Path) -> list[Path]:
    """The jupytext percent-format notebooks of ``folder`` (``*.py`` with a paired ``.ipynb``)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("no notebooks folder", folder)
    return sorted(p for p in folder.glob("*.py") if p.with_suffix(".ipynb").is_file())


def execute(source: Path, figures: Path, timeout: int = 900):
    """Run one notebook top to bottom; its figures are written into ``figures``.  Returns the
    executed notebook (nbformat node)."""
    try:
        import jupytext  # optional: the notebooks extra
        from nbclient import NotebookClient  # optional: the notebooks extra
        from nbclient.exceptions import CellExecutionError  # optional: the notebooks extra
    except ImportError as e:
        raise InputError(f"executing notebooks needs the 'notebooks' extra ({e.name} is missing)", source) from None
    nb = jupytext.read(source)
    figures.mkdir(parents=True, exist_ok=True)
    root = str(Path(__file__).resolve().parents[2])
    python_path = os.environ.get("PYTHONPATH")
    # The embedded archive only (no mirror), figures into ``figures``, no display.
    with environment(CRPIPE_MIRROR=None, CRPIPE_FIGURES=str(Path(figures).resolve()), MPLBACKEND="Agg",
                     PYTHONPATH=root + (os.pathsep + python_path if python_path else "")):
        try:
            NotebookClient(nb, timeout=timeout, kernel_name="python3",
                           resources={"metadata": {"path": str(Path(source).parent.resolve())}}).execute()
        except CellExecutionError as e:
            raise NotebookError(f"a cell failed: {str(e).splitlines()[-1] if str(e) else e}", source) from None
    return nb


def to_html(nb) -> str:
    """The executed notebook as one self-contained HTML page (figures inline)."""
    from nbconvert import HTMLExporter  # optional: the notebooks extra

    exporter = HTMLExporter(template_name="classic")
    exporter.exclude_input_prompt = True
    exporter.exclude_output_prompt = True
    body, _ = exporter.from_notebook_node(nb)
    return body


def render_all(folder: Path, out: Path, figures: Path) -> list[Path]:
    """Execute every notebook of ``folder`` and write ``out/<name>.html``; returns the pages."""
    from ..io import atomic_write  # deferred: only when rendering

    pages = []
    for src in notebook_sources(folder):
        nb = execute(src, figures / src.stem)
        pages.append(atomic_write(Path(out) / f"{src.stem}.html", to_html(nb)))
    return pages

"""Writers for alignment reports: JSON, self-contained HTML, CSV of findings, XLIFF 2.0.

Each ``render_*`` is a pure function of an :class:`~pipeline.align.model.AlignResult`
returning text or bytes; :func:`write_reports` writes them atomically.  The build's align stage
(:mod:`.stage`) is here too: it aligns and then writes these reports, so it sits above both.
"""

from __future__ import annotations

from pathlib import Path

from ..io import atomic_write, dumps
from .findings_csv import render_csv
from .html import render_html
from .update_po import render_update_po
from .xliff import render_xliff


def render_json(result) -> str:
    return dumps(result.to_dict())


def write_reports(result, *, json_path=None, html_path=None, csv_path=None, xliff_path=None,
                  po_path=None) -> list[Path]:
    """Write the requested reports (each atomically); returns the paths written."""
    # Render everything first: a failure leaves no report half-written or missing alone.
    todo = []
    if json_path:
        todo.append((json_path, render_json(result)))
    if html_path:
        todo.append((html_path, render_html(result)))
    if csv_path:
        todo.append((csv_path, render_csv(result)))
    if xliff_path:
        todo.append((xliff_path, render_xliff(result)))
    if po_path:
        todo.append((po_path, render_update_po(result)))
    return [atomic_write(p, data) for p, data in todo]

"""Issue 26, G7: ``site --reports DIR`` reads the user's folder of reports: JSON nested too
deeply, of another shape or with fields of the wrong type is one line naming the file, exit 2,
never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, with_value_at
from pipeline.errors import InputError

ALIGN = {
    "schema": "crpipe-alignment/1", "current_edition": "2025-11-14",
    "translation": {"name": "pt.txt", "language": "pt"},
    "base_edition": {"label": "2025-11-14", "how": "stated"},
    "score": {"words": 10, "per_thousand_words": 1.5},
    "rows": [{"status": "ok", "id": "100.1", "base_id": "100.1", "current_id": "100.1", "target": "Regras.",
              "source": "Rules.", "current": "Rules.",
              "findings": [{"severity": "warning", "check": "number", "message": "a finding"}]}],
}
LINKS = {
    "schema": "crpipe-links/1", "edition": "2025-11-14", "rulings_file": "r.json",
    "links": [{"ruling": {"card": "Grizzly Bears", "date": "2017-04-18", "text": "Combat damage."},
               "candidates": [{"rule": "510.1", "text": "First, ..."}, {"rule": "120.3", "text": ""}]}],
}
WRONG = ["a string", 5, None, [1], {"a": 1}, True]


@pytest.fixture(scope="module")
def builder(tmp_path_factory):
    """A site builder over the embedded editions, for the report pages only (no edition pages)."""
    from pipeline.diff.history import EditionArchive
    from pipeline.site.generate import SiteBuilder, SiteInputs

    arch = EditionArchive(None)

    def make(align=None, links=None):
        out = tmp_path_factory.mktemp("site")
        inputs = SiteInputs([arch.editions[-1].label], [align] if align else [], ["align-x"] if align else [],
                            [links] if links else [], ["links-x"] if links else [], reports=out / "reports")
        return SiteBuilder(arch, inputs, out), out

    return make


def _paths(o, pre=()):
    items = o.items() if isinstance(o, dict) else enumerate(o) if isinstance(o, list) else []
    for k, v in items:
        yield pre + (k,)
        yield from _paths(v, pre + (k,))


def test_the_valid_reports_make_their_pages(builder):
    b, out = builder(ALIGN, LINKS)
    b.translations()
    b.rulings()
    assert "Regras." in (out / "translations" / "align-x.html").read_text(encoding="utf-8")
    assert "Combat damage." in (out / "rulings" / "links-x.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("kind", ["align", "links"])
def test_every_field_wrongly_typed_is_a_page_or_one_line_naming_the_report(builder, kind):
    doc = ALIGN if kind == "align" else LINKS
    refused = 0
    for path in _paths(doc):
        if path == ("schema",):
            continue  # checked when the file is read (below)
        for bad in WRONG:
            d = with_value_at(doc, path, bad)
            b, out = builder(d if kind == "align" else None, d if kind == "links" else None)
            try:
                b.translations()
                b.rulings()
            except InputError as e:
                refused += 1
                assert "\n" not in str(e) and str(e).startswith(f"{out / 'reports' / f'{kind}-x.json'}: ")
    assert refused > 0  # some fields are required (a row that is not an object, findings a number …)


def _cli_site(tmp_path, reports):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CRPIPE_MIRROR": ""}
    return subprocess.run([sys.executable, "-m", "pipeline.cli", "site", "--out", str(tmp_path / "site"),
                           "--reports", str(reports)], capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.parametrize("name,content,message", [
    ("align-deep.json", "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("links-list.json", "[1, 2, 3]", 'not a links report (a JSON object with "schema": "crpipe-links/1")'),
    ("align-other.json", json.dumps({"schema": "something/2"}), "not an alignment report"),
    ("align-typed.json", json.dumps({**ALIGN, "rows": [5]}), "missing or of the wrong type"),
])
def test_site_cli_refuses_bad_reports_in_one_line(tmp_path, name, content, message):
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / name).write_text(content, encoding="utf-8")
    r = _cli_site(tmp_path, reports)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.startswith(f"crpipe: error: {reports / name}: ") and message in r.stderr
    assert not (tmp_path / "site").exists() and not list(tmp_path.glob(".site.staging-*"))

"""Issue 26, acceptance 4: one default edition everywhere, and each command says which.

``show``, ``search``, ``xref``, ``link``, ``history``, the build and the site read
:func:`pipeline.editions.default_edition` when no edition is named.  None of this needs
``../shared``: the embedded archive holds every edition and the seeds are in ``corpus/``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.editions import default_catalog, default_edition

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def default():
    return default_edition(default_catalog())


def _run(*args: str) -> str:
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def test_the_default_is_the_newest_complete_edition_and_what_latest_means(default):
    cat = default_catalog()
    assert default == cat.latest() == cat.resolve("latest")
    assert not default.truncated
    assert all((r.date or r.stem) <= (default.date or default.stem) for r in cat.complete())


def test_show_xref_history_link_name_the_default_edition(default, seed_path):
    d = default.date
    assert f"(edition {d})" in _run("show", "601.2f", "--no-history")
    out = _run("xref", "601.2f")
    assert f"edition {d}" in out.splitlines()[0]
    assert json.loads(_run("xref", "601.2f", "--json"))["edition"] == d
    assert f"601.2f ({default.stem})" in _run("history", "601.2f")
    out = _run("link", str(seed_path("002")), "--top", "1")
    assert re.search(rf"rulings \(paste\) → {d}\b", out), out[:300]
    data = json.loads(_run("link", str(seed_path("002")), "--top", "1", "--json", "-"))
    assert data["edition"] == d


def test_search_names_the_edition_of_its_index(default, tmp_path, monkeypatch):
    # No build in this folder: the index of the default edition, kept in the cache.
    import pipeline.paths

    monkeypatch.setattr(pipeline.paths, "default_out", lambda: tmp_path / "no-build")
    out = _run("search", "blight", "--limit", "3")
    assert f"edition {default.date}" in out.splitlines()[0]
    hits = json.loads(_run("search", "blight", "--limit", "3", "--json"))
    assert hits and {h["edition"] for h in hits} == {default.date}
    # Blight (701.68) is in the default edition: the index read is not an older one's.
    assert any(h["id"] == "Blight" or h["id"].startswith("701.") for h in hits)


def test_the_build_reads_the_default_edition(default, tmp_path):
    from pipeline.build import resolve_reference
    from pipeline.manifest import load_manifest

    manifest, _ = load_manifest(ROOT / "corpus")
    assert manifest["reference"]["edition"] == "latest"
    ref, how, notes = resolve_reference(manifest, None, None, tmp_path / "cache")
    assert ref.sha256 == default.sha256 and "default edition" in how and notes == []
    # A pinned date is still honoured (a user who wants one edition names it).
    pinned = {"reference": {"edition": "2025-11-14", "mirror_name": "2025-11-14.txt"}}
    ref, how, _ = resolve_reference(pinned, None, None, tmp_path / "cache")
    assert ref.date == "2025-11-14" and how == "embedded archive"


def test_the_site_opens_on_the_default_edition(default):
    from pipeline.diff.history import EditionArchive
    from pipeline.site.generate import default_editions, site_default_edition

    arch = EditionArchive(None)
    assert site_default_edition(arch) == default.stem
    assert default.stem in default_editions(arch, [], [{"edition": default.date}])

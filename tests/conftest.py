"""Shared test fixtures.

Tests that need the shared data (``../shared``, next to the checkout) skip with a reason
when it is absent; CI always has it.
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
import threading
import types
from pathlib import Path

import pytest

# spylls (the Hunspell reader) ships a stray top-level ``tests`` package in its wheel; a regular
# package in site-packages would shadow this folder for ``from tests.conftest import …``.  Make
# ``tests`` this folder, whatever is installed.
if Path(getattr(sys.modules.get("tests"), "__file__", None) or "/").parent != Path(__file__).resolve().parent:
    _pkg = types.ModuleType("tests")
    _pkg.__path__ = [str(Path(__file__).resolve().parent)]
    sys.modules["tests"] = _pkg

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CRPIPE_SHARED", ROOT.parent / "shared"))
EDITIONS = SHARED / "corpus" / "cr-en" / "txt"
SEEDS = SHARED / "seeds"
CORPUS = ROOT / "corpus"
#: The Brazilian judges' community PO of the 2020-11-20 CR (the real translation the checks are tuned on).
REAL_PO = SHARED / "corpus" / "translations" / "pt-BR" / "comprehensive-rules.pt-BR.po"

needs_shared = pytest.mark.skipif(not EDITIONS.is_dir(), reason=f"shared data not found at {SHARED}")


def edition_files() -> list[Path]:
    return sorted(EDITIONS.glob("*.txt")) if EDITIONS.is_dir() else []


@functools.lru_cache(maxsize=None)
def edition(date: str):
    """The parsed official edition of that file date (cached for the session)."""
    from pipeline.segment.official import parse_file

    return parse_file(EDITIONS / f"{date}.txt")


@pytest.fixture(scope="session")
def cr_2025():
    if not EDITIONS.is_dir():
        pytest.skip(f"shared data not found at {SHARED}")
    return edition("2025-11-14")


@pytest.fixture(scope="session")
def real_po_alignment():
    """The real pt-BR PO aligned against the shared editions (``align_file(REAL_PO, EDITIONS)``),
    once per session (per worker under xdist): several modules read its rows, findings, coverage
    and update plan; none changes it.  Skipped when the PO or the editions are absent."""
    if not (REAL_PO.is_file() and EDITIONS.is_dir()):
        pytest.skip(f"the real pt-BR PO or the English editions are absent ({REAL_PO})")
    from pipeline.align.run import align_file

    return align_file(REAL_PO, EDITIONS)


@pytest.fixture
def seed_path():
    """Path to a seed document: the embedded copy in corpus/seeds (always present)."""
    def get(prefix: str) -> Path:
        hits = sorted((CORPUS / "seeds").glob(f"{prefix}_*.txt"))
        assert hits, f"no seed {prefix} in corpus/seeds"
        return hits[0]
    return get


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):  # keep test output clean
        pass


@pytest.fixture
def http_folder(tmp_path):
    """A local HTTP server over a temporary folder: (folder, base URL).  Downloads are tested
    against it, never against the internet."""
    root = tmp_path / "www"
    root.mkdir()
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield root, f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()


@pytest.fixture(scope="session")
def rendered_notebooks(tmp_path_factory):
    """Every notebook of notebooks/ executed once per session (embedded data only):
    name -> (executed notebook, its figures folder, its HTML page)."""
    pytest.importorskip("nbclient", reason="the 'notebooks' extra is not installed")
    from pipeline.site.notebooks import execute, notebook_sources, to_html

    base = tmp_path_factory.mktemp("notebooks")
    out = {}
    for src in notebook_sources(ROOT / "notebooks"):
        nb = execute(src, base / "figures" / src.stem)
        page = base / "html" / f"{src.stem}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(to_html(nb), encoding="utf-8")
        out[src.stem] = (nb, base / "figures" / src.stem, page)
    return out


def pytest_collection_modifyitems(config, items):
    """``CRPIPE_TEST_SHARED_USERS=1`` (``.ci/run``'s pass with ../shared hidden): only the tests
    that name the shared data run; the others behave the same with or without it (see
    tests/shared_users.py)."""
    if os.environ.get("CRPIPE_TEST_SHARED_USERS") != "1":
        return
    from shared_users import select  # only in that pass

    keep, drop = select(items)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture
def small_disk(tmp_path):
    """A 16 KiB tmpfs (a full disk after a few writes), unmounted afterwards; skipped where this
    process may not mount one (not root, or no tmpfs in this sandbox)."""
    import os
    import subprocess

    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small tmpfs")
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(disk)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


def with_value_at(doc, path: tuple, value):
    """A deep copy of the JSON-shaped ``doc`` with ``value`` at ``path`` (keys and indexes): the
    hostile-input tests put every wrong type in every field this way."""
    import copy

    d = copy.deepcopy(doc)
    o = d
    for k in path[:-1]:
        o = o[k]
    o[path[-1]] = value
    return d


def edition_spread(editions):
    """The editions a check over "every edition" reads in the suite: every eighth, the first and
    the newest (15 of the 110, 2003 to 2026, every layout the parser knows).  Set
    CRPIPE_TEST_ALL_EDITIONS=1 to read all of them (the checks' authors did, once, on all 110;
    the suite keeps under its 10-minute budget with the spread)."""
    editions = list(editions)
    if os.environ.get("CRPIPE_TEST_ALL_EDITIONS") == "1":
        return editions
    keep = set(range(0, len(editions), 8)) | {len(editions) - 1}
    return [e for i, e in enumerate(editions) if i in keep]

"""Issue 29, item 2: cache keys derived from the code a cached function imports.

``pipeline.codekey.code_key`` hashes the source of the modules a cached function's module
imports, transitively within ``pipeline``.  The tests: the import scan on a made-up package
(lazy, relative, parenthesised imports); every migrated key changes when any module its
function imports changes (the stale ``editions/meta.py`` key, which left out
``profiles/__init__.py``, among them); and no new hand-listed key appears.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pipeline.codekey as ck
from pipeline import lexicon
from pipeline.align import lightproof, wordlex
from pipeline.diff import cache as diff_cache
from pipeline.diff import history, shipped
from pipeline import inventory, rule_index
from pipeline.editions import base as edition, light_paragraphs, meta
from pipeline.ingest import units

ROOT = Path(__file__).resolve().parents[1] / "pipeline"


# -- the import scan, on a made-up package -----------------------------------------------------
def _package(tmp_path: Path) -> Path:
    pkg = tmp_path / "pipeline"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "data").mkdir()
    files = {
        "__init__.py": "from .unused import x  # the package's own imports: not run by a.f\n",
        "a.py": '"""Docs.\n\nimport nothing here\n"""\nimport re\n\n\ndef f():\n    from .sub import b  # lazy\n    return b\n',
        "sub/__init__.py": "import pipeline.unused\n",
        "sub/b.py": "from ..c import (\n    X,\n    Y,\n)\nfrom .. import d as dee\nimport pipeline.e\n",
        "c.py": "X = Y = 1\nfrom . import profiles\n",
        "d.py": "",
        "e.py": "from pipeline.f import *\n",
        "f.py": "",
        "profiles.py": "DATE = 1\n",
        "unused.py": "x = 1\n",
        "g.py": "import os, pipeline.d\n",
        "data/h.py": "",  # not a package: never a module
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    return pkg


@pytest.fixture
def made_up(tmp_path, monkeypatch):
    pkg = _package(tmp_path)
    monkeypatch.setattr(ck, "ROOT", pkg)
    ck._modules.cache_clear()
    ck.direct_imports.cache_clear()
    yield pkg
    ck._modules.cache_clear()
    ck.direct_imports.cache_clear()


def test_the_closure_follows_lazy_relative_and_parenthesised_imports(made_up):
    assert "pipeline.data.h" not in ck._modules()
    assert ck.module_closure("pipeline.a") == ["pipeline.a", "pipeline.c", "pipeline.d", "pipeline.e", "pipeline.f",
                                               "pipeline.profiles", "pipeline.sub.b"]
    assert ck.direct_imports("pipeline.g") == ("pipeline.d",)
    assert ck.direct_imports("pipeline.c") == ("pipeline.profiles",)


def test_a_key_changes_with_every_imported_module_and_only_those(made_up):
    key = ck.code_key(1, "pipeline.a")
    for name in ("c.py", "profiles.py", "sub/b.py", "f.py", "a.py"):
        before = (made_up / name).read_text()
        (made_up / name).write_text(before + "# changed\n")
        assert ck.code_key(1, "pipeline.a") != key, name
        (made_up / name).write_text(before)
    for name in ("unused.py", "g.py", "__init__.py", "sub/__init__.py"):
        (made_up / name).write_text("# changed\n")
        assert ck.code_key(1, "pipeline.a") == key, name
    assert ck.code_key(2, "pipeline.a") != key
    assert ck.code_key(1, "pipeline.a", extra=["x"]) != key


# -- the package's own keys ----------------------------------------------------------------------
def _lightproof_key() -> str:
    folder = Path("/nonexistent")
    return lightproof._index_key(lightproof.RuleFiles(folder, "x"), "all")


#: Each migrated key, how to compute it afresh, and the modules whose imports it must cover.
KEYS = {
    "editions.meta": (lambda: meta.meta_key(), [meta.meta_key], ["pipeline.editions.meta"]),
    "inventory": (lambda: inventory.inventory_key(), [inventory.inventory_key],
                  ["pipeline.inventory", "pipeline.segment.official", "pipeline.ingest.loader"]),
    "edition": (lambda: edition._code_version(), [edition._code_version], ["pipeline.editions.base"]),
    "rule_index": (lambda: rule_index.index_key(), [rule_index.index_key, inventory.inventory_key],
                   ["pipeline.rule_index"]),
    "diff.history texts": (lambda: history.texts_key(), [history.texts_key, inventory.inventory_key],
                           ["pipeline.diff.history"]),
    "diff.cache": (lambda: diff_cache.cache_key(), [diff_cache.cache_key],
                   ["pipeline.diff.match", "pipeline.diff.classify", "pipeline.segment.official"]),
    "unigram lexicon": (lambda: lexicon._unigram_key("pt"), [], ["pipeline.lexicon"]),
    "spelling lexicon": (lambda: lexicon._spelling_key("pt"), [], ["pipeline.lexicon"]),
    "wordlex": (lambda: wordlex._cache_key([]), [], ["pipeline.align.wordlex"]),
    "lightproof index": (_lightproof_key, [], ["pipeline.align.lightproof"]),
    "shipped light paragraphs": (lambda: light_paragraphs.shipped_key(), [light_paragraphs.shipped_key],
                                 ["pipeline.editions.light_paragraphs", "pipeline.editions.pack_light_paragraphs"]),
    "shipped pairs": (lambda: shipped.shipped_key(), [shipped.shipped_key, diff_cache.cache_key],
                      ["pipeline.diff.shipped", "pipeline.diff.history", "pipeline.diff.pack_pairs"]),
}


def _fresh(name: str) -> str:
    compute, caches, _ = KEYS[name]
    for c in caches:
        c.cache_clear()
    return compute()


@pytest.mark.parametrize("name", sorted(KEYS))
def test_a_cache_key_changes_when_any_module_its_function_imports_changes(name, monkeypatch):
    """Each file of the cached function's import closure, changed in turn (as read by the key):
    the key must change.  (With the hand list it had, ``editions.meta`` failed here on
    ``profiles/__init__.py``, where its date pattern lives.)"""
    base = _fresh(name)
    files = ck.code_files(*KEYS[name][2])
    assert len(files) >= 2
    read = Path.read_bytes
    for f in files:
        monkeypatch.setattr(Path, "read_bytes", lambda p, f=f: read(p) + (b"\n# changed" if p == f else b""))
        changed = _fresh(name)
        monkeypatch.setattr(Path, "read_bytes", read)
        assert changed != base, f"{name}: {f.relative_to(ROOT)} changed and the key did not"
    assert _fresh(name) == base


def test_the_meta_key_covers_the_profile_that_holds_the_date_pattern():
    files = {f.relative_to(ROOT).as_posix() for f in ck.code_files(meta.quick_meta)}
    assert {"editions/meta.py", "segment/official.py", "profiles/__init__.py"} <= files


class _Stop(Exception):
    pass


def test_units_pins_are_keyed_by_their_code(monkeypatch):
    """(The pins' key also hashes the units and editions: checked as called, not recomputed.)"""
    seen = []
    monkeypatch.setattr(units, "code_key", lambda *a, **k: seen.append((a, k)) or "k")

    def stop(_path):
        raise _Stop

    monkeypatch.setattr(units, "read_cache_json", stop)
    monkeypatch.setattr(units, "edition_files", lambda d: [])
    with pytest.raises(_Stop):
        units.pin_base_edition([], "/nonexistent")
    assert seen and seen[0][0][1] == "pipeline.ingest.units"


#: Keys still listing their files by hand, and why.  A new ``source_key(`` call fails the test
#: below: key a cache with :func:`pipeline.codekey.code_key`.
HAND_LISTED = {
    "pipeline/help_cache.py": "the CLI's help: commands are discovered at run time, not imported by name",
}


def test_no_cache_key_is_listed_by_hand_outside_the_known_few():
    calls = {f.relative_to(ROOT.parent).as_posix() for f in sorted(ROOT.rglob("*.py"))
             if re.search(r"\bsource_key\(", f.read_text(encoding="utf-8"))}
    calls -= {"pipeline/io.py", "pipeline/codekey.py"}
    assert calls == set(HAND_LISTED), "key a cache with pipeline.codekey.code_key, not source_key and a file list"

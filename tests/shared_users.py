"""Which tests name the shared data (``../shared``, the mirror): the pass CI runs with it hidden.

A fresh clone has no ``../shared``; every test that needs it must skip with its reason (the
README's promise).  CI has it, so a test reading it without the skip passes there and fails on
the newcomer's first ``pytest`` (issue 26: two such tests).  ``.ci/run`` therefore runs the
suite once with ``CRPIPE_SHARED`` pointing at nothing and ``CRPIPE_MIRROR`` unset, restricted
(``CRPIPE_TEST_SHARED_USERS=1``) to the tests that can notice: those whose code, decorators or
fixtures name the shared data — conftest's names for it, a module-level name bound from one
(``PO = SHARED / …``, ``needs_po = skipif(not PO…)``, a helper or fixture using one), or the
strings ``shared`` / ``CRPIPE_MIRROR``.  A test naming none of them runs the same either way and
is left to the full pass; every module is still imported (collected), so a module that reads
the shared data when imported fails the hidden pass too.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

#: conftest's names for the shared data (edition(): a parsed shared edition; cr_2025 and
#: real_po_alignment: fixtures; REAL_PO: the real pt-BR PO).
SHARED_NAMES = frozenset({"SHARED", "EDITIONS", "SEEDS", "needs_shared", "edition_files", "edition", "cr_2025",
                          "REAL_PO", "real_po_alignment"})
SHARED_STRINGS = ("shared", "CRPIPE_MIRROR")


def _uses(node: ast.AST, names: set[str]) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in names:
            return True
        if isinstance(n, ast.Attribute) and n.attr in names:  # conftest.EDITIONS
            return True
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and any(s in n.value for s in SHARED_STRINGS):
            return True
    return False


def _bound(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return []  # an imported name is shared only if it is one of conftest's (already in the set)
    return []


@functools.lru_cache(maxsize=None)
def module_info(path: str) -> tuple[ast.Module, frozenset[str]]:
    """The module's tree and every name in it that stands for the shared data (to a fixed point)."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    names = set(SHARED_NAMES)
    changed = True
    while changed:
        changed = False
        for node in tree.body:
            new = [b for b in _bound(node) if b not in names]
            if new and _uses(node, names):
                names.update(new)
                changed = True
    return tree, frozenset(names)


def _test_node(tree: ast.Module, cls: str | None, name: str) -> ast.AST | None:
    body = tree.body
    if cls:
        c = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == cls), None)
        body = c.body if c else []
    return next((n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name), None)


def names_shared(path: str, cls: str | None, name: str, fixtures: list[str]) -> bool:
    """Whether one test (its function with its decorators, its fixtures, its module's marks)
    names the shared data."""
    tree, names = module_info(path)
    if any(f in names for f in fixtures):
        return True
    marks = [n for n in tree.body if "pytestmark" in _bound(n)]
    if any(_uses(m, set(names)) for m in marks):
        return True
    node = _test_node(tree, cls, name)
    return node is None or _uses(node, set(names))  # a test we cannot find is kept, not guessed away


def select(items) -> tuple[list, list]:
    """(kept, deselected) pytest items: kept are those that name the shared data."""
    keep, drop = [], []
    for item in items:
        fn = getattr(item, "originalname", None) or item.name.split("[")[0]
        cls = item.cls.__name__ if getattr(item, "cls", None) is not None else None
        fixtures = list(getattr(item, "fixturenames", ()))
        (keep if names_shared(str(item.path), cls, fn, fixtures) else drop).append(item)
    return keep, drop

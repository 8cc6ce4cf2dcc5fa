"""Cache keys derived from the code a cached function runs (issue 29, item 2).

A cache is stale when the code that built its entries changed.  Listing that code by hand
misses files: ``editions/meta.py`` keyed its cache on itself and the parser, and went stale
when the date pattern it relies on moved to ``profiles/__init__.py``.  :func:`code_key`
finds the code instead: the modules of ``pipeline`` the cached function's module imports,
transitively, read from their source (``import``/``from … import`` statements anywhere in
a module, lazy imports inside functions included).  Data files the code reads (word lists,
packed tables) and outside versions are still named by the caller: no import statement says
which file a function opens.

The scan is static: a module found at run time (``pkgutil`` discovery, ``importlib``) is
not seen; name it among the roots (``code_key(v, (fn, "pipeline.x.y"))``).  Each module's imports are read once per process.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType

from .io import read_bounded_text, source_key

PACKAGE = "pipeline"
ROOT = Path(__file__).resolve().parent


@functools.lru_cache(maxsize=1)
def _modules() -> dict[str, Path]:
    """Every module of this package and its source file, from one walk of its folders (a
    folder without ``__init__.py`` is no package: not entered)."""
    out: dict[str, Path] = {}
    for folder, dirs, files in os.walk(ROOT):
        here = Path(folder)
        if "__init__.py" not in files:
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        parts = [PACKAGE, *here.relative_to(ROOT).parts]
        out[".".join(parts)] = here / "__init__.py"
        for f in files:
            if f.endswith(".py") and f != "__init__.py":
                out[".".join([*parts, f[:-3]])] = here / f
    return out


def module_file(name: str) -> Path | None:
    """The source file of module ``name`` of this package (``pipeline.x.y``), or None."""
    return _modules().get(name)


#: An import statement at the start of a line (after its newline): ``from X import names``
#: (names in parentheses may span lines) or ``import X, Y``.  Read with a regex, not ``ast``: parsing the modules of
#: a closure took 0.4 s, this 10 ms.  A statement quoted in a docstring at the start of a
#: line is read too: it can only add a file to a key, never leave one out.
IMPORT = re.compile(r"\n[ \t]*(?:from[ \t]+(?P<base>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n#;]*)"
                    r"|import[ \t]+(?P<modules>[^\n#;]+))")


@functools.lru_cache(maxsize=None)
def direct_imports(name: str) -> tuple[str, ...]:
    """The modules of this package that module ``name``'s source imports by name (sorted,
    itself excluded): ``from ..profiles import EN`` imports pipeline.profiles, ``from .pkg
    import mod`` the submodule pipeline.….pkg.mod (not the package's ``__init__``)."""
    path = module_file(name)
    if path is None:
        return ()
    source = read_bounded_text(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for m in IMPORT.finditer("\n" + source):  # (a literal first character: the regex engine jumps to each line)
        if m.group("modules") is not None:
            found.update(w.split()[0] for w in m.group("modules").split(",") if w.strip())
            continue
        base = m.group("base")
        dots = len(base) - len(base.lstrip("."))
        if dots:
            anchor = package.split(".")
            anchor = anchor[:len(anchor) - (dots - 1)]
            base = ".".join(anchor + ([base[dots:]] if base[dots:] else []))
        # ``from .pkg import mod`` imports the submodule pipeline.….pkg.mod; any other name
        # (a function, a constant, ``*``) is read from the module ``base`` itself.
        for word in m.group("names").strip("()").replace("\\", " ").split(","):
            if word.split():
                sub = f"{base}.{word.split()[0]}"
                found.add(sub if module_file(sub) is not None else base)
    found.discard(name)
    return tuple(sorted(m for m in found if module_file(m) is not None))


def module_closure(*roots: str) -> list[str]:
    """``roots`` and every module of this package they import, directly or not, sorted.
    A package's ``__init__`` counts when it is imported by name (``from ..profiles import
    EN``), not merely because a module inside it is: what a cached function runs is what it
    names, and ``editions/__init__`` (say) re-exports a dozen modules a cache never runs."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        m = todo.pop()
        if m in seen or module_file(m) is None:
            continue
        seen.add(m)
        todo.extend(direct_imports(m))
    return sorted(seen)


def _module_name(what: str | ModuleType | Callable) -> str:
    if isinstance(what, str):
        return what
    if isinstance(what, ModuleType):
        return what.__name__
    return what.__module__


def code_files(*code: str | ModuleType | Callable) -> list[Path]:
    """The source files of ``code`` (modules, module names or functions) and all they import."""
    return [module_file(m) for m in module_closure(*map(_module_name, code))]


def code_key(version: str | int, code: str | ModuleType | Callable | Iterable[str | ModuleType | Callable],
             data: Iterable[Path] = (), extra: Iterable[str] = ()) -> str:
    """The one way to key a cache: 12 hex digits that change with ``version``, the source of
    ``code`` (a function, a module or a module name; or several) and of every module of this
    package it imports, transitively, and the ``data`` files and ``extra`` strings named.

    Call it once per process (``functools.lru_cache`` on the caller): it reads every file."""
    roots = list(code) if isinstance(code, (list, tuple)) else [code]
    files = code_files(*roots)
    return source_key(version, [*files, *data], extra)


def package_version(pkg: str) -> str:
    """An installed distribution's version for a cache key ("-" when absent): a key that names
    the word lists or models a package ships changes when the package is upgraded."""
    from importlib.metadata import PackageNotFoundError, version  # lazy: only keys that name a package read its metadata

    try:
        return version(pkg)
    except PackageNotFoundError:
        return "-"

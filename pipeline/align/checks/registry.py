"""The one registry of translator checks, as translate-toolkit's checker is one class whose
methods are the checks: each check is declared once — id, family, severity, the reviewer's
defect class it finds, a one-line explanation — on the function that runs it.  The aligner
runs the registry; the reports, the counts, ``crpipe checks`` (the docs) and the testkit's
defect planter read it; nothing else lists check names.

A check function takes the :class:`~pipeline.align.checks.Context` and its own
:class:`Check` and yields :class:`Issue`\\ s (``ctx.issue(check, pair, …)``).  A few older
families compute several checks in one pass over the text (the damage pass tokenises each
rule once for eleven checks); they are registered with :func:`register_pass`, which declares
every check the pass may report, so the registry still knows each one.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ...findings import Category, Check, DefectClass, Issue, Severity


CheckFn = Callable[..., Iterable[Issue]]


@dataclass(frozen=True)
class Entry:
    """What the registry runs: one function, and the checks it reports."""

    fn: CheckFn
    checks: tuple[Check, ...]
    single: bool  # fn(ctx, check) for one check; fn(ctx) for a pass
    #: Checks whose finding on the same words makes this entry's redundant (a learnt check
    #: beside the maintained rule set that already names the defect): the other is kept.
    yields_to: tuple[str, ...] = ()

    @property
    def category(self) -> str:
        return self.checks[0].category


_ENTRIES: list[Entry] = []
_BY_ID: dict[str, Check] = {}


def _declare(c: Check) -> None:
    if c.id in _BY_ID:
        raise ValueError(f"check {c.id} declared twice")
    Category(c.category)  # an unknown family fails at import time
    _BY_ID[c.id] = c


def check(id: str, category: Category, severity: Severity, defect: DefectClass, explanation: str):
    """Declare a check on the function that runs it."""
    c = Check(id, category, severity, explanation, defect)

    def deco(fn: CheckFn) -> CheckFn:
        _declare(c)
        _ENTRIES.append(Entry(fn, (c,), True))
        fn.check = c
        return fn

    return deco


def register_pass(fn: CheckFn, checks: list[Check], yields_to: tuple[str, ...] = ()) -> None:
    """Register a function that reports several declared checks in one pass."""
    for c in checks:
        _declare(c)
    _ENTRIES.append(Entry(fn, tuple(checks), False, yields_to))


#: Families that must run first: later ones read what these leave in ``ctx.cache``.
_FIRST = ("structure", "references", "anchors", "cardnames", "terminology", "consistency", "damage")
_loaded = False


def load_all() -> None:
    """Import every check module of this package once (each registers its checks): the modules
    found in the folder, not a list of names to keep."""
    global _loaded
    if _loaded:
        return
    names = [m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)]) if m.name != "registry"]
    for name in sorted(names, key=_rank):
        importlib.import_module(f"{__package__}.{name}")
    _loaded = True


def _rank(module: str) -> tuple:
    n = module.rsplit(".", 1)[-1]
    return (n not in _FIRST, _FIRST.index(n) if n in _FIRST else 0, n)


def entries() -> list[Entry]:
    """Every registered check function, in one order whoever imported which module first."""
    load_all()
    return sorted(_ENTRIES, key=lambda e: _rank(e.fn.__module__))  # stable: declaration order within a module


def all_checks() -> list[Check]:
    return [c for e in entries() for c in e.checks]


def get(check_id: str) -> Check:
    entries()
    return _BY_ID[check_id]


def categories() -> list[str]:
    """The families in registry order (each once)."""
    return list(dict.fromkeys(c.category for c in all_checks()))


def run(ctx, only: set[str] | None = None) -> list[Issue]:
    out: list[Issue] = []
    yielding: dict[str, tuple[str, ...]] = {}
    for e in entries():
        if only and e.category not in only:
            continue
        out.extend(e.fn(ctx, e.checks[0]) if e.single else e.fn(ctx))
        for c in e.checks if e.yields_to else ():
            yielding[c.id] = e.yields_to
    if not yielding:
        return out
    spans: dict[tuple, list] = {}
    for i in out:
        if i.span is not None:
            spans.setdefault((i.check, i.rule), []).append(i.span)

    def redundant(i: Issue) -> bool:
        return i.span is not None and any(a < i.span[1] and i.span[0] < b for other in yielding[i.check]
                                          for a, b in spans.get((other, i.rule), ()))

    return [i for i in out if i.check not in yielding or not redundant(i)]


def markdown_table() -> str:
    """The checks as the README lists them (``crpipe checks --markdown``)."""
    lines = ["| check | severity | finds | what it looks for |", "|---|---|---|---|"]
    for c in all_checks():
        lines.append(f"| `{c.id}` | {c.severity} | {c.defect or ''} | {c.explanation} |")
    return "\n".join(lines)


if __name__ == "__main__":  # python -m pipeline.align.checks.registry: the README's table of checks
    # Run as a script this file is a second module: the checks register with the package's one.
    from pipeline.align.checks.registry import markdown_table as table

    print(table())

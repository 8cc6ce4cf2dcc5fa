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
#: Checks that need nothing of the translation's language (rule numbers, digits, symbols, rule
#: references read with the cue words learnt from the document, card names, English left in
#: it): they run on a translation in a language no profile describes; every other check is
#: reported as not run there, with the reason.
_NEUTRAL: set[str] = set()


def _declare(c: Check) -> None:
    if c.id in _BY_ID:
        raise ValueError(f"check {c.id} declared twice")
    Category(c.category)  # an unknown family fails at import time
    _BY_ID[c.id] = c


def check(id: str, category: Category, severity: Severity, defect: DefectClass, explanation: str,
          neutral: bool = False):
    """Declare a check on the function that runs it (``neutral``: it needs no language profile)."""
    c = Check(id, category, severity, explanation, defect)

    def deco(fn: CheckFn) -> CheckFn:
        _declare(c)
        if neutral:
            _NEUTRAL.add(c.id)
        _ENTRIES.append(Entry(fn, (c,), True))
        fn.check = c
        return fn

    return deco


def register_pass(fn: CheckFn, checks: list[Check], yields_to: tuple[str, ...] = (),
                  neutral: tuple[Check, ...] = ()) -> None:
    """Register a function that reports several declared checks in one pass (``neutral``: those
    of them that need no language profile)."""
    for c in checks:
        _declare(c)
    _NEUTRAL.update(c.id for c in neutral)
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


def is_neutral(check_id: str) -> bool:
    """Whether the check runs on a translation in a language without a profile."""
    entries()
    return check_id in _NEUTRAL


def run(ctx, only: set[str] | None = None) -> list[Issue]:
    """Run the checks; with ``ctx.no_profile`` (why the language has no profile) only the
    language-neutral ones, the others appended to ``ctx.not_run`` as ``(check id, reason)``."""
    out: list[Issue] = []
    yielding: dict[str, tuple[str, ...]] = {}
    for e in entries():
        if only and e.category not in only:
            continue
        if ctx.no_profile:
            kept = {c.id for c in e.checks if c.id in _NEUTRAL}
            ctx.not_run.extend((c.id, ctx.no_profile) for c in e.checks if c.id not in kept)
            if not kept:
                continue
            found = e.fn(ctx, e.checks[0]) if e.single else e.fn(ctx)
            out.extend(i for i in found if i.check in kept)
        else:
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

"""Every rule's numbers and texts through the archive, for the whole edition at once.

:meth:`pipeline.diff.history.EditionArchive.lineage` answers one rule; a site needs the
lineage of all ~3,000 rules of each edition it shows, and the map of every old number to
today's.  Both come from the same cached consecutive matches (``EditionArchive.pair``); each
rule is followed by the archive's own walk (``EditionArchive.follow``), ~0.1 s an edition.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diff.history import EditionArchive
from ..diff.text import normalize


@dataclass
class Trace:
    """One rule of one edition through every edition: runs of one number, and text changes."""

    spans: list[dict] = field(default_factory=list)  # {number, first, last} (labels), oldest first
    changes: list[dict] = field(default_factory=list)  # {edition, number, text} where the text changed
    appeared: str | None = None  # label of the first edition holding it (None: the archive's first)
    disappeared: str | None = None  # label of the first edition without it (None: still present)


def _add(tr: Trace, number: str, label: str) -> None:
    if tr.spans and tr.spans[-1]["number"] == number:
        tr.spans[-1]["last"] = label
    else:
        tr.spans.append({"number": number, "first": label, "last": label})


def edition_traces(arch: EditionArchive, label: str, texts: dict[str, str]) -> dict[str, Trace]:
    """The trace of every rule of edition ``label`` (``texts``: its rule id -> text), each
    followed through the cached consecutive matches as ``crpipe history`` follows one."""
    E = arch.editions
    k = arch.index(label)
    out = {}
    for rid, text in texts.items():
        tr = out[rid] = Trace()
        versions = {k: (rid, text)}  # edition index -> (number, text) where the rule is
        tr.appeared = arch.follow(rid, text, range(k - 1, -1, -1), versions, forward=False)
        tr.disappeared = arch.follow(rid, text, range(k, len(E) - 1), versions, forward=True)
        prev = None
        for i in sorted(versions):
            num, txt = versions[i]
            _add(tr, num, E[i].label)
            if prev is None:
                tr.changes.append({"edition": E[i].label, "number": num, "text": txt, "first": True})
            elif normalize(prev) != normalize(txt):
                tr.changes.append({"edition": E[i].label, "number": num, "text": txt})
            prev = txt
    return out


def old_numbers(arch: EditionArchive) -> dict[str, list[dict]]:
    """Every number some edition gave a rule that today's edition numbers differently (or
    dropped): number -> runs ``{first, last, now}`` (labels; ``now`` None when the rule is gone)."""
    E = arch.editions
    last = len(E) - 1
    ids = set(arch.load(E[last].label).rule_ids)
    fwd = {n: n for n in ids}  # number in edition i -> number in the last edition (None: gone)
    found: dict[str, list[dict]] = {}
    for i in range(last - 1, -1, -1):
        pm = arch.pair(i)
        older = {}
        for n in ids:
            p = pm.backward(n)
            if p is not None:
                older[p] = fwd[n]
        for p in pm.removed:
            older[p] = None
        ids, fwd = set(older), older
        for n in sorted(ids):
            now = fwd[n]
            if now == n:
                continue
            runs = found.setdefault(n, [])
            if runs and runs[-1]["now"] == now and runs[-1]["first"] == E[i + 1].label:
                runs[-1]["first"] = E[i].label
            else:
                runs.append({"first": E[i].label, "last": E[i].label, "now": now})
    for runs in found.values():
        runs.reverse()
    return found

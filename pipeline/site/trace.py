"""Every rule's numbers and texts through the archive, for the whole edition at once.

:meth:`pipeline.diff.history.EditionArchive.lineage` answers one rule; a site needs the
lineage of all ~3,000 rules of each edition it shows, and the map of every old number to
today's.  Both come from the same cached consecutive matches (``EditionArchive.pair``),
walked once per edition instead of once per rule.
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


def _add(tr: Trace, number: str, label: str, front: bool) -> None:
    if front:
        if tr.spans and tr.spans[0]["number"] == number:
            tr.spans[0]["first"] = label
        else:
            tr.spans.insert(0, {"number": number, "first": label, "last": label})
    elif tr.spans and tr.spans[-1]["number"] == number:
        tr.spans[-1]["last"] = label
    else:
        tr.spans.append({"number": number, "first": label, "last": label})


def edition_traces(arch: EditionArchive, label: str, texts: dict[str, str]) -> dict[str, Trace]:
    """The trace of every rule of edition ``label`` (``texts``: its rule id -> text)."""
    E = arch.editions
    k = arch.index(label)
    out = {rid: Trace() for rid in texts}
    for rid, tr in out.items():
        _add(tr, rid, E[k].label, False)
    # Backwards: edition i + 1 -> i.
    cur = {rid: rid for rid in texts}
    text = dict(texts)
    for i in range(k - 1, -1, -1):
        pm = arch.pair(i)
        nxt = {}
        for rid, num in cur.items():
            prev = pm.backward(num)
            if prev is None:
                out[rid].appeared = E[i + 1].label
                continue
            if prev in pm.changed:
                old_text = pm.changed[prev][0]
                if normalize(old_text) != normalize(text[rid]):
                    out[rid].changes.insert(0, {"edition": E[i + 1].label, "number": num, "text": text[rid]})
                text[rid] = old_text
            _add(out[rid], prev, E[i].label, True)
            nxt[rid] = prev
        cur = nxt
    for rid, tr in out.items():
        if rid in cur:  # present in the archive's first edition
            tr.changes.insert(0, {"edition": E[0].label, "number": cur[rid], "text": text[rid], "first": True})
        else:
            first = tr.spans[0]
            tr.changes.insert(0, {"edition": first["first"], "number": first["number"], "text": text[rid],
                                  "first": True})
    # Forwards: edition i -> i + 1.
    cur = {rid: rid for rid in texts}
    for i in range(k, len(E) - 1):
        pm = arch.pair(i)
        nxt = {}
        for rid, num in cur.items():
            new = pm.forward(num)
            if new is None:
                out[rid].disappeared = E[i + 1].label
                continue
            if num in pm.changed and normalize(pm.changed[num][0]) != normalize(pm.changed[num][1]):
                out[rid].changes.append({"edition": E[i + 1].label, "number": new, "text": pm.changed[num][1]})
            _add(out[rid], new, E[i + 1].label, False)
            nxt[rid] = new
        cur = nxt
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

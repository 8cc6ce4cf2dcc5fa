"""Integrity check of a parsed document's numbering and structure.

Findings are data (rule, kind, severity, detail).  Kinds: ``duplicate``,
``out-of-order``, ``gap``, ``bad-letter``, ``orphan``, ``wrong-section``,
``toc-missing-in-body``, ``body-missing-in-toc``, ``toc-title-differs``, plus what the
parser itself reported (``truncated``, ``unassigned-line``, ``unnumbered-paragraph``, …).
"""

from __future__ import annotations

from ..findings import Severity
from ..model import DocKind, Document, Finding, TocLevel
from ..rulenum import LETTERS, Level, RuleNumber
from ..seq import longest_increasing


def check(doc: Document) -> list[Finding]:
    """All findings for ``doc``: the parser's own plus the numbering checks, in a stable order."""
    out = list(doc.findings)
    numbering = numbering_findings(doc)
    if doc.meta.kind in (DocKind.PASTE, DocKind.WEBCARD):
        # An excerpt (pasted rules, a web-viewer card) holds a few rules in any order:
        # order, parents and gaps describe the excerpt, not defects.
        for f in numbering:
            if f.kind in ("out-of-order", "orphan", "gap"):
                f.severity = "info"
    out.extend(numbering)
    out.extend(toc_findings(doc))
    return out


def numbering_findings(doc: Document) -> list[Finding]:
    out: list[Finding] = []
    seen: dict[str, int] = {}
    ids = set()
    nums = [r.number for r in doc.rules]
    keys = [n.sort_key() for n in nums]
    first = []  # positions of first occurrences; repeats are duplicates, not disorder
    for i, (r, n) in enumerate(zip(doc.rules, nums)):
        if r.id in seen:
            out.append(Finding("duplicate", f"{r.id} appears again (first at line {seen[r.id]})", "error", r.id, r.line))
        else:
            seen[r.id] = r.line or 0
            first.append(i)
        if not n.letter_valid:
            out.append(Finding("bad-letter", f"{r.id} uses the letter '{n.letter}', which the rules never use", "error", r.id, r.line))
        ids.add(r.id)
    # Out of order = not on the longest increasing run of numbers.  One mistyped number
    # ("432.2b" among the 423s) is then one finding, not a finding for every rule after it.
    in_order = set(longest_increasing([keys[i] for i in first]))
    for k, i in enumerate(first):
        if k not in in_order:
            r = doc.rules[i]
            before = next((doc.rules[first[j]].id for j in range(k - 1, -1, -1) if j in in_order), None)
            out.append(Finding("out-of-order", f"{r.id} is out of sequence" + (f" (after {before})" if before else ""),
                               "error", r.id, r.line))
    sec = {s.number for s in doc.sections}
    for r, n in zip(doc.rules, nums):
        if r.parent is not None and r.parent not in ids:
            out.append(Finding("orphan", f"{r.id} has no parent rule {n.parent()}", "error", r.id, r.line))
        if sec and n.level == Level.RULE and n.section not in sec:
            out.append(Finding("wrong-section", f"{r.id} belongs to no section heading {n.section}", "warning", r.id, r.line))
    out.extend(_gaps(doc, nums))
    return out


def _gaps(doc: Document, nums: list[RuleNumber]) -> list[Finding]:
    """Missing numbers inside each family: children of one parent should run 1, 2, 3 or a, b, c."""
    out = []
    families: dict[str, list[RuleNumber]] = {}
    for r, n in zip(doc.rules, nums):
        if r.parent is not None:
            families.setdefault(r.parent, []).append(n)
    line = {r.id: r.line for r in doc.rules}
    for parent, kids in families.items():
        kids = sorted(set(kids), key=RuleNumber.sort_key)
        if kids[0].letter is None:
            seq = [k.sub for k in kids]
            expected = range(1, max(seq) + 1)
        else:
            valid = [k for k in kids if k.letter_valid]
            if not valid:
                continue
            seq = [k.letter_index for k in valid]
            expected = range(0, max(seq) + 1)
        present = set(seq)
        missing = [e for e in expected if e not in present]
        # One finding per run of missing numbers, so a typo such as 505.54 for 505.5a
        # reads as one anomaly, not fifty.
        runs: list[list[int]] = []
        for e in missing:
            if runs and runs[-1][-1] == e - 1:
                runs[-1].append(e)
            else:
                runs.append([e])

        def name(e: int) -> str:
            return f"{parent}.{e}" if kids[0].letter is None else f"{parent}{LETTERS[e]}"

        for run in runs:
            nxt = next((str(k) for k in kids if (k.sub if k.letter is None else k.letter_index) > run[-1]), None)
            what = name(run[0]) if len(run) == 1 else f"{name(run[0])} to {name(run[-1])}"
            out.append(Finding("gap", f"{what} {'is' if len(run) == 1 else 'are'} missing before {nxt}", "warning", nxt, line.get(nxt)))
    # three-digit rules inside one section
    by_sec: dict[int, list[int]] = {}
    for n in nums:
        if n.sub is None:
            by_sec.setdefault(n.section, []).append(n.rule)
    for sec, rules in by_sec.items():
        rules = sorted(set(rules))
        for a, b in zip(rules, rules[1:]):
            for m in range(a + 1, b):
                out.append(Finding("gap", f"rule {m} is missing before {b}", "warning", str(b), line.get(str(b))))
    return out


def toc_findings(doc: Document) -> list[Finding]:
    if not doc.toc:
        return []
    out = []
    toc = {t.number: t.title for t in doc.toc if t.level == TocLevel.RULE}
    body = {r.id: r.text for r in doc.rules if r.level == Level.RULE}
    for num, title in toc.items():
        if num not in body:
            out.append(Finding("toc-missing-in-body", f"the Contents list {num}. {title}, the body has no rule {num}", "warning", num))
        elif _norm(title) != _norm(body[num]):
            out.append(Finding("toc-title-differs", f"Contents says {num}. {title!r}, the body {body[num]!r}", "info", num))
    for num, title in body.items():
        if num not in toc:
            out.append(Finding("body-missing-in-toc", f"rule {num}. {title} is not in the Contents", "warning", num))
    secs_toc = {t.number: t.title for t in doc.toc if t.level == TocLevel.SECTION}
    for s in doc.sections:
        if str(s.number) not in secs_toc:
            out.append(Finding("body-missing-in-toc", f"section {s.number}. {s.title} is not in the Contents", "warning", str(s.number)))
    return out


def _norm(s: str) -> str:
    return " ".join(s.replace("_", "").replace("’", "'").split()).casefold()


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity == Severity.ERROR for f in findings)

"""The diff as a Markdown release bulletin: grouped by section, renumbering collapsed.

Word-level edits are shown inline (~~deleted~~ **inserted**); each renumbering cascade
is one line; the closing note puts the change counts next to what a plain line diff of
the same two editions reports.
"""

from __future__ import annotations

import re

from .classify import Change, ChangeKind, ChangePart, DiffResult

_MD_SPECIAL = re.compile(r"([\\`*_~\[\]<>#|])")
_EDGES = re.compile(r"^([\s,;:.]*)(.*?)([\s,;:.]*)$", re.S)
KIND_TITLES = {"added": "Added", "removed": "Removed", "modified": "Changed", "moved": "Renumbered",
               "moved_modified": "Renumbered and changed"}


def esc(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


def _wrap(text: str, mark: str) -> str:
    """``mark`` around the words of ``text``; spaces and edge punctuation stay outside, or
    Markdown would not see the marks as emphasis ("Plant**, Platypus**")."""
    m = _EDGES.match(text)
    lead, core, trail = m.group(1), m.group(2), m.group(3)
    if not core:  # only punctuation changed: mark it as it is
        lead, core, trail = "", text.strip(), text[len(text.rstrip()):]
        if not core:
            return text
    return f"{esc(lead)}{mark}{esc(core)}{mark}{esc(trail)}"


def inline_diff(runs: list[list[str]]) -> str:
    out = []
    for op, t in runs:
        out.append(esc(t) if op == "=" else _wrap(t, "~~" if op == "-" else "**"))
    return "".join(out)


def _label(c: Change) -> str:
    if c.part == ChangePart.GLOSSARY:
        return esc(c.new or c.old) if c.old == c.new or not (c.old and c.new) else f"{esc(c.old)} → {esc(c.new)}"
    where = c.new if c.kind == ChangeKind.ADDED else c.old
    if c.kind in (ChangeKind.MOVED, ChangeKind.MOVED_MODIFIED):
        where = f"{c.old} → {c.new}"
    if c.part == ChangePart.EXAMPLE:
        pos = c.example or {}
        n = pos.get("new") or pos.get("old")
        return f"{c.new or c.old}, example {n}"
    if c.part == ChangePart.TITLE and (c.old or c.new or "").isdigit():
        return f"section {where}"
    return where


def _line(c: Change) -> str:
    label = f"**{_label(c)}**"
    note = " *(references to renumbered rules updated only)*" if c.refs_only else ""
    if c.kind == ChangeKind.ADDED:
        return f"- {label} {esc(c.new_text or '')}"
    if c.kind == ChangeKind.REMOVED:
        return f"- {label} ~~{esc((c.old_text or '').strip())}~~"
    if c.word_diff:
        return f"- {label}{note} {inline_diff(c.word_diff)}"
    return f"- {label}{note} {esc(c.new_text or '')}"


def render_markdown(res: DiffResult, expand_moves: bool = False) -> str:
    o, n = res.old, res.new
    lines = [f"# Comprehensive Rules changes: {o.effective_date or '?'} → {n.effective_date or '?'}", "",
             f"Old: `{o.file}` (effective {o.effective_date or 'unknown'}); "
             f"new: `{n.file}` (effective {n.effective_date or 'unknown'}).", ""]
    if res.cascades:
        lines += ["## Renumbering", ""]
        lines += [f"- {esc(c.line)}" for c in res.cascades]
        lines += ["", "The full map (old → new, and numbers with no successor) is in the JSON output.", ""]
    changes = res.listed_changes(expand_moves)
    by_section: dict[int | None, list[Change]] = {}
    for c in changes:
        if c.part != ChangePart.GLOSSARY:
            by_section.setdefault(c.section, []).append(c)
    for sec in sorted(by_section, key=lambda s: (s is None, s or 0)):
        title = res.section_titles.get(sec, "") if sec is not None else ""
        lines += [f"## {sec}. {esc(title)}" if sec is not None else "## Other", ""]
        for kind in KIND_TITLES:
            group = [c for c in by_section[sec] if c.kind == kind]
            if group:
                lines += [f"### {KIND_TITLES[kind]} ({len(group)})", ""] + [_line(c) for c in group] + [""]
    gloss = [c for c in changes if c.part == ChangePart.GLOSSARY]
    if gloss:
        lines += ["## Glossary", ""]
        for kind in KIND_TITLES:
            group = [c for c in gloss if c.kind == kind]
            if group:
                lines += [f"### {KIND_TITLES[kind]} ({len(group)})", ""] + [_line(c) for c in group] + [""]
    if not res.summary["changes"]:
        lines += [f"No change: the {o.effective_date or 'old'} and {n.effective_date or 'new'} editions have "
                  "identical rules, examples and glossary.", ""]
    if res.stale_references:
        lines += ["## References still using an old number", ""]
        lines += [f"- {esc(s['in'])}: {s['ref']} ({esc(s['reason'])})" for s in res.stale_references] + [""]
    s = res.summary
    k = s["by_kind"]
    lines += ["---", "", (
        f"**Summary.** {s['changes']} changes: {k['added']} added, {k['removed']} removed, "
        f"{k['modified']} modified ({s['refs_only']} of all changes only update references to renumbered rules), "
        f"{k['moved']} moved, {k['moved_modified']} moved and modified; {len(res.cascades)} renumbering "
        f"cascade(s) cover {s['moves_in_cascades']} of the moves; {s['renumbered']} numbers changed and "
        f"{s['numbers_without_successor']} have no successor.")]
    if "line_diff" in s:
        ld = s["line_diff"]
        lines += ["", f"For contrast, a plain line diff of the same editions reports {ld['lines_changed']} changed lines "
                      f"({ld['lines_removed']} removed, {ld['lines_added']} added)."]
    return "\n".join(lines) + "\n"

"""The diff as one self-contained HTML page: old and new side by side, words highlighted.

No scripts, no external resources; every text from the documents goes through
``html.escape`` (rule texts contain quotes, ``<`` never, but a hostile input might).
"""

from __future__ import annotations

from html import escape

from .classify import Change, ChangeKind, ChangePart, DiffResult
from .report_md import KIND_TITLES

CSS = """
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1400px}
table{border-collapse:collapse;width:100%;margin-bottom:1.5em}
td,th{border:1px solid #ddd;padding:.4em .6em;vertical-align:top;text-align:left}
th{background:#f4f4f4}td.id{white-space:nowrap;font-family:monospace}
del{background:#fdd;text-decoration:line-through}ins{background:#dfd;text-decoration:none}
.kind{font-size:.8em;color:#555;white-space:nowrap}.refs{color:#777;font-style:italic}
.summary{background:#f8f8f0;padding:1em;border:1px solid #e5e5cc}
"""


def _side(c: Change, which: str) -> str:
    if c.word_diff:
        tag = "del" if which == "-" else "ins"
        return "".join(escape(t) if op == "=" else f"<{tag}>{escape(t)}</{tag}>"
                       for op, t in c.word_diff if op in ("=", which))
    text = c.old_text if which == "-" else c.new_text
    if text is None:
        return ""
    if c.kind == ChangeKind.REMOVED:
        return f"<del>{escape(text)}</del>"
    if c.kind == ChangeKind.ADDED:
        return f"<ins>{escape(text)}</ins>"
    return escape(text)


def _row(c: Change) -> str:
    old_id, new_id = c.old or "", c.new or ""
    if c.part == ChangePart.EXAMPLE:
        pos = c.example or {}
        old_id = f"{c.old} ex. {pos.get('old')}" if pos.get("old") else ""
        new_id = f"{c.new} ex. {pos.get('new')}" if pos.get("new") else ""
    kind = KIND_TITLES[c.kind] + (' <span class="refs">(references only)</span>' if c.refs_only else "")
    return (f"<tr><td class=kind>{kind}</td><td class=id>{escape(old_id)}</td><td>{_side(c, '-')}</td>"
            f"<td class=id>{escape(new_id)}</td><td>{_side(c, '+')}</td></tr>")


def render_html(res: DiffResult, expand_moves: bool = False) -> str:
    o, n = res.old, res.new
    title = f"Comprehensive Rules changes: {o.effective_date or '?'} → {n.effective_date or '?'}"
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{escape(title)}</title><style>{CSS}</style></head><body>", f"<h1>{escape(title)}</h1>",
           f"<p>Old: <code>{escape(str(o.file))}</code> · new: <code>{escape(str(n.file))}</code></p>"]
    s = res.summary
    k = s["by_kind"]
    ld = s.get("line_diff")
    out.append(
        f"<p class=summary>{s['changes']} changes: {k['added']} added, {k['removed']} removed, {k['modified']} modified, "
        f"{k['moved']} moved, {k['moved_modified']} moved and modified ({s['refs_only']} only update references). "
        f"{s['renumbered']} numbers changed, {s['numbers_without_successor']} have no successor."
        + (f" A plain line diff reports {ld['lines_changed']} changed lines." if ld else "") + "</p>")
    if not s["changes"]:
        same = o.effective_date == n.effective_date
        out.append("<p class=nochange>" + escape(
            f"No change: the {o.effective_date or 'old'} edition is the {n.effective_date or 'new'} edition, so its "
            "rules, examples and glossary are identical." if same else
            f"No change between the {o.effective_date or 'old'} and {n.effective_date or 'new'} editions: their "
            "rules, examples and glossary are identical.") + "</p>")
    if res.cascades:
        out.append("<h2>Renumbering</h2>")
        for c in res.cascades:
            rows = "".join(f"<tr><td class=id>{escape(a)}</td><td class=id>{escape(b)}</td></tr>" for a, b in c.moves)
            out.append(f"<details><summary>{escape(c.line)}</summary><table><tr><th>old</th><th>new</th></tr>"
                       f"{rows}</table></details>")
    changes = res.listed_changes(expand_moves)
    groups: dict[str, list[Change]] = {}
    for c in changes:
        if c.part == ChangePart.GLOSSARY:
            key = "Glossary"
        elif c.section is not None:
            key = f"{c.section}. {res.section_titles.get(c.section, '')}"
        else:
            key = "Other"
        groups.setdefault(key, []).append(c)
    head = "<tr><th>change</th><th>old</th><th>old text</th><th>new</th><th>new text</th></tr>"
    for key, group in groups.items():
        out.append(f"<h2>{escape(key)}</h2><table>{head}{''.join(_row(c) for c in group)}</table>")
    if res.stale_references:
        rows = "".join(f"<tr><td>{escape(x['in'])}</td><td class=id>{escape(x['ref'])}</td><td>{escape(x['reason'])}</td></tr>"
                       for x in res.stale_references)
        out.append(f"<h2>References still using an old number</h2><table><tr><th>in</th><th>cites</th><th>why</th></tr>{rows}</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"

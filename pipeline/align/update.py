"""The update workflow: which translated rules must be revisited because their English moved
between the translation's base edition and the current one.

For every translated rule: whether its English changed (text, examples or number) and the
English word diff; the rules new in the current edition (nobody translated them) and the base
rules it removed.  The report's "rules to update" view and the update XLIFF/PO read this.
"""

from __future__ import annotations

from ..diff.worddiff import changed_words, word_diff
from ..rulenum import RuleNumber


def _how(row) -> list[str]:
    out = []
    if row.current_id is None:
        return ["removed"]
    if row.current_id != row.base_id:
        out.append("number")
    src, cur = row.source.split("\n"), row.current.split("\n")
    if " ".join(src[0].split()) != " ".join(cur[0].split()):
        out.append("text")
    if [" ".join(x.split()) for x in src[1:]] != [" ".join(x.split()) for x in cur[1:]]:
        out.append("examples")
    return out


def update_plan(rows, base, current, map_number, base_label, current_label, untranslated=()) -> dict:
    """``{"base", "current", "rules": [...], "new": [...], "removed": [...], "untranslated": [...]}``,
    rules in rule order; ``untranslated``: base ids the translation holds untranslated (coverage),
    given with their current English so an update file carries them as units to translate."""
    rules = []
    for r in rows:
        if r.id is None or r.base_id is None:
            continue
        how = _how(r)
        entry = {"rule": r.id, "base_id": r.base_id, "current_id": r.current_id, "changed": bool(how), "how": how}
        if how and r.current_id is not None:
            runs = word_diff(r.source, r.current)
            entry["diff"] = runs
            entry["changed_words"] = changed_words(runs)
        rules.append(entry)
    rules.sort(key=lambda e: _key(e["rule"]))
    new, removed = [], []
    if current is not None and map_number is not None and base is not None and base is not current:
        image = set()
        for b in base.rules:
            c = map_number(b.id)
            if c is None:
                removed.append({"base_id": b.id, "text": b.text})
            else:
                image.add(c)
        new = [{"current_id": c.id, "text": c.text} for c in current.rules if c.id not in image]
    todo = []
    for bid in untranslated:
        b = base.rule(bid) if base is not None else None
        cid = map_number(bid) if map_number is not None else bid
        c = current.rule(cid) if (current is not None and cid) else None
        if b is not None and (c is not None or current is None):
            r = c or b
            todo.append({"base_id": bid, "current_id": cid, "text": "\n".join([r.text, *r.example_texts])})
    return {"base": base_label, "current": current_label, "rules": rules, "untranslated": todo,
            "to_update": [e["rule"] for e in rules if e["changed"]], "new": new, "removed": removed}


def _key(rule_id: str):
    n = RuleNumber.try_parse(rule_id)
    return (0, n.sort_key()) if n is not None else (1, rule_id)

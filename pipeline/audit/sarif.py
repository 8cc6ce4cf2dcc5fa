"""SARIF 2.1.0 output, so code hosts can show citation findings inline."""

from __future__ import annotations

from .report import AuditReport
from .resolve import STATUSES

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

_RULES = {
    "missing": ("The cited rule number never existed in any edition.", "error"),
    "removed": ("The cited rule was removed from the Comprehensive Rules.", "error"),
    "stale-renumbered": ("The citation uses an older edition's numbering; the rule has a new number.", "warning"),
    "wrong-topic": ("The text around the citation does not match the cited rule.", "warning"),
    "newer-than-model": ("The cited rule exists only in editions newer than the one given.", "note"),
    "outdated-quote": ("The quoted rule text is outdated: reworded or moved to another number.", "warning"),
}


def to_sarif(rep: AuditReport) -> dict:
    rule_ids = [s for s in STATUSES if s != "ok"]
    results = []
    for c in rep.problems:
        msg = f"CR {c.cited}: {c.status}"
        if c.suggested:
            msg += f" (suggested: {c.suggested})"
        msg += f". {c.evidence}"
        results.append({
            "ruleId": c.status,
            "ruleIndex": rule_ids.index(c.status),
            "level": _RULES[c.status][1],
            "message": {"text": msg},
            "locations": [{"physicalLocation": {
                # Relative to the audited folder (SRCROOT); the code host supplies the base.
                "artifactLocation": {"uri": c.file, "uriBaseId": "SRCROOT"},
                "region": {"startLine": c.line, "startColumn": c.column},
            }}],
            "properties": {"cited": c.cited, "suggested": c.suggested, "kind": c.kind,
                           **({"score": round(c.score, 3)} if c.score is not None else {})},
        })
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "crpipe audit-citations",
                "informationUri": "https://magic.wizards.com/en/rules",
                "rules": [{"id": s, "name": s.title().replace("-", ""),
                           "shortDescription": {"text": _RULES[s][0]},
                           "defaultConfiguration": {"level": _RULES[s][1]}} for s in rule_ids],
            }},
            "results": results,
            "properties": {"edition": rep.edition, "history": list(rep.history) if rep.history else None},
        }],
    }

"""SARIF 2.1.0 output, so code hosts can show citation findings inline."""

from __future__ import annotations

import json

from .report import AuditReport
from .resolve import STATUSES, CitationStatus

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

_RULES = {
    "missing": ("The cited rule number never existed in any edition.", "error"),
    "removed": ("The cited rule was removed from the Comprehensive Rules.", "error"),
    "stale-renumbered": ("The citation uses an older edition's numbering; the rule has a new number.", "warning"),
    "wrong-topic": ("The text around the citation does not match the cited rule.", "warning"),
    "newer-than-model": ("The cited rule exists only in editions newer than the one given.", "note"),
    "outdated-quote": ("The quoted rule text is outdated: reworded or moved to another number.", "warning"),
}


RULE_IDS = [s for s in STATUSES if s != CitationStatus.OK]


def result(c, baseline_state: str | None = None) -> dict:
    """One finding as a SARIF result (``baseline_state``: "new" when a baseline was compared)."""
    msg = f"CR {c.cited}: {c.status}"
    if c.suggested:
        msg += f" (suggested: {c.suggested})"
    msg += f". {c.evidence}"
    out = {
        "ruleId": c.status,
        "ruleIndex": RULE_IDS.index(c.status),
        "level": _RULES[c.status][1],
        "message": {"text": msg},
        "locations": [{"physicalLocation": {
            # Relative to the audited folder (SRCROOT); the code host supplies the base.
            "artifactLocation": {"uri": c.file, "uriBaseId": "SRCROOT"},
            "region": {"startLine": c.line, "startColumn": c.column},
        }}],
        "properties": {"cited": c.cited, "suggested": c.suggested, "kind": c.kind,
                       **({"score": round(c.score, 3)} if c.score is not None else {})},
    }
    if baseline_state:
        out["baselineState"] = baseline_state
    return out


def tool() -> dict:
    return {"driver": {
        "name": "crpipe audit-citations",
        "informationUri": "https://magic.wizards.com/en/rules",
        "rules": [{"id": s, "name": s.title().replace("-", ""),
                   "shortDescription": {"text": _RULES[s][0]},
                   "defaultConfiguration": {"level": _RULES[s][1]}} for s in RULE_IDS],
    }}


def run_properties(edition: str, history) -> dict:
    return {"edition": edition, "history": list(history) if history else None}


def to_sarif(rep: AuditReport) -> dict:
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": tool(), "results": [result(c) for c in rep.problems],
                  "properties": run_properties(rep.edition, rep.history)}],
    }


class SarifStream:
    """The same document written result by result (see :mod:`pipeline.audit.stream`)."""

    def __init__(self, out):
        from .stream import ListStream  # noqa: PLC0415 - only the command line streams

        head = '{"$schema": ' + json.dumps(SCHEMA) + ', "version": "2.1.0", "runs": ['
        self.s = ListStream(out, {"tool": tool()}, "results", (head, "]}"))

    def add(self, c, baseline_state: str | None = None) -> None:
        self.s.add(result(c, baseline_state))

    def close(self, edition: str, history) -> None:
        self.s.close({"properties": run_properties(edition, history)})

"""CSV of findings: one line per finding, for spreadsheets and issue trackers."""

from __future__ import annotations

import csv
import io

COLUMNS = ["rule", "base_id", "current_id", "status", "check", "category", "severity", "start", "end",
           "excerpt", "message", "suggestion"]


def render_csv(result) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for row in result.rows:
        for i in row.issues:
            w.writerow([row.id or "", row.base_id or "", row.current_id or "", row.status, i.check, i.category,
                        i.severity, i.span[0] if i.span else "", i.span[1] if i.span else "", i.excerpt or "",
                        i.message, i.suggestion or ""])
    return buf.getvalue()

"""Structure: the translation's rules against the base edition's numbering."""

from __future__ import annotations

from ...findings import Category, Check, DefectClass, Severity
from .registry import register_pass
from ...rulenum import RuleNumber
from ..model import RowMethod, RowStatus

MISSING = Check("structure.missing", Category.STRUCTURE, Severity.ERROR,
                "An English rule of the base edition has no translated counterpart.", DefectClass.STRUCTURE)
EXTRA = Check("structure.extra", Category.STRUCTURE, Severity.WARNING,
              "A translated rule matches no rule of the base edition, by number or by content.", DefectClass.STRUCTURE)
INFERRED = Check("structure.inferred-number", Category.STRUCTURE, Severity.INFO,
                 "The rule's number is not in the source; ingestion inferred it from its position.", DefectClass.STRUCTURE)
NUMBERING = Check("structure.numbering", Category.STRUCTURE, Severity.WARNING,
                  "The rule is numbered differently from the English rule its content matches, "
                  "or out of order.", DefectClass.STRUCTURE)
CHECKS = [MISSING, EXTRA, INFERRED, NUMBERING]


def run(ctx) -> list:
    out = []
    prev: RuleNumber | None = None
    for p in ctx.pairs:
        r = p.row
        if r.status == RowStatus.MISSING:
            out.append(ctx.issue(MISSING, p, f"rule {r.base_id} of the base edition is not translated"
                                 + (f" (now {r.current_id})" if r.current_id and r.current_id != r.base_id else "")))
            continue
        if r.status == RowStatus.EXTRA:
            out.append(ctx.issue(EXTRA, p, f"rule {r.id} is not in the base edition and its content "
                                 "matches no untranslated English rule"))
        if r.inferred_number:
            out.append(ctx.issue(INFERRED, p, f"number {r.id} inferred from the subrule's position "
                                 f"(source lists it without a number)"))
        if r.status == RowStatus.REALIGNED:
            out.append(ctx.issue(NUMBERING, p, f"numbered {r.id}, but its content is English rule {r.base_id}",
                                 suggestion=r.base_id))
        n = RuleNumber.try_parse(r.id or "")
        if ctx.complete and n is not None and r.method == RowMethod.NUMBER and not r.inferred_number:
            if prev is not None and not prev < n:
                out.append(ctx.issue(NUMBERING, p, f"rule {r.id} comes after {prev}: out of order or duplicated"))
            prev = n
    return out


register_pass(run, CHECKS, neutral=tuple(CHECKS))  # rule numbers only

"""Show a linked rule in the translations at hand: reference number -> translated rule.

A translation is numbered like the English edition it was made from (its *base*), which
may predate the reference edition the rulings are linked against (persist was 702.78 in
the Portuguese paste, 702.79 today).  When a folder of editions is available, numbers
travel from the base edition to the reference through ``pipeline.align`` /
``pipeline.diff`` (composed consecutive diffs); otherwise they are taken as they are,
and every answer says which was done.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..diff.context import EditionContext, resolve_editions
from ..errors import CrpipeError
from ..model import Document


@dataclass
class TranslationMap:
    name: str
    language: str
    doc: Document
    to_translation: dict[str, str] = field(default_factory=dict)  # reference id -> translation id
    how: str = "numbers taken as they are"

    def rule(self, ref_id: str):
        tid = self.to_translation.get(ref_id, ref_id)
        return tid, self.doc.rule(tid)


def translation_maps(translations: dict[str, Document], reference: Document,
                     editions_dir: Path | None = None,
                     editions: dict[str, EditionContext] | None = None,
                     edition_errors: dict[str, str] | None = None) -> list[TranslationMap]:
    """``editions``/``edition_errors``: what the build's editions step resolved (each
    translation's editions are then not resolved again)."""
    out = []
    for name in sorted(translations):
        doc = translations[name]
        tm = TranslationMap(name, doc.meta.language, doc)
        if editions_dir is not None:
            try:
                if editions is not None and name in editions:
                    ed = editions[name]
                elif edition_errors is not None and name in edition_errors:
                    raise CrpipeError(edition_errors[name])
                else:
                    ed = resolve_editions(doc, editions_dir, reference)
                # The rulings are linked against the reference edition, which need not be current.
                ref_label = reference.meta.effective_date if reference is not None else ed.current_label
                to_ref = ed.mapper_to(ref_label)
                if to_ref is not None:
                    for r in doc.rules:
                        cur = to_ref(r.id)
                        if cur:
                            tm.to_translation.setdefault(cur, r.id)
                    tm.how = f"renumbered from base edition {ed.base_label} to {ref_label}"
            except (CrpipeError, ImportError, OSError, KeyError, ValueError) as e:
                tm.how = f"numbers taken as they are (renumbering unavailable: {getattr(e, 'message', e)})"
        out.append(tm)
    return out


def translated(rule_id: str, maps: list[TranslationMap]) -> list[dict]:
    """The linked rule's text in each translation that has it."""
    rows = []
    for tm in maps:
        tid, rule = tm.rule(rule_id)
        if rule is None or not rule.text.strip():
            continue
        rows.append({"translation": tm.name, "language": tm.language, "rule": tid, "text": rule.text, "numbering": tm.how})
    return rows

"""Hand-written translation pairs aligned for the translator checks' tests: one English and one
Portuguese document of numbered subrules ("100.1", "100.2", …, or the ids given), aligned by
number with the shipped term base.  Each check module's tests project the issues they assert on."""

from __future__ import annotations

from pipeline.align.aligner import align_documents
from pipeline.align.termbase import load_termbase
from pipeline.model import Document, Meta, Rule


def rules_doc(lang: str, texts: list[str], ids: list[str] | None = None) -> Document:
    d = Document(meta=Meta(language=lang, effective_date="2025-11-14", kind="translation" if lang != "en" else "official"))
    for i, text in enumerate(texts):
        rid = ids[i] if ids else f"100.{i + 1}"
        d.rules.append(Rule(rid, text, [], parent="100", level="subrule", order=i))
    return d


def aligned_issues(en: list[str], pt: list[str], ids: list[str] | None = None, lang: str = "pt") -> list:
    """Every issue of the translation ``pt`` of ``en`` (the English is base and current edition)."""
    en_doc = rules_doc("en", en, ids)
    return align_documents(rules_doc(lang, pt, ids), en_doc, en_doc, map_number=lambda n: n,
                           termbase=load_termbase()).issues


def filler_english(n: int) -> list[str]:
    """English of ``n`` units whose wording the checks under test do not read."""
    return [f"The player does thing number {i}." for i in range(n)]

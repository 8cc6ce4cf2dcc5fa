"""Card names: a localized name against the official one (MTGJSON foreign names).

Translations name a card in their language and give the English name in parentheses on
first mention: "Anjo Serra (Serra Angel)".  The capitalised words right before the
parenthesis are the localized name; MTGJSON's ``foreignNames``/``foreignData`` (any file
:func:`pipeline.rulings.reader.load_card_index` reads) say what it should be.
"""

from __future__ import annotations

import re

from ...findings import Category, Check, DefectClass, Severity
from .registry import register_pass
from ..text import english_names, fold

LOCALIZED = Check("cardnames.localized", Category.CARDNAMES, Severity.ERROR,
                  "A card's localized name differs from its official name in this language (MTGJSON).", DefectClass.TERM)
CHECKS = [LOCALIZED]

#: Lower-case words allowed inside a localized card name.
_JOIN = r"(?:de|do|da|dos|das|del|la|las|el|los|y|e|o|a|of|the|di|du|des)"
_NAME_BEFORE = re.compile(rf"((?:[A-ZÀ-Ý][\w'’-]*,?\s+(?:{_JOIN}\s+)*)*[A-ZÀ-Ý][\w'’-]*)\s*$")


def localized_before(text: str, pos: int) -> tuple[str, tuple[int, int]] | None:
    """The run of capitalised words ending right before ``pos`` (the opening parenthesis)."""
    head = text[max(0, pos - 120):pos].rstrip()
    m = _NAME_BEFORE.search(head)
    if not m:
        return None
    start = pos - 120 if pos > 120 else 0
    a = start + m.start(1)
    return m.group(1), (a, a + len(m.group(1)))


def _matches(run: str, official: str) -> bool:
    r, o = fold(run), fold(official)
    # The run may hold a sentence-initial word before the name ("Exemplo: O Anjo Serra").
    return r == o or r.endswith(" " + o)


def run(ctx) -> list:
    out = []
    if ctx.cards is None:
        return out
    for p in ctx.pairs:
        if p.target is None:
            continue
        text = p.target_text
        for en, (a, _b) in english_names(text):
            card = ctx.cards.resolve(en)
            if card is None:
                continue
            official = card.localized_name(ctx.lang)
            if not official:
                continue
            if " // " in official and " // " not in en:  # one face of a split card
                faces = dict(zip(card.faces, official.split(" // ")))
                official = faces.get(en, official)
            before = text[:a - 1].rstrip()
            if fold(before).endswith(fold(official)):
                continue
            # The words before the parenthesis, as many as the official name has: what was written.
            ws = list(re.finditer(r"\S+", before))[-len(official.split()):]
            if not ws:
                out.append(ctx.issue(LOCALIZED, p, f"“{en}” is given without its official name “{official}”",
                                     (a, a + len(en)), suggestion=official))
                continue
            span = (ws[0].start(), ws[-1].end())
            out.append(ctx.issue(LOCALIZED, p, f"“{text[span[0]:span[1]]}” for {en}: the official name is "
                                 f"“{official}”", span, suggestion=official))
    return out


register_pass(run, CHECKS, neutral=tuple(CHECKS))  # MTGJSON's names, not the profile's

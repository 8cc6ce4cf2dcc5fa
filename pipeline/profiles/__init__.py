"""Language profiles: everything the segmenter and reference extractor know about a language.

Adding French or Italian is adding a :class:`Profile` here (or a module next to this
one registered with :func:`register`), never editing the segmenter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Profile:
    lang: str
    name: str
    #: Words that introduce a rule number: "rule", "rules", "regra", "reglas".
    rule_words: tuple[str, ...]
    #: Words for a section: "section", "seção", "sección".
    section_words: tuple[str, ...]
    #: Verbs that introduce a citation: "see", "consulte", "véase".
    see_words: tuple[str, ...]
    #: List conjunctions: "and", "or" / "e", "ou" / "y", "o".
    conjunctions: tuple[str, ...]
    #: Range words between two numbers: "through", "to" / "a", "até" / "a", "hasta".
    range_words: tuple[str, ...]
    #: Example paragraph markers ("Example:").
    example_markers: tuple[str, ...]
    glossary_heading: tuple[str, ...]
    subrules_heading: tuple[str, ...]
    #: "These rules are effective as of November 14, 2025." in this language (a regex with a
    #: named group ``date``).
    effective_date_patterns: tuple[str, ...]
    months: tuple[str, ...]
    #: The web viewer's card header word ("Rule 614.12 · …").
    card_header_words: tuple[str, ...]
    #: Frequent function words, for language identification.
    stopwords: frozenset[str] = field(default_factory=frozenset)
    #: Letters only this language (of the known ones) writes: "ãõç" / "ñ¿¡".  They break
    #: near ties in language identification.
    letters: str = ""

    def example_re(self) -> re.Pattern:
        alts = "|".join(re.escape(m) for m in self.example_markers)
        return re.compile(rf"(?:{alts})\s*:", re.IGNORECASE)


PROFILES: dict[str, Profile] = {}


def register(p: Profile) -> Profile:
    PROFILES[p.lang] = p
    return p


def get(lang: str) -> Profile:
    try:
        return PROFILES[lang]
    except KeyError:
        raise KeyError(f"no language profile for {lang!r} (known: {', '.join(sorted(PROFILES))})") from None


EN = register(Profile(
    lang="en", name="English",
    rule_words=("rule", "rules", "subrule", "subrules"),
    section_words=("section", "sections"),
    see_words=("see", "as described in", "as defined in", "in"),
    conjunctions=("and", "or", "and/or"),
    range_words=("through", "to"),
    example_markers=("Example", "Examples"),
    glossary_heading=("Glossary",),
    subrules_heading=("Subrules",),
    effective_date_patterns=(r"(?:effective|current) as of (?P<date>[A-Z][a-z]+ \d{1,2}, \d{4})",),
    months=("january", "february", "march", "april", "may", "june", "july", "august", "september",
            "october", "november", "december"),
    card_header_words=("Rule",),
    stopwords=frozenset("the of and to a in is that it for as with on be by or this are an if its can".split()),
))

PT = register(Profile(
    lang="pt", name="Português",
    rule_words=("regra", "regras", "sub-regra", "sub-regras", "subregra", "subregras"),
    section_words=("seção", "secção", "seções", "secções"),
    see_words=("consulte", "veja", "ver", "vide", "conforme"),
    conjunctions=("e", "ou", "e/ou"),
    range_words=("a", "até"),
    example_markers=("Exemplo", "Exemplos"),
    glossary_heading=("Glossário",),
    subrules_heading=("Sub-regras", "Subregras"),
    # "Estas regras entram em vigor em 20 de Novembro de 2020.", "… são válidas a partir de 14 de
    # novembro de 2025", "… vigentes desde …": months capitalised or not (re.I in the reader).
    effective_date_patterns=(r"(?:válidas|vigentes|em vigor|efetivas|vigoram|valem)\s+(?:na data de\s+|a partir de\s+|desde\s+|em\s+|de\s+)?(?:o dia\s+)?(?P<date>\d{1,2}º? de [^\W\d_]+ de \d{4})",),
    months=("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
            "outubro", "novembro", "dezembro"),
    card_header_words=("Regra",),
    stopwords=frozenset("o a os as de do da dos das e em um uma que não se para com por no na ao seu sua é são".split()),
    letters="ãõçê",
))

ES = register(Profile(
    lang="es", name="Español",
    rule_words=("regla", "reglas", "subregla", "subreglas"),
    section_words=("sección", "secciones"),
    see_words=("véase", "véanse", "ver", "consulta", "consultar"),
    conjunctions=("y", "o", "e", "u", "y/o"),
    range_words=("a", "hasta"),
    example_markers=("Ejemplo", "Ejemplos"),
    glossary_heading=("Glosario",),
    subrules_heading=("Subreglas",),
    # "Estas reglas son válidas desde el 14 de noviembro de 2025", "… válidas a partir del …",
    # "… entran en vigor el …".
    effective_date_patterns=(r"(?:válidas|vigentes|en vigor|efectivas)\s+(?:desde el\s+|desde\s+|a partir del?\s+|el\s+|a partir de el\s+)?(?:día\s+)?(?P<date>\d{1,2}º? de [^\W\d_]+ de(?:l)? \d{4})",),
    months=("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
            "octubre", "noviembre", "diciembre"),
    card_header_words=("Regla",),
    stopwords=frozenset("el la los las de del y en un una que no se para con por al su es son lo como".split()),
    letters="ñ¿¡",
))

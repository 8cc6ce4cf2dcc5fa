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
    #: The language the official editions are written in: its texts compare verbatim with theirs.
    official: bool = False
    #: Number words that carry a count ("one"/"um"/"uno" are left out: they double as articles).
    number_words: tuple[tuple[str, int], ...] = ()
    #: Words that turn the number word after them into no count at all ("no two objects").
    count_negators: tuple[str, ...] = ()
    #: The locale's quotation marks (opening, closing) and marks that are foreign to it.
    quotes: tuple[str, str] = ("“", "”")
    foreign_quotes: str = ""
    #: The language opens what it asks or exclaims: "¿…?", "¡…!".
    inverted_marks: bool = False
    #: A spelling variant whose forms the lemma tables lack (``pipeline.lexicon`` knows how to add them).
    spelling_variant: str = ""
    #: Pseudo-translation wording: English cue words rendered for real (so the reference
    #: extractor reads them) and the phrase that cites another rule.
    cue_words: tuple[tuple[str, str], ...] = ()
    see_rule: str = "see rule {rule}"
    #: The Snowball stemmer of the language (search indexes words by their stems).
    stemmer: str = "english"
    #: Lists take a comma before the last "and"/"or" ("A, B, and C"); Portuguese and Spanish
    #: write "A, B e C", so a translation copying the English comma is corrected by reviewers.
    serial_comma: bool = True
    #: Words that negate (a dropped one inverts a rule); ``negation_prefixes`` make a word the
    #: negation of another word of the language ("irrelevante", "inexistente": "not relevant").
    negations: tuple[str, ...] = ()
    negation_prefixes: tuple[str, ...] = ()
    #: Colloquial spellings a rules text does not use ("pra" for "para").
    colloquial: tuple[tuple[str, str], ...] = ()
    #: Words written in lower case mid-sentence (month, weekday and language names in Portuguese).
    lowercase_words: tuple[str, ...] = ()
    #: Phrases whose number word is no count ("dois pontos": a colon).
    not_counts: tuple[str, ...] = ()
    #: Phrases that negate as one ("a menos que" for "unless"): counted once, their words not again.
    negation_phrases: tuple[str, ...] = ()
    #: Hunspell dictionary names, preferred first, and the Debian package that ships them.
    hunspell_dictionaries: tuple[str, ...] = ()
    hunspell_package: str = ""
    #: Function words a translator varies freely beyond spaCy's stop words (the consistency
    #: checks do not tell them apart): demonstratives, contractions, connectives.
    free_words: tuple[str, ...] = ()
    #: Plural endings a term's word takes beyond "-s"/"-es": (singular ending, plural ending).
    plural_rules: tuple[tuple[str, str], ...] = ()
    #: Words ending so agree in gender and number ("continuo"/"continua"): the forms they take.
    gender_endings: tuple[str, ...] = ()
    gender_forms: tuple[str, ...] = ()
    #: The order of a numeric date: "dmy" (14/11/2025) or "mdy" (11/14/2025).
    date_order: str = "dmy"

    def example_re(self) -> re.Pattern:
        alts = "|".join(re.escape(m) for m in self.example_markers)
        return re.compile(rf"(?:{alts})\s*:", re.IGNORECASE)


PROFILES: dict[str, Profile] = {}
#: The language the official editions are written in (set by the profile with ``official=True``).
OFFICIAL_LANG = "en"


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
    effective_date_patterns=(r"(?:effective|current) as of (?P<date>(?:January|February|March|April|May|June|July|August|"
                             r"September|October|November|December) \d{1,2}, \d{4})",),
    months=("january", "february", "march", "april", "may", "june", "july", "august", "september",
            "october", "november", "december"),
    card_header_words=("Rule",),
    official=True,
    number_words=(("zero", 0), ("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6), ("seven", 7),
                  ("eight", 8), ("nine", 9), ("ten", 10), ("eleven", 11), ("twelve", 12), ("thirteen", 13),
                  ("fourteen", 14), ("fifteen", 15), ("sixteen", 16), ("seventeen", 17), ("eighteen", 18),
                  ("nineteen", 19), ("twenty", 20), ("thirty", 30), ("forty", 40), ("fifty", 50), ("sixty", 60),
                  ("seventy", 70), ("eighty", 80), ("ninety", 90), ("hundred", 100), ("twice", 2), ("thrice", 3)),
    count_negators=("no",),
    # English: the verbal negations only ("no", "nothing", "without" have many renderings that
    # are not negations: "no máximo", "zero", "impossível").
    negations=("not", "never", "cannot", "can't", "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't",
               "weren't", "won't", "wouldn't", "couldn't", "shouldn't", "hasn't", "haven't", "hadn't", "mustn't"),
    stopwords=frozenset("the of and to a in is that it for as with on be by or this are an if its can".split()),
    hunspell_dictionaries=("en_US", "en_GB"), hunspell_package="hunspell-en-us",
    plural_rules=(("y", "ies"),),
    date_order="mdy",
))

PT = register(Profile(
    lang="pt", name="Português", stemmer="portuguese",
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
    number_words=(("zero", 0), ("dois", 2), ("duas", 2), ("três", 3), ("quatro", 4), ("cinco", 5), ("seis", 6),
                  ("sete", 7), ("oito", 8), ("nove", 9), ("dez", 10), ("onze", 11), ("doze", 12), ("treze", 13),
                  ("catorze", 14), ("quatorze", 14), ("quinze", 15), ("dezesseis", 16), ("dezasseis", 16),
                  ("dezessete", 17), ("dezassete", 17), ("dezoito", 18), ("dezenove", 19), ("dezanove", 19),
                  ("vinte", 20), ("trinta", 30), ("quarenta", 40), ("cinquenta", 50), ("cinqüenta", 50),
                  ("sessenta", 60), ("setenta", 70), ("oitenta", 80), ("noventa", 90), ("cem", 100),
                  ("dobro", 2), ("triplo", 3)),
    foreign_quotes='"«»',
    spelling_variant="pt-BR",
    cue_words=(("rule", "regra"), ("rules", "regras"), ("see", "consulte"), ("section", "seção"), ("and", "e"),
               ("or", "ou"), ("through", "a")),
    see_rule="consulte a regra {rule}",
    serial_comma=False,
    negations=("não", "nem", "nunca", "jamais", "nenhum", "nenhuma", "nenhuns", "nenhumas", "nada", "ninguém", "sem"),
    negation_phrases=("a menos que", "a não ser que", "a não ser", "salvo se", "exceto se", "exceto quando",
                      "independentemente", "não importa"),
    negation_prefixes=("in", "im", "ir", "des"),
    not_counts=("dois pontos",),
    colloquial=(("pra", "para"), ("pras", "para as"), ("pro", "para o"), ("pros", "para os"), ("tá", "está"),
                ("né", "não é"), ("cê", "você"), ("vc", "você"), ("pq", "porque")),
    lowercase_words=("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
                     "outubro", "novembro", "dezembro", "domingo", "segunda-feira", "terça-feira", "quarta-feira",
                     "quinta-feira", "sexta-feira", "sábado", "inglês", "português", "espanhol", "francês", "alemão",
                     "italiano", "japonês", "chinês", "coreano", "russo"),
    stopwords=frozenset("o a os as de do da dos das e em um uma que não se para com por no na ao seu sua é são".split()),
    letters="ãõçê",
    hunspell_dictionaries=("pt_BR", "pt_PT"), hunspell_package="hunspell-pt-br",
    free_words=tuple("este esta estes estas esse essa esses essas isto isso aquele aquela aquilo num numa nuns numas "
                     "dum duma após depois antes ao aos à às pelo pela pelos pelas então ele ela eles elas tem têm".split()),
    plural_rules=(("ão", "ões"), ("l", "is")),
    gender_endings=("o", "a"), gender_forms=("a", "as", "o", "os"),
))

ES = register(Profile(
    lang="es", name="Español", stemmer="spanish",
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
    number_words=(("cero", 0), ("dos", 2), ("tres", 3), ("cuatro", 4), ("cinco", 5), ("seis", 6), ("siete", 7),
                  ("ocho", 8), ("nueve", 9), ("diez", 10), ("once", 11), ("doce", 12), ("trece", 13), ("catorce", 14),
                  ("quince", 15), ("dieciséis", 16), ("diecisiete", 17), ("dieciocho", 18), ("diecinueve", 19),
                  ("veinte", 20), ("treinta", 30), ("cuarenta", 40), ("cincuenta", 50), ("sesenta", 60),
                  ("setenta", 70), ("ochenta", 80), ("noventa", 90), ("cien", 100), ("doble", 2), ("triple", 3)),
    quotes=("«", "»"),
    foreign_quotes='"',
    inverted_marks=True,
    cue_words=(("rule", "regla"), ("rules", "reglas"), ("see", "véase"), ("section", "sección"), ("and", "y"),
               ("or", "o"), ("through", "a")),
    see_rule="véase la regla {rule}",
    serial_comma=False,
    negations=("no", "ni", "nunca", "jamás", "ningún", "ninguno", "ninguna", "ningunos", "ningunas", "nada", "nadie",
               "sin"),
    negation_phrases=("a menos que", "a no ser que", "salvo que", "excepto si", "independientemente", "no importa"),
    negation_prefixes=("in", "im", "ir", "des"),
    not_counts=("dos puntos",),
    lowercase_words=("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
                     "octubre", "noviembre", "diciembre", "lunes", "martes", "miércoles", "jueves", "viernes",
                     "sábado", "domingo", "inglés", "español", "portugués", "francés", "alemán", "italiano",
                     "japonés", "chino", "coreano", "ruso"),
    stopwords=frozenset("el la los las de del y en un una que no se para con por al su es son lo como".split()),
    letters="ñ¿¡",
    hunspell_dictionaries=("es_ES", "es_MX", "es_AR", "es_US"), hunspell_package="hunspell-es",
    free_words=tuple("este esta estos estas ese esa esos esas esto eso aquel aquella al del tras después entonces "
                     "él ella ellos ellas".split()),
    plural_rules=(("z", "ces"),),
    gender_endings=("o", "a"), gender_forms=("a", "as", "o", "os"),
))

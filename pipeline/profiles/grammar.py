"""Grammar rule sets per language: where LibreOffice's Lightproof rules for it are installed,
and which of their families the translator checks report.

The families are the rule file's own groups (:func:`pipeline.align.lightproof.family_of`):
the option that turns a rule on (``verbo``, ``grammar``…, labelled in the extension's options
dialog), else the rule's message.  Each family was judged on the real pt-BR PO of the
2020-11-20 CR (1,637 translated units): ``findings`` is how many it reported there, ``right`` how
many of a judged sample were real defects (against the English), ``judged`` the sample size.
Those figures are *fitted* (judged by hand on the data the keep list was chosen on), not a
held-out measurement.  Only families with a precision of at least 0.8 are kept; the rest stay
listed, with the reason, so the decision can be revisited.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..io import cache_root


@dataclass(frozen=True)
class Family:
    check: str  # the check id a finding of this family is reported under
    label: str  # what is wrong, in English
    kept: bool
    findings: int  # on the pt-BR PO (fitted)
    judged: int
    right: int
    note: str = ""


@dataclass(frozen=True)
class GrammarProfile:
    lang: str
    pkg: str  # the Lightproof package name: lightproof_<pkg>.py
    package: str  # the Debian package that ships it
    #: Installed extension folders, first found wins; ``CRPIPE_LIGHTPROOF_DIR`` comes first.
    folders: tuple[str, ...]
    families: dict[str, Family] = field(default_factory=dict)
    #: The rule set the families were judged on (another version may name them differently).
    judged_on: str = ""
    #: Agreement findings on these words are dropped (the game's own usage, not an error).
    domain_words: tuple[str, ...] = ()
    #: Rules of the profile's own, in Lightproof's format (family, [regex, replacement, message,
    #: condition]), for defects of rule texts the rule file has no rule for.
    extra: tuple = ()

    def extra_rules(self) -> tuple:
        return tuple((fam, tuple(rule)) for fam, rule in self.extra)

    def search_folders(self) -> list[Path]:
        env = os.environ.get("CRPIPE_LIGHTPROOF_DIR")
        # `.ci/run` (and anyone without LibreOffice) unpacks the .deb into the cache: the
        # package's own files, without the ~120 MB of libreoffice-core it depends on.
        unpacked = cache_root() / "lightproof" / "root" / "usr/lib/libreoffice/share/extensions" / f"lightproof_{self.pkg.lower()}"
        return [Path(p) for p in ((env,) if env else ()) + self.folders] + [unpacked]

    def kept(self) -> dict[str, Family]:
        return {k: f for k, f in self.families.items() if f.kept}


AGREEMENT = "grammar.agreement"
VERB = "grammar.verb"
CRASE = "grammar.crase"
WORD = "grammar.word"
STYLE = "grammar.style"
TYPOGRAPHY = "grammar.typography"


_AGREE = "msg:Não há concordância entre as palavras."
_DET = Family(AGREEMENT, "a determiner, article or numeral does not agree with its noun in gender or number",
              True, 55, 13, 11,
              "blocks P/C (and the D, Q, T, - blocks of the same message: determiner + noun, no findings on "
              "the PO); 42 findings on \"mana\" not counted (domain_words); wrong: \"uma excessão\" x2 (a "
              "misspelling read as a masculine -ão word)")
_VERBAL = Family(VERB, "the verb does not agree with its subject", True, 2, 1, 1,
                 "one finding (\"Algumas variantes tem\" -> têm) reported by an M and a V rule: weak evidence")
_INSTEAD = Family(WORD, "\"ao invés de\" means \"contrary to\"; \"instead of\" is \"em vez de\"", True, 6, 6, 6,
                  "the English says \"instead of\" in all 6; two messages fire on the same words")
_SPACE = Family(TYPOGRAPHY, "a space on the wrong side of a punctuation mark", True, 1, 1, 1, "\"( \" and \" ,\"")

#: Every family that reported something on the pt-BR PO, with the judgement (fitted), and the
#: families kept without findings there (same rules as a kept family).
def _plural_rule_words() -> str:
    from . import PT as _PT  # the language profile's words for rule and section

    plurals = sorted({w for w in _PT.rule_words + _PT.section_words if w.endswith("s")}, key=lambda w: (-len(w), w))
    return "|".join(re.escape(w) for w in plurals)


#: "consulte a regras 117.8 e 117.9" (seed 000, 601.2b): Lightproof leaves "a" + plural alone
#: because "a" is also the preposition ("aplica-se a regras"), but before rule numbers the CR
#: always writes the article: "as regras 117.8 e 117.9" (or "às", after a verb taking "a").
ARTICLE_BEFORE_RULE_NUMBERS = "profile:article-before-rule-numbers"
_PT_EXTRA = (
    (ARTICLE_BEFORE_RULE_NUMBERS,
     [rf"(?u)(?<![-\w–.,\xad])([Aa]) ({_plural_rule_words()})(?= \d)", "\\1s \\2\\nàs \\2",
      "Artigo no singular antes de um plural. Você quis dizer:", None]),
)

#: Rules of the profile for what the rule file has no rule for, each a rule of Portuguese
#: grammar (Bechara; the Acordo Ortográfico), written in Lightproof's format.
#: "mesmo se" takes the future or imperfect subjunctive, never the present ("mesmo se ... tenha").
SUBJUNCTIVE_AFTER_MESMO_SE = "profile:mesmo-se-present-subjunctive"
_PRESENT_SUBJ = ("seja|sejam|esteja|estejam|tenha|tenham|possa|possam|haja|faça|façam|vá|vão|dê|deem|saiba|"
                 "saibam|queira|queiram|venha|venham|diga|digam|ponha|ponham|traga|tragam|veja|vejam|cause|causem|"
                 "controle|controlem|entre|entrem|deixe|deixem|fique|fiquem|perca|percam|receba|recebam")
#: "embora" takes the subjunctive: "embora ... é" is wrong ("embora ... seja").
INDICATIVE_AFTER_EMBORA = "profile:embora-indicative"
_PRESENT_IND = "é|são|está|estão|tem|têm|pode|podem|há|possui|possuem|fica|ficam"
#: "ambos" takes the article before its noun: "ambos os objetos".
AMBOS_WITHOUT_ARTICLE = "profile:ambos-without-article"
#: No crase before a masculine word, an indefinite or a pronoun: "à qualquer", "à um", "à cada".
CRASE_BEFORE_MASCULINE = "profile:crase-before-masculine"
#: Adverbial phrases of a feminine noun take the crase: "à mostra", "à medida que".
CRASE_IN_PHRASE = "profile:crase-in-phrase"
_PT_EXTRA += (
    (SUBJUNCTIVE_AFTER_MESMO_SE,
     [rf"(?ui)\b(mesmo se)\b((?: [^\W\d_][\w-]*| [\d/+-]+){{0,8}}?) ({_PRESENT_SUBJ})\b", "mesmo que\\2 \\3",
      "“Mesmo se” pede o futuro ou o imperfeito do subjuntivo (“mesmo se tiver”); com o presente, “mesmo que”:", None]),
    (INDICATIVE_AFTER_EMBORA,
     [rf"(?ui)\b(embora)\b((?: [^\W\d_][\w-]*| [\d/+-]+){{0,8}}?) ({_PRESENT_IND})\b", "",
      "“Embora” pede o subjuntivo (“embora seja”, “embora tenha”).", None]),
    (AMBOS_WITHOUT_ARTICLE,
     [r"(?u)(?<!são )(?<!serão )(?<!seriam )(?<!eram )(?<!estão )(?<!foram )(?<!sejam )(?<!forem )(?<!ficam )"
      r"\b([Aa]mb)(os|as) (?!os\b|as\b|eles\b|elas\b)([a-zà-ú]{3,}s)\b", "\\1\\2 \\2 \\3",
      "“Ambos” pede o artigo antes do substantivo:", None]),
    (CRASE_BEFORE_MASCULINE,
     [r"(?u)\b([àÀ]) (qualquer|quaisquer|um|cada|todo|todos|nenhum|ninguém|você|ele|eles|este|estes|esse|esses|"
      r"aquele|aqueles|isso|isto|aquilo|partir)\b", "a \\2",
      "Não há crase antes de palavra masculina, de pronome ou de indefinido:", None]),
    (CRASE_IN_PHRASE,
     [r"(?u)\b([Aa]) (mostra|medida que|tona|revelia)\b", "à \\2",
      "Locução adverbial com crase:", None]),
)

#: An infinitive of -ar/-er before -lo, -la takes its accent: "revelá-lo", "mantê-la".
CLITIC_ACCENT = "profile:infinitive-clitic-accent"
#: "cada vez que" / "sempre que" take the subjunctive, not the conditional ("cada vez que receberia").
CONDITIONAL_AFTER_WHENEVER = "profile:conditional-after-whenever"
#: The CR's cross-references take the article: "consulte a regra 103.4", never "consulte regra".
SEE_RULE_WITHOUT_ARTICLE = "profile:see-rule-without-article"
#: "todos"/"todas" before a plural noun takes the article: "todos os oponentes".
ALL_WITHOUT_ARTICLE = "profile:todos-without-article"
#: "fazer com que" (to cause): "faz com o controlador" lost its "que".
FAZ_COM_WITHOUT_QUE = "profile:faz-com-without-que"
#: The plural of "tem"/"vem" takes the circumflex: "eles têm", "elas vêm".
TEM_PLURAL_ACCENT = "profile:tem-plural-accent"
#: A sentence-initial "Por exemplo" is set off by a comma.
POR_EXEMPLO_COMMA = "profile:por-exemplo-comma"
#: An article never stands before the clitic "se": "anuncia o se tem intenção" lost a word or
#: kept a stray one.
ARTICLE_BEFORE_SE = "profile:article-before-se"
#: "caso" (the conjunction) takes the subjunctive: "caso ... é" is wrong ("caso ... seja").
INDICATIVE_AFTER_CASO = "profile:caso-indicative"
_PT_EXTRA += (
    (CLITIC_ACCENT,
     [r"(?u)\b([a-zà-ú]{3,})([ae])-(l[oa]s?)\b", '=m.group(1) + {"a": "á", "e": "ê"}[m.group(2)] + "-" + m.group(3)',
      "O infinitivo antes de -lo, -la leva acento:", 'spell(LOCALE, m.group(1) + m.group(2) + "r")']),
    (CONDITIONAL_AFTER_WHENEVER,
     [r"(?ui)\b(cada vez que|sempre que)\b((?: [^\W\d_][\w-]*){0,6}?) ([a-zà-ú]{3,}(?:ria|riam))\b", "",
      "“Cada vez que” e “sempre que” pedem o subjuntivo (“cada vez que um jogador fosse receber”), não o "
      "futuro do pretérito.", 'spell(LOCALE, m.group(3))']),
    (INDICATIVE_AFTER_CASO,
     [r"(?u)(?<!\bno )(?<!\bnesse )(?<!\bneste )(?<!\bdesse )(?<!\bdeste )(?<!\bum )(?<!\bo )(?<!\bcada )"
      r"(?<!\bqualquer )(?<!\bem )(?<!\bdo )(?<!\bnum )(?<!\bseu )\b([Cc]aso) (?!contrário\b|de\b|seja\b|sejam\b)"
      r"((?:[^\W\d_][\w-]* ){0,8}?)(é|está|tem|pode|há|são|estão|têm|podem|possui|possuem)\b", "",
      "“Caso” pede o subjuntivo (“caso seja”, “caso tenha”).", None]),
    (SEE_RULE_WITHOUT_ARTICLE,
     [r"(?u)\b([Cc]onsulte|[Vv]eja) (regras?|seção|seções) (?=\d)", "\\1 a \\2",
      "A remissão leva o artigo (“consulte a regra 103.4”):", None]),
    (ALL_WITHOUT_ARTICLE,
     [r"(?u)\b([Tt]od)(os|as) (?!os\b|as\b|eles\b|elas\b|nós\b|vocês\b|que\b|estes\b|esses\b|aqueles\b|estas\b|"
      r"essas\b|aquelas\b|seus\b|suas\b|meus\b|minhas\b|nossos\b|nossas\b|menos\b|juntos\b|juntas\b)([a-zà-ú]{3,}s)\b",
      "\\1\\2 \\2 \\3", "“Todos” pede o artigo antes do substantivo:", None]),
    (FAZ_COM_WITHOUT_QUE,
     [r"(?u)\b(faz|fazem|fará|fazendo|fizer|faça|façam) com (o|a|os|as|um|uma)\b", "\\1 com que \\2",
      "“Fazer com que”: falta o “que”:", None]),
    (TEM_PLURAL_ACCENT,
     [r"(?u)\b([Ee]les|[Ee]las) (tem|vem)\b", '=m.group(1) + " " + {"tem": "têm", "vem": "vêm"}[m.group(2)]',
      "No plural, “têm” e “vêm” levam acento circunflexo:", None]),
    (POR_EXEMPLO_COMMA,
     [r"(?u)(?:^|(?<=[.:!?] ))(Por exemplo) (?=[a-zà-ú])", "\\1, ", "“Por exemplo” no início da frase pede vírgula:",
      None]),
    (ARTICLE_BEFORE_SE,
     [r"(?u)(?<![-\w])([Oo]s?) (se) ([a-zà-ú]{2,})\b", "\\2 \\3\nque \\2 \\3",
      "Artigo antes do pronome “se”: sobra o artigo, ou falta uma palavra:", None]),
)

_PT_FAMILIES: dict[str, Family] = {
    SEE_RULE_WITHOUT_ARTICLE: Family(AGREEMENT, "a cross-reference without its article (\"consulte regra\")", True, 0, 0, 0,
                                     "the profile's rule; figures in the README (issue 24)"),
    ALL_WITHOUT_ARTICLE: Family(AGREEMENT, "\"todos\" without the article before its noun", True, 0, 0, 0,
                                  "the profile's rule; figures in the README (issue 24)"),
    FAZ_COM_WITHOUT_QUE: Family(VERB, "\"fazer com\" without \"que\"", True, 0, 0, 0,
                                "the profile's rule; figures in the README (issue 24)"),
    TEM_PLURAL_ACCENT: Family(VERB, "\"eles tem\" without the circumflex", True, 0, 0, 0,
                              "the profile's rule; figures in the README (issue 24)"),
    POR_EXEMPLO_COMMA: Family(TYPOGRAPHY, "\"Por exemplo\" without its comma", True, 0, 0, 0,
                              "the profile's rule; figures in the README (issue 24)"),
    ARTICLE_BEFORE_SE: Family(WORD, "an article before the clitic \"se\"", True, 0, 0, 0,
                              "the profile's rule (seed 000); figures in the README (issue 24)"),
    CLITIC_ACCENT: Family(WORD, "an infinitive before -lo/-la without its accent", True, 0, 0, 0,
                          "the profile's rule; figures in the README (issue 24)"),
    CONDITIONAL_AFTER_WHENEVER: Family(VERB, "\"cada vez que\"/\"sempre que\" with the conditional", True, 0, 0, 0,
                                       "the profile's rule; figures in the README (issue 24)"),
    INDICATIVE_AFTER_CASO: Family(VERB, "\"caso\" with the indicative", True, 0, 0, 0,
                                  "the profile's rule; figures in the README (issue 24)"),
    SUBJUNCTIVE_AFTER_MESMO_SE: Family(VERB, "\"mesmo se\" with the present subjunctive", True, 0, 0, 0,
                                       "the profile's rule; figures in the README (issue 24)"),
    INDICATIVE_AFTER_EMBORA: Family(VERB, "\"embora\" with the indicative", True, 0, 0, 0,
                                    "the profile's rule; figures in the README (issue 24)"),
    AMBOS_WITHOUT_ARTICLE: Family(AGREEMENT, "\"ambos\" without the article before its noun", True, 0, 0, 0,
                                  "the profile's rule; figures in the README (issue 24)"),
    CRASE_BEFORE_MASCULINE: Family(CRASE, "crase before a masculine word, pronoun or indefinite", True, 0, 0, 0,
                                   "the profile's rule; figures in the README (issue 24)"),
    CRASE_IN_PHRASE: Family(CRASE, "an adverbial phrase without its crase", True, 0, 0, 0,
                            "the profile's rule; figures in the README (issue 24)"),
    ARTICLE_BEFORE_RULE_NUMBERS: Family(AGREEMENT, "a singular article before plural rule or section numbers",
                                        True, 0, 0, 0, "the profile's rule, not Lightproof's: no findings on the PO; "
                                        "seed 000's 601.2b \"consulte a regras 117.8 e 117.9\""),
    **{f"{_AGREE}/{b}": _DET for b in ("P", "C", "D", "Q", "T", "-")},
    "msg:Não há concordância verbal./M": _VERBAL,
    "msg:Não há concordância verbal./V": _VERBAL,
    "msg:Você quis dizer:/M": Family(AGREEMENT, "the participle does not agree with the verb \"ser\"", True, 1, 1, 1,
                                     "\"é desencadeadas\"; one finding: weak evidence"),
    'msg:Invés = contrário. Ex.: "Novo ao invés de velho". "Em vez de" significa "no lugar de"./-': _INSTEAD,
    'msg:"Ao invés de" significa "ao contrário de". "Em vez de" quer dizer "no lugar de"./-': _INSTEAD,
    "grammar": Family(CRASE, "crase (à) where there should be none, or missing", True, 5, 5, 4,
                      "wrong: \"igual a sua\" (crase before a possessive is optional)"),
    'msg:= "Intervalo extra depois " + punct[m.group(1)] + "?"/-': _SPACE,
    'msg:= "Intervalo extra antes " + punct[m.group(1)] + "?"/-': _SPACE,
    # Dropped: below 0.8 on the PO.
    f"{_AGREE}/M": Family(AGREEMENT, "a noun and its adjective or participle do not agree", False, 18, 18, 1,
                          "the adjective agrees with a noun further back (\"Símbolos de lealdade positivos\", "
                          "\"campo de batalha desviradas\"), keyword names (\"habilidade companheiro\"), mana x8"),
    "msg:Não há concordância entre os termos./P": Family(AGREEMENT, "a number does not agree with its noun", False,
                                                       7, 7, 1, "\"0 pontos\" x6 is right (zero takes the plural)"),
    "pronominal": Family(STYLE, "pronoun placement", False, 18, 18, 2,
                         "enclisis after a demonstrative subject (\"Esta regra aplica-se\") is correct; right: "
                         "\"se referir-se\""),
    "verbo": Family(VERB, "verb form or agreement", False, 3, 3, 2,
                    "wrong: \"aguardam para serem colocadas\" (the personal infinitive is correct)"),
    "paronimo": Family(WORD, "a paronym or a missing accent", False, 4, 4, 2,
                       "\"especifica\" is the verb in both wrong ones"),
    "metric": Family(STYLE, "pleonasm", False, 2, 2, 0, "\"as duas metades\" (English: both halves)"),
    'msg:Após negativas usa-se "nenhum" em vez de "qualquer"./P': Family(
        STYLE, "\"qualquer\" after a negative", False, 3, 3, 0, "a style preference, not an error"),
    "msg:Melhor se substituir por:/I": Family(STYLE, "a compound future (\"irá colocar\")", False, 2, 2, 0, "style"),
    "msg:Faltou pausar a frase./-": Family(STYLE, "missing commas", False, 1, 1, 0, "\"com pelo menos um\""),
    "ndash": Family(TYPOGRAPHY, "hyphen for a dash", False, 27, 27, 13,
                    "right: \" - \" for the type line's dash; wrong: the minus of -1/-1 (14)"),
    "msg:Falta espaço?/A": Family(TYPOGRAPHY, "missing space", False, 8, 8, 0, "symbol codes {ts:land}"),
    "msg:Espaço extra antes do ponto final?/-": Family(TYPOGRAPHY, "space before a full stop", False, 2, 2, 0,
                                                       "\", ...\" as in the English"),
    "ellipsis": Family(TYPOGRAPHY, "three dots for an ellipsis", False, 3, 3, 0, "the English writes ... too"),
    "cap": Family(TYPOGRAPHY, "lower-case sentence start", False, 2, 2, 0,
                  "one stray \"a\" before \"Um efeito\" (a real defect, wrongly diagnosed), two rules"),
    "pair": Family(TYPOGRAPHY, "unbalanced parenthesis", False, 1, 0, 0, "overlaps damage.brackets; not judged"),
    "quotation": Family(TYPOGRAPHY, "straight quotes", False, 416, 0, 0,
                        "the locale's quote style is damage.quote-style's finding already; not judged"),
    "apostrophe": Family(TYPOGRAPHY, "straight quotes", False, 212, 0, 0, "as quotation"),
}


PROFILES: dict[str, GrammarProfile] = {}


def register(p: GrammarProfile) -> GrammarProfile:
    PROFILES[p.lang] = p
    return p


PT = register(GrammarProfile(
    lang="pt", pkg="pt_BR", package="libreoffice-lightproof-pt-br",
    judged_on="libreoffice-lightproof-pt-br 1:7.5.0-1 (Lightproof pt_BR 0.4.3, Debian 12)",
    folders=("/usr/lib/libreoffice/share/extensions/lightproof_pt_br",
             "/usr/share/libreoffice/share/extensions/lightproof_pt_br",
             "/opt/libreoffice/share/extensions/lightproof_pt_br"),
    # Words whose gender the game fixes against the general dictionary: Magic's Portuguese says
    # "um mana", "mana branco" ("Adicione um mana de qualquer cor"), while Lightproof's lists
    # have "mana" feminine: 41 of the 53 determiner-agreement findings on the PO were these.
    domain_words=("mana", "manas"),
    families=_PT_FAMILIES,
    extra=_PT_EXTRA,
))


# --- Mood, regência and garbled constructions (issue 24; helper "mood") --------------------
# Read by pipeline.align.checks.syntax.  Each entry is a rule of Portuguese grammar a Brazilian
# reviewer would cite (Bechara, Moderna Gramática Portuguesa; Celso Pedro Luft, Dicionário
# Prático de Regência Verbal), never a quote of one translation's sentence.  Verb forms are
# recognised with Hunspell (a conditional is a word ending in -ria/-riam whose stem is an
# infinitive the dictionary knows), so the lists below hold only what Hunspell cannot tell.


@dataclass(frozen=True)
class MoodFacts:
    """What the mood checks need of a language."""

    #: Endings of the conditional (futuro do pretérito), 3rd person: "adicionaria", "mudariam";
    #: the stem left is the infinitive (adicionar, mudar).
    conditional_endings: tuple[str, ...] = ()
    #: Irregular conditionals: stem -> infinitive ("faria" -> fazer).
    irregular_conditional: dict = field(default_factory=dict)
    #: Infinitive endings (a stem is an infinitive when it ends so and Hunspell knows it).
    infinitive_endings: tuple[str, ...] = ()
    #: The conditional "if" (se): Portuguese puts the subjunctive in the "se" clause, never the
    #: conditional ("Se um efeito adicionaria mana" → "Se um efeito fosse adicionar mana").
    if_word: str = ""
    #: Words before "se" that make it the conjunction (else "se" at a sentence start or after a
    #: comma); "como se" (as if) takes the imperfect subjunctive too.
    if_openers: tuple[str, ...] = ()
    #: Conjunctions that always take the subjunctive (Bechara §: conjunções subordinativas
    #: concessivas, condicionais, finais, temporais de anterioridade): never a conditional nor
    #: an indicative after them.  "caso" and "embora" are the grammar profile's own rules above.
    #: "mesmo se" (even if) takes the future or imperfect subjunctive ("mesmo se for", "mesmo se
    #: pudesse"), as the translation itself writes it almost everywhere.
    subjunctive_conjunctions: tuple[str, ...] = ()
    #: Words before a conjunction that make it something else: "o mesmo que" is the comparative
    #: ("tem o mesmo valor que a carta tem"), not "even if".
    not_after: dict = field(default_factory=dict)
    #: Temporal conjunctions: the indicative or the subjunctive after them, never the conditional
    #: ("quando a habilidade desencadearia" → "quando a habilidade fosse desencadear"). "sempre
    #: que"/"cada vez que" are the grammar profile's own rule above (CONDITIONAL_AFTER_WHENEVER).
    no_conditional_conjunctions: tuple[str, ...] = ()
    #: Present indicative forms that cannot be a subjunctive (the common verbs of the CR).
    present_indicative: tuple[str, ...] = ()
    #: Words that end the clause the mood is read in (a relative or another conjunction starts a
    #: clause of its own: "Se um efeito que seria criado afeta…").
    clause_breakers: tuple[str, ...] = ()
    #: The English evidence of a hypothetical: "If a player would…".
    english_if: str = ""
    english_would: str = ""
    #: "fosse"/"fossem" + infinitive, the form the translation uses for "if … would".
    subjunctive_aux: tuple[str, str] = ("", "")
    #: Present subjunctive forms "se" (if, whether) never takes: it takes the future or the
    #: imperfect subjunctive ("se nenhuma habilidade tiver sido ativada", not "tenha sido").
    present_subjunctive: tuple[str, ...] = ()
    #: Present subjunctive forms that need "que" after "para" ("para tenham" → "para que tenham").
    subjunctive_after_para: tuple[str, ...] = ()
    final_preposition: str = ""
    #: Subject pronouns that cannot be a verb's object in the written standard ("coloca ela" →
    #: "a coloca", "colocá-la"); words after the pronoun that show it is not a subject.
    subject_pronouns: tuple[str, ...] = ()
    after_object: tuple[str, ...] = ()
    #: The gerund's ending ("bloqueando ela" is an object too; round 5, helper "r5gram").
    gerund_ending: str = ""
    #: Auxiliaries whose gerund opens a clause with its own subject ("tendo ela sido").
    auxiliaries: tuple[str, ...] = ()
    #: Linking verbs: the pronoun after them is a predicate ("pode ser ele"), not an object.
    linking_verbs: tuple[str, ...] = ()
    #: The opener after which "se" + a verb right away is still "if" ("como se existisse").
    as_if_opener: str = ""
    #: Modal verbs: their "if" form is not "fosse" + infinitive ("poderia" → "puder"), so no fix is offered.
    modal_verbs: tuple[str, ...] = ()


PT_MOOD = MoodFacts(
    conditional_endings=("riam", "ria"),
    irregular_conditional={"fa": "fazer", "tra": "trazer", "di": "dizer"},
    infinitive_endings=("ar", "er", "ir"),
    if_word="se",
    if_openers=("como", "e", "ou", "mas", "só", "somente", "apenas", "mesmo", "exceto"),
    subjunctive_conjunctions=("antes que", "a menos que", "a não ser que", "para que", "sem que", "mesmo que",
                              "a fim de que", "contanto que", "ainda que", "nem que", "mesmo se"),
    not_after={c: ("o", "a", "os", "as", "do", "da", "dos", "das", "no", "na", "nos", "nas", "ao", "à", "aos", "às",
                   "pelo", "pela", "um", "uma") for c in ("mesmo que", "mesmo se")},
    no_conditional_conjunctions=("quando", "enquanto", "assim que", "logo que", "depois que", "até que",
                                 "toda vez que", "próxima vez que"),
    present_indicative=("é", "são", "está", "estão", "tem", "têm", "pode", "podem", "há", "possui", "possuem",
                        "fica", "ficam", "vai", "vão", "faz", "fazem", "controla", "controlam"),
    clause_breakers=("que", "quem", "qual", "quais", "cujo", "cuja", "cujos", "cujas", "onde", "quando", "então",
                     "enquanto", "porque", "pois", "se", "mas"),
    english_if=r"\b(?:if|as though|as if|unless|before|until|even if|in case)\b",
    english_would=r"\b(?:would|could|might|should)\b|\bwouldn[’']t\b|\bcouldn[’']t\b",
    subjunctive_aux=("fosse", "fossem"),
    present_subjunctive=("seja", "sejam", "tenha", "tenham", "possa", "possam", "esteja", "estejam", "haja",
                         "faça", "façam", "saiba", "saibam", "queira", "queiram"),
    subjunctive_after_para=("seja", "sejam", "tenha", "tenham", "possa", "possam", "esteja", "estejam", "haja",
                            "faça", "façam", "venha", "venham", "fique", "fiquem"),
    final_preposition="para",
    subject_pronouns=("ele", "ela", "eles", "elas"),
    after_object=("no", "na", "nos", "nas", "em", "como", "mesmo", "mesma", "mesmos", "mesmas", "ao", "à", "aos",
                  "às", "de", "do", "da", "dos", "das", "para", "sob", "sobre"),
    linking_verbs=("ser", "estar", "ficar", "parecer", "permanecer", "continuar", "tornar"),
    gerund_ending="ndo",
    auxiliaries=("ter", "haver", "ir", "vir"),
    as_if_opener="como",
    modal_verbs=("poder", "dever"),
)


@dataclass(frozen=True)
class PatternRule:
    """One construction rule: ``pattern`` over the translation (the span: group ``bad``, else the
    whole match), ``fix`` a replacement of that span (``\\g<n>`` allowed; "" when none is sure),
    ``english`` a pattern the English must match (the evidence that the construction is the
    one the rule is about), ``check`` which check reports it."""

    check: str
    pattern: str
    message: str
    fix: str = ""
    english: str = ""


#: The checks of pipeline.align.checks.syntax (their ids).
REGENCIA = "grammar.regencia"
GARBLED = "grammar.garbled"
MOOD = "grammar.mood"
#: The conditional in a temporal clause ("na próxima vez que um jogador receberia"): reported apart,
#: as info, because the reviewers of the recall draws listed the "se" and "cada vez que" cases but
#: none of the three temporal ones in their units (the translation's own 121.4 writes "fosse receber").
MOOD_TEMPORAL = "grammar.mood-temporal"
OBJECT_PRONOUN = "grammar.object-pronoun"

PT_PATTERNS = (
    # Regência (Luft): "permitir a alguém fazer algo": the person is the indirect object.
    PatternRule(REGENCIA, r"(?i)\bpermit\w* (?P<bad>(?P<art>o|os) (?P<noun>[a-zà-ú]+))(?= [a-zà-ú]+(?:ar|er|ir)\b)",
                "“permitir” takes “a” before the person allowed (“permite ao jogador exilar”)", "a\\g<art> \\g<noun>"),
    # "instruir alguém a fazer algo", not "instruir alguém que faça".
    PatternRule(REGENCIA, r"(?i)\binstru\w+ (?:o|a|os|as|um|uma|seu|sua|cada) [a-zà-ú]+ (?P<bad>que) [a-zà-ú]+",
                "“instruir alguém” takes “a” + infinitive (“instrui o jogador a revelar”), not “que”"),
    # A reduction or an increase by an amount: "reduzido em 2", "aumentado em {1}"; "por" is the agent.
    PatternRule(REGENCIA, r"(?i)\b(?:reduzid|aumentad|diminuíd)[oa]s? (?P<bad>por)(?= (?:(?:uma|essa|esta|aquela|a) )?"
                r"(?:quantidade|\d|\{|X\b))", "a change by an amount takes “em” (“reduzido em {1}”, “reduzido em "
                "uma quantidade”); “por” names who reduces", "em", r"(?i)\b(?:reduced|increased|decreased) by\b"),
    # "anexar a": a relative clause keeps the preposition before "que" ("a criatura a que a Aura está
    # anexada"; "que … está anexada" leaves "anexada" without its complement).
    PatternRule(REGENCIA, r"(?i)(?<!\ba )(?<!\bà )(?<!\bao )(?<!\bem )\b(?P<bad>que) (?:(?!que\b)[^\W\d_][\w-]* ){1,5}"
                r"(?:está|estão|esteja|estejam|estava|estavam|estiver|estiverem|fica|ficar|for|é) anexad[oa]s?\b"
                r"(?! (?:a|à|ao|aos|às|em|nele|nela)\b)",
                "“anexado a”: the relative needs the preposition (“a que … está anexada”)", "a que",
                r"(?i)\battached to\b"),
    # "anexar algo a algo" (Houaiss): "anexar uma fortificação em um terreno" → "a um terreno".
    PatternRule(REGENCIA, r"(?i)\banex(?:ar|a|am|ando|e|em|ou|ado|ada|ados|adas)\b (?:(?:o|a|os|as|um|uma|esse|essa|aquele|"
                r"aquela|seu|sua) [a-zà-ú]{3,} )?(?P<bad>em) (?=(?:um|uma|outro|outra|outros|outras)\b)", "“anexar” takes “a” (“anexar uma Fortificação a um terreno”)", "a",
                r"(?i)\battach\w*\b.*\bto\b"),
    # Crase before a quoted feminine name after a word that governs "a" ("sujeitos à “regra de
    # Lendas”"): Lightproof's crase rules do not read through the opening quote.
    PatternRule(REGENCIA, r"(?i)\b(?:sujeit[oa]s?|devido|iguais|igual|referentes?|relativ[oa]s?|graças|anteriore?s?|"
                r"posteriore?s?|semelhantes?|equivalentes?) (?P<bad>a) (?=[“\"][a-zà-ú]+(?:a|ade|ção)\b)",
                "crase: the preposition “a” the word governs and the article of the feminine noun (“sujeito à "
                "“regra de Lendas””)", "à"),
    # Idioms: "in part" is "em parte"; "regardless of" is "independentemente de".
    PatternRule(REGENCIA, r"(?i)\bem (?P<bad>partes)\b", "“in part” is “em parte” (singular)", "parte",
                r"(?i)\bin part\b"),
    PatternRule(REGENCIA, r"(?i)\b(?P<bad>indiferente) (?=d[oae]s?\b)", "“regardless of” is “independentemente de” "
                "(“indiferente a” means “not caring about”)", "independentemente", r"(?i)\bregardless\b"),
    # A subject, then an infinitive with an enclitic where the clause needs its finite verb
    # ("enquanto o efeito permiti-lo" → "enquanto o efeito o permitir"; "a não ser que algum
    # efeito torná-la" → "a não ser que algum efeito a torne"): the infinitive has no subject.
    PatternRule(MOOD, r"(?i)\b(?:se|que|caso|quando|enquanto)\b (?:(?:o|a|os|as|um|uma|algum|alguma|esse|essa|este|esta|"
                r"aquele|aquela|nenhum|nenhuma|seu|sua|tal|cada|outro|outra) [a-zà-ú]{3,}|ele|ela|eles|elas) "
                r"(?P<bad>[a-zà-ú]+[áêíô]-l[oa]s?)\b",
                "an infinitive with an enclitic after its own subject: the clause needs a finite verb, in the "
                "subjunctive after a conjunction (“enquanto o efeito o permitir”)", ""),
    # Garbled constructions: a determiner after "qualquer" ("qualquer o alvo").
    PatternRule(GARBLED, r"(?i)\bqualquer (?P<bad>(?:o|a|os|as))\b(?= [a-zà-ú])",
                "“qualquer” takes no article after it: a stray word (“qualquer alvo”)", ""),
    # A demonstrative and an indefinite article together ("aquela uma quantidade").
    PatternRule(GARBLED, r"(?i)\b(?P<bad>(?:aquel|ess|est)(?:e|a|es|as) (?:um|uma))\b(?= [a-zà-ú])",
                "a demonstrative and an indefinite article together: one is a stray word", ""),
    # "um ou mais um mana": the count is "um ou mais".
    PatternRule(GARBLED, r"(?i)\b(?:um|uma|dois|duas|três) ou mais (?P<bad>um|uma)\b(?= [a-zà-ú])",
                "“um ou mais” is followed by its noun: a stray “um”", ""),
    # Two forms of "ser"/"estar" in a row ("não é seja").
    PatternRule(GARBLED, r"(?i)\b(?P<bad>(?:é|são|está|estão|era|foi) (?:seja|sejam|esteja|estejam|for|forem|fosse"
                r"|fossem))\b", "two forms of “ser”/“estar” in a row: one is a stray word", ""),
    # "considerado" + a finite verb: the predicate of "considerar" is a noun, an adjective or
    # "como" + gerund ("é considerado como não tendo características"), never a finite verb.
    PatternRule(GARBLED, r"(?i)\bconsiderad[oa]s? (?P<bad>(?:não )?(?:possui|possuem|tem|têm|é|são|está|estão|pode|"
                r"podem|exige|exigem|controla|controlam))\b",
                "“considerado” followed by a finite verb: the construction is broken (“considerado como não "
                "tendo”, or “considera-se que … não possui”)", ""),
    # The impersonal passive with a "que" clause is invariable: "é considerado que …"; a participle
    # agreeing with a subject ("é considerada que exige") mixes two constructions.
    PatternRule(GARBLED, r"(?i)\b(?:é|são|foi|foram|será|serão) (?P<bad>considerad(?:a|os|as) que)\b",
                "a participle agreeing with the subject cannot take a “que” clause (“ainda é "
                "considerada como exigindo”, or “considera-se que … exige”)", ""),
    # "to the left of" is "à esquerda de": the position is relative to the thing ("à esquerda da linha").
    PatternRule(REGENCIA, r"(?i)\bà (?:esquerda|direita) (?P<bad>n(?P<g>[oa]s?))\b",
                "“à esquerda/à direita” takes “de” (“à esquerda da linha de tipo”)", "d\\g<g>",
                r"(?i)\bto the (?:left|right) of\b"),
    # A verb and its own passive in one clause ("coloca a habilidade é colocada na pilha"): two
    # drafts of the sentence left together.
    PatternRule(GARBLED, r"(?i)\b(?P<v>[a-zà-ú]{4,})[aeo]m? (?:(?!que\b)[a-zà-ú-]+ ){1,3}(?P<bad>(?:é|são|foi|será|seja) "
                r"(?P=v)ad[oa]s?)\b", "the verb twice, active and passive, in one clause: one draft is left over", ""),
    # A noun repeated around its negated participle ("mana não gasto mana").
    PatternRule(GARBLED, r"(?i)\b(?P<n>[a-zà-ú]{3,}) não [a-zà-ú]+ (?P<bad>(?P=n))\b",
                "the noun repeated after its own modifier: a stray word", ""),
    # "fazer com que" + its subject: the subject takes no preposition ("com que a uma criatura entre").
    PatternRule(GARBLED, r"(?i)\bcom que (?P<bad>a) (?=uma?\b)",
                "“fazer com que” is followed by the subject, which takes no preposition: a stray “a”", ""),
    # Correlatives keep their pair: "nem … nem" (neither … nor), "tanto … quanto" (both … and).
    PatternRule(GARBLED, r"(?i)\bnem (?:(?!nem\b)[a-zà-ú-]+ ){1,3}(?P<bad>ou)\b",
                "“nem … ou”: the correlation is “nem … nem”", "nem", r"(?i)\bneither\b.*\bnor\b"),
    PatternRule(GARBLED, r"(?i)\btanto (?:(?!quanto\b|como\b)[\wà-ú“”-]+ ){1,5}(?P<bad>e)\b",
                "“tanto … e”: the correlation is “tanto … quanto” (or “tanto … como”)", "quanto", r"(?i)\bboth\b"),
    # The clitic twice ("se referir-se").
    PatternRule(GARBLED, r"(?i)\b(?P<bad>se [a-zà-ú]+-se)\b", "the clitic “se” twice (“se referir-se”): keep one", ""),
)

# --- Determiners a word never takes (issue 24 round 6, helper "r6gram") ---
# Rules of the norma culta a reviewer cites as they stand (Bechara, "pronomes relativos" and
# "pronomes indefinidos"): "cujo" is itself the relative, so no "que" before it and no article
# after it ("cards que cujos nomes" → "cards cujos nomes"; "cujo o nome" → "cujo nome"); the
# indefinites "algum"/"nenhum" are determiners, so no indefinite article before them ("um algum
# mana" → "algum mana").
R6GRAM_PATTERNS = (
    PatternRule(GARBLED, r"(?i)\b(?P<bad>que (?P<c>cuj[oa]s?))\b",
                "“cujo” is itself the relative pronoun: the “que” before it is a stray word", "\\g<c>"),
    PatternRule(GARBLED, r"(?i)\b(?P<bad>(?P<c>cuj[oa]s?) (?:o|a|os|as))\b(?= [a-zà-ú])",
                "“cujo” takes no article after it (“cujo nome”, not “cujo o nome”)", "\\g<c>"),
    PatternRule(GARBLED, r"(?i)\b(?P<bad>(?:um|uma|uns|umas) (?P<d>algum|alguma|alguns|algumas|nenhum|nenhuma))\b",
                "an indefinite article before “algum”/“nenhum”, itself a determiner: a stray word", "\\g<d>"),
)

#: lang -> (mood facts, construction rules) for pipeline.align.checks.syntax.
SYNTAX: dict[str, tuple[MoodFacts, tuple[PatternRule, ...]]] = {"pt": (PT_MOOD, PT_PATTERNS + R6GRAM_PATTERNS)}


# --- Clitic placement, passive "se", contraction + determiner (issue 24 round 5; helper "r5gram") ---
# Read by pipeline.align.checks.syntax.  Rules of the norma culta a Brazilian reviewer cites
# (Bechara, Moderna Gramática Portuguesa, "colocação dos pronomes átonos" and "voz passiva
# sintética"; Cegalla, Novíssima Gramática, "próclise obrigatória").

#: The checks (their ids).
PROCLISIS = "grammar.proclisis"
PASSIVE_SE = "grammar.passive-se"
CONTRACTION_DETERMINER = "grammar.contraction-determiner"


@dataclass(frozen=True)
class ClisisFacts:
    """What the clitic-placement and passive-"se" checks need of a language."""

    #: Enclitic pronouns joined to a verb by a hyphen ("torna-se", "dá-lhe", "coloca-o").
    enclitics: tuple[str, ...] = ()
    #: Words that attract the pronoun before the verb (próclise obrigatória): negatives,
    #: relative and interrogative pronouns and adverbs, subordinating conjunctions, indefinite
    #: pronouns as subjects.  They attract across the clause's subject ("quando a criatura se torna").
    attractors: tuple[str, ...] = ()
    #: Adverbs and indefinites that attract only right before the verb ("também se aplica").
    attract_adjacent: tuple[str, ...] = ()
    #: Words before "que" that make it a comparative ("mais que", "do que"): no attraction.
    comparative_before_que: tuple[str, ...] = ()
    #: Conjunctions that end so and are not comparatives ("a menos que").
    que_conjunctions: tuple[str, ...] = ()
    #: Words a subject phrase between the attractor and the verb may start with (articles,
    #: demonstratives, possessives, quantifiers, subject pronouns).
    subject_openers: tuple[str, ...] = ()
    #: Prepositions that open a subject's complement ("o texto em um card refere-se").
    subject_prepositions: tuple[str, ...] = ()
    #: Coordinators inside a compound subject ("uma regra ou texto em um card refere-se"), and
    #: before a coordinated passive ("quando se mudam os alvos ou se escolhe novos alvos").
    subject_coordinators: tuple[str, ...] = ()
    #: Words that end the look back: coordination starts a clause of its own ("que X e torna-se").
    breakers: tuple[str, ...] = ()
    #: The passive/indeterminate clitic.
    se: str = ""
    #: Definite articles in the plural: "se escolhe os alvos" (the object is the subject).
    plural_articles: tuple[str, ...] = ()
    #: Words in -s that do not open a plural noun phrase ("se aplica mais tarde", "após", "pois").
    not_plural_modifiers: tuple[str, ...] = ()
    #: The conjunction "que" (made a comparative by ``comparative_before_que``).
    que: str = ""
    #: A preposition whose contraction with a demonstrative is the usual written form ("de esse" ->
    #: "desse"), and those demonstratives' openings: no fix is suggested there.
    demonstrative_contractor: str = ""
    demonstratives: tuple[str, ...] = ()
    #: Singular 3rd-person endings -> plural endings of the present ("escolhe" -> "escolhem").
    plural_of: dict = field(default_factory=dict)
    #: Verbs whose "se" is not the passive one (pronominal verbs, "trata-se de").
    not_passive: tuple[str, ...] = ()
    #: A contraction of a preposition and the definite article ("pelo", "do", "na"); "à"/"às"
    #: before a determiner is grammar.crase's ("à qualquer").
    article_contractions: tuple[str, ...] = ()
    #: Determiners an article never precedes ("esse", "aquele", "este", "cada", "qualquer").
    no_article_before: tuple[str, ...] = ()
    #: The bare preposition of a contraction (the fix: "pelo esse" -> "por esse").
    preposition_of: dict = field(default_factory=dict)


PT_CLISIS = ClisisFacts(
    que="que",
    demonstrative_contractor="de",
    demonstratives=("esse", "este", "aquel", "essa", "esta"),
    enclitics=("se", "lhe", "lhes", "o", "a", "os", "as", "no", "na", "nos", "nas", "me", "te"),
    attractors=("que", "quando", "não", "nunca", "jamais", "nem", "onde", "embora", "quem", "porque", "enquanto",
                "caso", "conforme", "cujo", "cuja", "cujos", "cujas", "qual", "quais", "se"),
    attract_adjacent=("já", "também", "só", "sempre", "ainda", "tudo", "todos", "ninguém", "nada", "alguém",
                      "apenas", "somente", "talvez", "como"),
    comparative_before_que=("do", "mais", "menos", "mesmo", "mesma", "mesmos", "mesmas", "tanto", "tão", "melhor",
                            "pior", "maior", "menor", "outro", "outra", "outros", "outras", "é"),
    que_conjunctions=("a menos que", "ao menos que"),
    subject_openers=("o", "a", "os", "as", "um", "uma", "uns", "umas", "esse", "essa", "esses", "essas", "este",
                     "esta", "estes", "estas", "aquele", "aquela", "aqueles", "aquelas", "seu", "sua", "seus",
                     "suas", "cada", "qualquer", "nenhum", "nenhuma", "ele", "ela", "eles", "elas", "isso", "isto",
                     "aquilo", "todo", "toda", "todos", "todas"),
    subject_prepositions=("de", "do", "da", "dos", "das", "em", "no", "na", "nos", "nas", "com"),
    subject_coordinators=("ou", "e"),
    breakers=("e", "ou", "mas", "porém", "então", "depois", "antes"),
    se="se",
    plural_articles=("os", "as"),
    not_plural_modifiers=("mais", "menos", "mas", "pois", "após", "através", "depois", "apenas", "antes", "assim",
                          "às", "aos", "nos", "nas", "dos", "das", "pelos", "pelas", "às vezes", "jamais", "sempre"),
    plural_of={"a": "am", "e": "em"},
    not_passive=("trata", "refere", "aplica", "torna", "encontra", "chama", "considera"),
    article_contractions=("do", "da", "dos", "das", "no", "na", "nos", "nas", "pelo", "pela", "pelos", "pelas",
                          "ao", "aos"),
    no_article_before=("esse", "essa", "esses", "essas", "este", "esta", "estes", "estas", "aquele", "aquela",
                       "aqueles", "aquelas", "cada", "qualquer", "quaisquer", "nenhum", "nenhuma", "algum",
                       "alguma", "alguns", "algumas"),
    preposition_of={**{c: "de" for c in ("do", "da", "dos", "das")}, **{c: "em" for c in ("no", "na", "nos", "nas")},
                    **{c: "por" for c in ("pelo", "pela", "pelos", "pelas")},
                    **{c: "a" for c in ("ao", "à", "aos", "às")}},
)

#: lang -> clitic facts for pipeline.align.checks.syntax.
CLISIS: dict[str, ClisisFacts] = {"pt": PT_CLISIS}

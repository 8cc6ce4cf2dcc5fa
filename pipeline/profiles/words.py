"""What the learnt bilingual lexicon (:mod:`pipeline.align.wordlex`) knows about a language's words.

spaCy's stop-word lists decide which words are function words, and function words are left
out of word alignment (they carry no checkable meaning and swamp IBM model 1).  Some of them
do carry meaning a translation must not lose — a negation, a quantifier, "only", a game noun
such as "tipo" or "valor" that the Portuguese list counts as a function word — and those are
listed here per language, together with the spellings that hide a word (contracted negation).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache

from . import PROFILES


class PhraseKind(StrEnum):
    """How a phrase fact is judged (see :class:`PhraseFact`)."""

    FLIPPED = "flipped"
    DROPPED = "dropped"
    ADDED = "added"


@dataclass(frozen=True)
class PhraseFact:
    """A phrase a translation must carry over, as counts (issue 24, helper "omit"): the English
    ``english`` (a regex) is rendered by ``rendering``; ``kind`` says what a mismatch is:

    - ``flipped``: the English has ``english`` more times than the translation has ``rendering``,
      and the translation has ``flipped`` (the antonym's rendering) more times than the English
      has ``english_other`` (the antonym): "before" as "após", "one or more" as "mais de um";
    - ``dropped``: the English has it more times than the translation has a rendering; the
      finding sits on ``anchor`` ("no longer" as a plain "não");
    - ``added``: the translation has ``rendering`` more times than the English has ``english``
      ("pode" where the English states: "allows" as "pode permitir").
    """

    kind: PhraseKind
    english: str
    rendering: str
    english_other: str = ""
    flipped: str = ""
    anchor: str = ""
    note: str = ""
    #: Judged in the sentence alone (a sentence's opening word), not also over the whole piece.
    sentence_only: bool = False


@dataclass(frozen=True)
class WordProfile:
    lang: str
    #: Stop words that are still meaning-bearing for the checks (kept as content words).
    meaning_words: frozenset[str]
    #: Surface forms that stand for another word, as (regex over the whole token, word):
    #: "can't" and "cannot" carry a "not".
    aliases: tuple[tuple[str, str], ...] = ()
    #: The negating words: a sentence with one of them must keep a negation in translation
    #: (which words render them is learnt from the translation, not listed).
    negations: frozenset[str] = frozenset()
    #: Words that negate by an affix ("noncombat", "untapped", "colorless"), as a regex over a
    #: whole word: a translation may render them with a negation ("que não seja de combate").
    negating_affix: str = ""
    #: Meaning words whose loss is told one at a time (:mod:`pipeline.align.checks.omission`).
    droppable: frozenset[str] = frozenset()
    #: Agreement (:mod:`pipeline.align.checks.agreement`): each determiner's (gender, number),
    #: gender "" when it has both ("cada", "qualquer").
    determiners: tuple[tuple[str, tuple[str, str]], ...] = ()
    #: Determiners with another reading ("a", a preposition; "o", a pronoun): not learnt from.
    determiners_other_reading: frozenset[str] = frozenset()
    #: ... and of those, the ones whose other reading also stands before a noun ("dano a criaturas").
    determiners_unreported: frozenset[str] = frozenset()
    #: Gendered endings of adjectives and participles: (ending, (gender, number)); an adjective
    #: inflects in all of them.
    gendered_endings: tuple[tuple[str, tuple[str, str]], ...] = ()
    #: Verb forms an ending would pass for an adjective (regexes over the word: gerunds, the
    #: conditional "poderia"), and words that agree with what follows them ("cujos").
    verb_forms: tuple[str, ...] = ()
    not_adjectives: frozenset[str] = frozenset()
    #: Infinitive endings: a word whose stem takes one is also a verb form ("ativa": "ativar").
    infinitives: tuple[str, ...] = ()
    #: "of" and its contractions: after "N1 de N2" an adjective may agree with N1.
    of_words: frozenset[str] = frozenset()
    #: Words the language's punctuation always sets off with a comma ("mas", "porém"), whatever
    #: the English does: a comma before them is never an extra one.
    comma_words: frozenset[str] = frozenset()
    #: Finite verb forms an ending does not tell ("é", "são", "tem"), the endings that do (with a
    #: stem that takes an infinitive ending), and the words that may stand between a comma and
    #: its verb ("não", clitics).
    finite_verbs: frozenset[str] = frozenset()
    finite_endings: tuple[str, ...] = ()
    negations_before_verb: frozenset[str] = frozenset()
    #: English meaning words a translation may render by a word of another root ("only" by
    #: "a única criatura"), as prefixes: their presence counts as the rendering.
    meaning_renderings: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # --- Predicate agreement (issue 24, agreement helper): the copula before a participle
    # ("a habilidade pode ser removida"), read by :mod:`pipeline.align.checks.agreement`.
    #: Forms of "ser"/"estar"/"ficar" with the number they carry.
    copulas: tuple[tuple[str, str], ...] = ()
    #: Modal verbs before an infinitive copula ("pode ser"), with their number, and that infinitive.
    modals: tuple[tuple[str, str], ...] = ()
    copula_infinitives: frozenset[str] = frozenset()
    #: Prepositions (and their contractions with an article): a noun after one is not a subject.
    prepositions: frozenset[str] = frozenset()
    #: Subject pronouns and words that open a clause of their own ("quando", "qual"): a
    #: predicate after one may have another subject than the clause's first noun.
    subject_pronouns: frozenset[str] = frozenset()
    clause_openers: frozenset[str] = frozenset()
    #: The relative pronoun "que" (the predicate after it agrees with the noun before it).
    relative: str = ""
    #: Subject–verb number: "cada" and what may stand between it and its noun ("cada outro
    #: jogador"); the coordinators that make a subject plural ("cada X e cada Y"); plural finite
    #: forms no ending rule finds ("são", "têm", "retêm"), and the plural endings whose singular
    #: (the word less its last letter) is a word: "desencadeiam"/"desencadeia".
    distributives: frozenset[str] = frozenset()
    distributive_fillers: frozenset[str] = frozenset()
    coordinators: frozenset[str] = frozenset()
    plural_verbs: frozenset[str] = frozenset()
    plural_verb_endings: tuple[str, ...] = ()
    #: Singular finite forms a plural subject must not take ("cards que tem" for "têm").
    singular_verbs: frozenset[str] = frozenset()
    #: Plural determiners outside the gendered table ("tais custos", "ambos"): they open a subject.
    plural_determiners: frozenset[str] = frozenset()
    #: Singular "they" (English): the singular person nouns it stands for ("a player ... they"),
    #: the determiners that make them singular, "they" itself, and the words ending in "s" that
    #: are not plural nouns ("this", "thus").  In the translation: the plural subject pronouns.
    person_nouns: frozenset[str] = frozenset()
    singular_determiners: frozenset[str] = frozenset()
    they: str = ""
    not_plurals: frozenset[str] = frozenset()
    plural_pronouns: frozenset[str] = frozenset()
    # --- grammar.passive-number (issue 24 round 5, helper "r5gram") ---
    #: The passive's auxiliary and its participle share the subject's number ("As ações podem ser
    #: modificadas", never "podem ser modificada"): the finite forms of "ser"/"estar"/"ficar" by
    #: number, the modals that carry the number before the infinitive "ser"/"estar", and the
    #: participle endings by number (a participle is such a word whose stem + an infinitive
    #: ending is a verb Hunspell knows: "modificada" <- "modificar").
    passive_aux: tuple[tuple[str, str], ...] = ()
    passive_modals: tuple[tuple[str, str], ...] = ()
    participle_endings: tuple[tuple[str, str, str], ...] = ()
    # --- grammar.subject-verb across a complement (issue 24 round 5, helper "r5gram") ---
    #: Collective and partitive heads whose verb may agree with the plural complement ("um número
    #: de custos podem", "a maioria dos jogadores escolhem": both accepted by the norma).
    partitive_nouns: frozenset[str] = frozenset()
    # --- omission.dropped-modifier (issue 24, helper "omit") ---
    #: The closed class of English modifiers and quantifying adverbs whose every occurrence a
    #: translation must render ("each other player", "any such actions", "can also have"):
    #: counted, not only looked for (:func:`pipeline.align.wordlex.counted`).
    counted_modifiers: frozenset[str] = frozenset()
    #: Phrases (regexes over the English, the counted word included) in which such a word is
    #: rendered by structure, not by a word of its own: "other than" (a negation), "each other"
    #: and "one another" (a reciprocal).
    counted_exempt: tuple[str, ...] = ()
    #: Counted modifiers a translation may render by a negation ("only if" -> "a não ser que"):
    #: not counted in a sentence the translation negates more than the English does.
    counted_negatable: frozenset[str] = frozenset()
    #: Phrase facts of the target language (:class:`PhraseFact`), checked sentence by sentence.
    phrase_facts: tuple[PhraseFact, ...] = ()
    # -- punctuation of clause connectives (issue 24, form.connective-comma) --
    #: Connective adverbs the language's grammar sets off with a comma before them when they
    #: join or interrupt a clause ("…permanente, porém permanece"; "…batalha e, portanto, não");
    #: written straight after a word, the comma is missing.
    comma_before_connectives: frozenset[str] = frozenset()
    #: Connectives that need the comma only where they open the main clause after a condition:
    #: (the word, the English word the English sets off the same way, ", then").
    comma_when_english_has: tuple[tuple[str, str], ...] = ()
    # -- r5form: numbers and punctuation (issue 24 round 5) --
    #: The language's decimal separator ("2,5 polegadas"); "" = the English point is right.
    decimal_separator: str = ""
    #: Connective adverbs that open a clause after a semicolon ("; however,", "; entretanto,"):
    #: where the English has the semicolon, a comma before the translation's is a comma splice.
    semicolon_connectives: frozenset[str] = frozenset()

    @cached_property
    def alias_words(self) -> frozenset[str]:
        """The aliases that are plain words ("cannot"), for a quick test before the regexes."""
        return frozenset(p for p, _ in self.aliases if p.isalpha())

    def alias(self, token: str) -> str | None:
        for pattern, word in _compiled(self.aliases):
            if pattern.fullmatch(token):
                return word
        return None


@lru_cache(maxsize=16)
def _compiled(aliases: tuple[tuple[str, str], ...]) -> tuple[tuple[re.Pattern, str], ...]:
    return tuple((re.compile(p, re.IGNORECASE), w) for p, w in aliases)


def _numbers(lang: str) -> frozenset[str]:
    p = PROFILES.get(lang)
    return frozenset(w for w, _ in p.number_words) if p else frozenset()


def _determiners(table: dict[tuple[str, str], str]) -> tuple[tuple[str, tuple[str, str]], ...]:
    return tuple(sorted((w, feat) for feat, ws in table.items() for w in ws.split()))


WORD_PROFILES: dict[str, WordProfile] = {}


def register(p: WordProfile) -> WordProfile:
    WORD_PROFILES[p.lang] = p
    return p


register(WordProfile(
    "en",
    frozenset("not no never none nothing nobody each every all only other another both either neither without "
              "first last top bottom front back side part name full empty again also still yet instead "
              "already".split()) | _numbers("en"),
    # Small words a translation renders by a word of its own, not by structure ("each" by a
    # plural, "all" by an article): each one's loss is reported (omission.dropped-word).
    droppable=frozenset("only also again still yet already instead another last back front both".split()),
    aliases=((r"[^\W\d_]+n['’]t", "not"), (r"cannot", "not")),
    negations=frozenset("not no never none nothing nobody neither nor without".split()),
    negating_affix=r"(?:non|un)[^\W\d_]{3,}|[^\W\d_]{3,}less|unless|except|instead|rather|other|otherwise|only",
    # Singular "they" (issue 24, grammar.singular-they).
    person_nouns=frozenset("player opponent teammate controller owner".split()),
    singular_determiners=frozenset("a an each that the another target any one this".split()),
    they="they",
    not_plurals=frozenset("this thus was has its his is as us does unless always perhaps whereas".split()),
    # --- omission.dropped-modifier (issue 24, helper "omit") ---
    counted_modifiers=frozenset("other another only also still yet already again instead such both back "
                                "longer".split()),
    counted_exempt=(r"\bother\s+than\b", r"\beach\s+other\b(?!\s+[^\W\d_]+)", r"\bone\s+another\b",
                    r"\bsuch\s+as\b", r"\bsuch\s+that\b", r"\bas\s+well\s+as\b", r"^also,"),
    counted_negatable=frozenset({"only"}),
    # -- r5form --
    semicolon_connectives=frozenset(["however", "therefore", "otherwise", "nevertheless", "thus", "instead"])
))

register(WordProfile(
    "pt",
    frozenset("não nunca nenhum nenhuma nenhuns nenhumas nada ninguém cada todo toda todos todas tudo apenas "
              "somente só outro outra outros outras ambos ambas sem primeiro primeira último última tipo tipos "
              "valor número números ponto pontos parte lado topo fundo frente verso nome cheio vazio novamente "
              "maior menor máximo posição".split()) | _numbers("pt"),
    negations=frozenset("não nunca nenhum nenhuma nenhuns nenhumas nada ninguém nem sem jamais".split()),
    # "irrelevante", "incolor", "desvirada", "no máximo" (no more than), "reduzido a zero" (to nothing).
    negating_affix=r"(?:in|im|ir|des)[^\W\d_]{4,}|zero|máximo|mínimo|exceto|salvo|senão|impossível",
    determiners=_determiners({
        ("m", "s"): "o do no ao pelo um dum num esse desse nesse este deste neste aquele daquele naquele àquele "
                    "seu meu teu nosso nenhum algum todo outro",
        ("f", "s"): "a da na à pela uma duma numa essa dessa nessa esta desta nesta aquela daquela naquela àquela "
                    "sua minha tua nossa nenhuma alguma toda outra",
        ("m", "p"): "os dos nos aos pelos uns esses desses nesses estes destes nestes aqueles daqueles naqueles "
                    "àqueles seus meus nossos alguns todos outros",
        ("f", "p"): "as das nas às pelas umas essas dessas nessas estas destas nestas aquelas daquelas naquelas "
                    "àquelas suas minhas nossas algumas todas outras",
        ("", "s"): "cada qualquer",
        ("", "p"): "quaisquer",
    }),
    # "a": preposition ("dano a criaturas", "candidato a controlador"); "o"/"a"/"os"/"as": pronouns
    # ("o sacrifica"); "no"/"nos"/"na"/"nas": "em" + article or a pronoun; "seu"/"sua": "dele" too;
    # "todo"/"toda": "any" before a singular of either reading.
    determiners_other_reading=frozenset("a o as os na no nas nos pela pelo seu sua seus suas todo toda".split()),
    determiners_unreported=frozenset({"a"}),
    gendered_endings=(("os", ("m", "p")), ("as", ("f", "p")), ("o", ("m", "s")), ("a", ("f", "s"))),
    verb_forms=(r".+ndo", r".+[eií]ria", r".+[eií]rias"),
    not_adjectives=frozenset("cujo cuja cujos cujas seja tanto tanta".split()),  # "é tanto um artefato quanto"
    infinitives=("ar", "er", "ir"),
    of_words=frozenset("de do da dos das".split()),
    comma_words=frozenset("mas porém contudo todavia entretanto pois embora exceto salvo".split()),
    finite_verbs=frozenset("é são está estão tem têm pode podem há foi foram era eram será serão deve devem "
                           "faz fazem vai vão".split()),
    finite_endings=("aram", "eram", "iram", "am", "em", "ou", "eu", "iu", "ia", "iam", "a", "e"),
    negations_before_verb=frozenset("não nunca se lhe lhes o a os as".split()),
    meaning_renderings=(("only", ("únic", "só", "exclusiv", "soment", "apena")),),
    # Predicate agreement (issue 24): Bechara, concordância nominal do predicativo.
    copulas=tuple((w, "s") for w in "é foi será seria seja for fosse está esteja estiver estava era fica "
                  "ficar".split()) + tuple((w, "p") for w in "são foram serão seriam sejam forem fossem estão "
                                              "estejam estiverem estavam eram ficam".split()),
    modals=tuple((w, "s") for w in "pode deve poderia deveria possa".split())
    + tuple((w, "p") for w in "podem devem poderiam deveriam possam".split()),
    copula_infinitives=frozenset({"ser", "estar"}),
    prepositions=frozenset("de do da dos das em no na nos nas ao aos à às com para por pelo pela pelos pelas "
                           "sobre entre sem sob até desde contra num numa dum duma".split()),
    subject_pronouns=frozenset("ele ela eles elas isso isto aquilo".split()),
    clause_openers=frozenset("qual quais cujo cuja cujos cujas quando se enquanto porque caso como onde".split()),
    relative="que",
    distributives=frozenset({"cada"}),
    distributive_fillers=frozenset("outro outra um uma".split()),
    coordinators=frozenset("e ou nem".split()),
    plural_verbs=frozenset("são estão têm vão foram eram serão estavam tinham ficam retêm mantêm contêm obtêm "
                           "vêm detêm".split()),
    plural_verb_endings=("am", "em"),
    singular_verbs=frozenset("tem é está pode deve possui há foi era será faz vai contém mantém seja tenha possa "
                             "esteja".split()),
    plural_pronouns=frozenset("eles elas".split()),
    plural_determiners=frozenset("tais ambos ambas".split()),
    partitive_nouns=frozenset("número quantidade maioria parte grupo total metade porção conjunto série "
                              "minoria resto".split()),
    # --- grammar.passive-number (issue 24 round 5, helper "r5gram") ---
    passive_aux=tuple((w, "s") for w in "é era foi será seria seja fosse for está estava esteve estiver estivesse "
                      "fica ficou ficará".split()) + tuple(
        (w, "p") for w in "são eram foram serão seriam sejam fossem forem estão estavam estiveram estiverem "
        "estivessem ficam ficaram ficarão".split()),
    passive_modals=tuple((w, "s") for w in "pode deve precisa vai poderá poderia deverá deveria possa".split()) + tuple(
        (w, "p") for w in "podem devem precisam vão poderão poderiam deverão deveriam possam".split()),
    participle_endings=(("ado", "s", "ar"), ("ada", "s", "ar"), ("ido", "s", "er"), ("ida", "s", "er"),
                        ("ido", "s", "ir"), ("ida", "s", "ir"), ("ados", "p", "ar"), ("adas", "p", "ar"),
                        ("idos", "p", "er"), ("idas", "p", "er"), ("idos", "p", "ir"), ("idas", "p", "ir")),
    # --- phrase facts (issue 24, helper "omit"): antonyms and states a sentence must keep ---
    phrase_facts=(
        PhraseFact(PhraseKind.FLIPPED, r"\bbefore\b", r"\bantes\b|\banterior", r"\b(?:after|then|once|following|later)\b",
                   r"\bap[oó]s\b|\bdepois\b|\bposterior", note="“before” rendered as “after”"),
        PhraseFact(PhraseKind.FLIPPED, r"\bafter\b", r"\bap[oó]s\b|\bdepois\b|\bposterior|\bseguinte",
                   r"\b(?:before|prior|earlier)\b", r"\bantes\b|\banterior", note="“after” rendered as “before”"),
        PhraseFact(PhraseKind.FLIPPED, r"\bone or more\b", r"\bum(?:a)? ou mais\b", r"\bmore than one\b",
                   r"\bmais de um(?:a)?\b", note="“one or more” rendered as “more than one”"),
        PhraseFact(PhraseKind.FLIPPED, r"\bmore than one\b", r"\bmais de um(?:a)?\b", r"\bone or more\b",
                   r"\bum(?:a)? ou mais\b", note="“more than one” rendered as “one or more”"),
        # Antonyms the rules turn on (none flipped on the real PO; each a reviewer's classic).
        PhraseFact(PhraseKind.FLIPPED, r"\bowners?\b", r"\bdonos?\b|\bdonas?\b|\bpropriet", r"\bcontrollers?\b|\bcontrols?\b|\bcontrolled\b",
                   r"\bcontrolador", note="“owner” rendered as “controller”"),
        PhraseFact(PhraseKind.FLIPPED, r"\bcontrollers?\b", r"\bcontrolador", r"\bowners?\b|\bowns?\b|\bowned\b",
                   r"\bdonos?\b|\bdonas?\b", note="“controller” rendered as “owner”"),
        PhraseFact(PhraseKind.FLIPPED, r"\btop\b", r"\btopo\b|\bcima\b|\bsuperior", r"\bbottom\b", r"\bfundo\b|\binferior",
                   note="“top” rendered as “bottom”"),
        PhraseFact(PhraseKind.FLIPPED, r"\bbottom\b", r"\bfundo\b|\bbaixo\b|\binferior", r"\btop\b", r"\btopo\b",
                   note="“bottom” rendered as “top”"),
        PhraseFact(PhraseKind.FLIPPED, r"\bat least\b", r"\bpelo menos\b|\bno m[ií]nimo\b|\bou mais\b",
                   r"\bat most\b|\bor fewer\b|\bor less\b|\bno more than\b", r"\bno m[aá]ximo\b",
                   note="“at least” rendered as “at most”"),
        PhraseFact(PhraseKind.FLIPPED, r"\b(?:more|greater) than\b", r"\bmais de\b|\bmais do que\b|\bmaior", r"\b(?:less|fewer) than\b",
                   r"\bmenos de\b|\bmenor", note="“more than” rendered as “less than”"),
        PhraseFact(PhraseKind.FLIPPED, r"\b(?:less|fewer) than\b", r"\bmenos de\b|\bmenos do que\b|\bmenor",
                   r"\b(?:more|greater) than\b", r"\bmais de\b|\bmaior", note="“less than” rendered as “more than”"),
        # Having priority is a state, receiving it an event (rule 117: a player receives priority,
        # then has it until passing).
        PhraseFact(PhraseKind.FLIPPED, r"\b(?:has|have|had|having) priority\b",
                   r"\b(?:tem|têm|tenha|tenham|tiver|tiverem|ter|tinha|possui|possuem|possua|possuir|com) (?:a )?prioridade\b",
                   r"\b(?:receives?|received|receiving|gets?|got) priority\b", r"\breceb\w* (?:a )?prioridade\b",
                   note="“has priority” (a state) rendered as “receives priority” (an event)"),
        PhraseFact(PhraseKind.DROPPED, r"\bno longer\b", r"\bmais\b|\bdeix\w*|\bjá não\b|\bcess\w*|\bvolt\w*", anchor=r"\bnão\b",
                   note="“no longer” rendered as a plain negation"),
        # The rules' fixed pair: a spell or an ability, both (rule 113, 111).
        PhraseFact(PhraseKind.DROPPED, r"\bspells? or abilit(?:y|ies)\b", r"\bmágicas? (?:ou|e) habilidades?\b",
                   anchor=r"\bmágicas?\b(?! (?:ou|e) habilidade)", note="“spell or ability” rendered as “spell” alone"),
        # A sentence opened by "Se" states a condition the English must have.
        PhraseFact(PhraseKind.ADDED, r"\b(?:if|when|whenever|unless|once|while|as long as|in case|provided|whether|until|"
                   r"after|before|as|should|otherwise|even)\b", r"^\s*(?:Exemplo:\s*)?Se\b",
                   note="a condition (“Se”) the English sentence does not state", sentence_only=True),
        PhraseFact(PhraseKind.ADDED, r"\b(?:may|might|can|could|cannot|can['’]t|couldn['’]t|able|possible|option(?:al)?|"
                   r"must not|mustn['’]t|gets? to|allowed to)\b",
                   r"\b(?:pode|podem|poderá|poderão|poderia|poderiam|possa|possam|puder|puderem|pudesse|pudessem)\b",
                   note="a possibility (“pode”) the English does not state"),
    ),
    # -- punctuation of clause connectives (issue 24) --
    comma_before_connectives=frozenset("porém contudo todavia entretanto portanto".split()),
    comma_when_english_has=(("então", "then"),),
    # -- r5form --
    decimal_separator=",",
    semicolon_connectives=frozenset(["entretanto", "porém", "contudo", "todavia", "portanto", "no entanto",
                                     "caso contrário", "do contrário", "senão", "assim"]),
))

register(WordProfile(
    "es",
    frozenset("no nunca ningún ninguno ninguna nada nadie cada todo toda todos todas solo sólo solamente otro "
              "otra otros otras ambos ambas sin primero primera último última tipo tipos valor número números "
              "parte lado nombre".split()) | _numbers("es"),
    negations=frozenset("no nunca ningún ninguno ninguna nada nadie ni sin jamás".split()),
    # -- r5form --
    decimal_separator=",",
))


def word_profile(lang: str) -> WordProfile:
    return WORD_PROFILES.get(lang) or WordProfile(lang, _numbers(lang))

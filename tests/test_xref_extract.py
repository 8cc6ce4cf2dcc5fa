"""Reference extraction on rule text, per language profile (no shared data needed)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from pipeline.rulenum import LETTERS, RuleNumber, letter_range
from pipeline.xref import expand_range, extract_from_text


def cited(text: str, lang: str = "en", **kw) -> list[tuple[str, ...]]:
    return [r.targets for r in extract_from_text(text, lang, **kw)]


def flat(text: str, lang: str = "en", **kw) -> list[str]:
    return [t for ts in cited(text, lang, **kw) for t in ts]


# -- single references, glued references ---------------------------------------------------

@pytest.mark.parametrize("text,lang,want", [
    ("See rule 601.2f.", "en", ["601.2f"]),
    ("consulte a regra 601.2f", "pt", ["601.2f"]),
    ("véase la regla 601.2f", "es", ["601.2f"]),
    ("(consulte a regra601.2f).", "pt", ["601.2f"]),
    ("consulte a regra101.4)", "pt", ["101.4"]),
    ("Consulte a regra601, “Conjurando mágicas”.", "pt", ["601"]),
    ("as described in 608.2b. If", "en", ["608.2b"]),
])
def test_single_and_glued(text, lang, want):
    assert flat(text, lang) == want


def test_span_and_raw_are_exact():
    text = "(consulte a regra601.2f). Outra 117.9d"
    for r in extract_from_text(text, "pt"):
        assert text[r.span[0]:r.span[1]] == r.raw
    assert [r.raw for r in extract_from_text(text, "pt")] == ["601.2f", "117.9d"]


# -- lists -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text,lang", [
    ("See rules 117.8 and 117.9.", "en"),
    ("(consulte a regras 117.8 e 117.9)", "pt"),
    ("véanse las reglas 117.8 y 117.9.", "es"),
])
def test_two_item_lists(text, lang):
    assert flat(text, lang) == ["117.8", "117.9"]


def test_long_comma_list_and_bare_rules_in_lists():
    assert flat("See rules 120.4a, 120.6, 510.1, and 704.5g.") == ["120.4a", "120.6", "510.1", "704.5g"]
    assert flat("See rules 614 and 615.") == ["614", "615"]
    refs = extract_from_text("See rules 701.42, “Meld,” and 729, “Merging with Permanents.”")
    assert [(r.raw, r.title, r.cue) for r in refs] == [
        ("701.42", "Meld", "rule-word"), ("729", "Merging with Permanents", "title")]
    assert flat("See rules 614, 615, and 616 for more.") == ["614", "615", "616"]


# -- ranges ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dash", ["–", "-"])
def test_letter_ranges_en_dash_and_hyphen(dash):
    assert cited(f"(See rules 614.1c{dash}d.)") == [("614.1c", "614.1d")]
    assert cited(f"rules 601.2b and 601.2f{dash}h.") == [("601.2b",), ("601.2f", "601.2g", "601.2h")]
    assert cited(f"(Véanse las reglas 614.1c{dash}d.)", "es") == [("614.1c", "614.1d")]


def test_letter_range_skips_l_and_o():
    (targets,) = cited("the steps in 608.2c–n are done")
    assert "608.2l" not in targets and targets[-1] == "608.2n" and len(targets) == 11
    (targets,) = cited("Rules 111.10a–v apply")
    assert "111.10l" not in targets and "111.10o" not in targets and len(targets) == 20


def test_subrule_and_word_ranges():
    assert cited("This follows rules 712.9–10 and 712.18.") == [("712.9", "712.10"), ("712.18",)]
    assert cited("See rules 903.6–903.11.") == [tuple(f"903.{i}" for i in range(6, 12))]
    assert cited("rules 702.2 through 702.5") == [("702.2", "702.3", "702.4", "702.5")]
    assert cited("regras 702.2 até 702.5", "pt") == [("702.2", "702.3", "702.4", "702.5")]
    assert cited("reglas 702.2 hasta 702.4", "es") == [("702.2", "702.3", "702.4")]


def test_range_expands_only_to_existing_rules_plus_endpoints():
    known = {"601.2f", "601.2h", "601.2i"}
    assert cited("601.2f–h", known_ids=known) == [("601.2f", "601.2h")]
    # A missing endpoint stays a target, so resolution can call it dangling.
    assert cited("601.2f–j", known_ids=known) == [("601.2f", "601.2h", "601.2i", "601.2j")]


def test_not_a_range():
    # A hyphenated word after a number is not a range; the number still is a reference.
    assert cited("rule 702.46-style costs") == [("702.46",)]


# -- sections, titles ----------------------------------------------------------------------------

def test_sections_with_titles():
    refs = extract_from_text("See rule 113, “Abilities,” and section 6, “Spells, Abilities, and Effects.”")
    assert [(r.targets, r.kind, r.title) for r in refs] == [
        (("113",), "single", "Abilities"), (("section:6",), "section", "Spells, Abilities, and Effects")]
    assert flat("consulte a seção 7", "pt") == ["section:7"]
    assert flat("véase la sección 8.", "es") == ["section:8"]


def test_lists_of_sections_but_not_counts_after_them():
    assert flat("See sections 1 and 2.") == ["section:1", "section:2"]
    assert flat("consulte as seções 1, 2 e 3", "pt") == ["section:1", "section:2", "section:3"]
    assert flat("section 5, 2 players") == ["section:5"]
    assert flat("section 5 and 2/2 tokens") == ["section:5"]
    # A glossary definition's numbered senses: the "2." on the next line is not a section.
    assert flat("See section 4, “Zones.”\n2. A status a permanent may have.") == ["section:4"]
    assert flat("See rules 614 and\n615 cards") == ["614"]


def test_title_keeps_apostrophes_and_guillemets():
    refs = extract_from_text("rule 408.2, \"Actions That Don't Use the Stack.\"")
    assert refs[0].title == "Actions That Don't Use the Stack"
    refs = extract_from_text("Véase la regla 607, «Habilidades vinculadas».", "es")
    assert refs[0].title == "Habilidades vinculadas"


# -- numbers that are not references --------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Your deck must contain exactly 100 cards, including its commander.",
    "the maximum deck size are both 100.",
    "repeating that sequence 999,999 more times",
    "Magic products that released 2011–2018.",
    "One card (Celebr-8000) has an ability",
    "approximately 2.5 inches (6.3 centimeters)",
    "puts +1/+1 counters on it; 20 life",
    "overrule 601 is not a citation",
    "as in 903.5a and 100 cards",
])
def test_counts_and_other_numbers_are_not_references(text):
    assert [r.raw for r in extract_from_text(text) if len(r.raw) == 3] == []


# -- properties --------------------------------------------------------------------------------------

rule_numbers = st.builds(
    lambda r, s, l: str(RuleNumber(r, s, l)),
    st.integers(100, 999), st.one_of(st.none(), st.integers(1, 199)), st.one_of(st.none(), st.sampled_from(LETTERS)),
)


@settings(max_examples=200, deadline=None)
@given(num=rule_numbers, lang=st.sampled_from(["en", "pt", "es"]), glue=st.booleans(),
       before=st.text(st.characters(categories=["L", "Zs"]), max_size=20),
       after=st.sampled_from([".", ")", "", ", and more", "; then", "."]))
def test_property_cited_number_is_found_with_exact_span(num, lang, glue, before, after):
    word = {"en": "rule", "pt": "regra", "es": "regla"}[lang]
    prefix = f"{before} {word}{'' if glue else ' '}"
    text = prefix + num + after
    refs = extract_from_text(text, lang)
    assert [r.targets for r in refs] == [(num,)]
    assert refs[0].span == (len(prefix), len(prefix) + len(num)) and refs[0].raw == num


@settings(max_examples=200, deadline=None)
@given(rule=st.integers(100, 999), sub=st.integers(1, 99),
       ij=st.tuples(st.integers(0, len(LETTERS) - 1), st.integers(0, len(LETTERS) - 1)).map(sorted)
       .filter(lambda p: p[0] < p[1]),
       dash=st.sampled_from(["–", "-", "—"]))
def test_property_letter_ranges_expand_like_letter_range(rule, sub, ij, dash):
    a, b = LETTERS[ij[0]], LETTERS[ij[1]]
    (targets,) = cited(f"see rules {rule}.{sub}{a}{dash}{b}.")
    assert targets == tuple(f"{rule}.{sub}{c}" for c in letter_range(a, b))
    assert not any(t[-1] in "lo" for t in targets)


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.sampled_from("0123456789.,–-a lrueRseghion“”\"«»()"), max_size=80),
       lang=st.sampled_from(["en", "pt", "es"]))
def test_property_never_raises_and_spans_are_faithful(text, lang):
    for r in extract_from_text(text, lang):
        assert text[r.span[0]:r.span[1]] == r.raw
        assert r.targets
        for t in r.targets:
            assert t.startswith("section:") or RuleNumber.try_parse(t) is not None


def test_expand_range_is_sorted_numerically():
    assert expand_range(RuleNumber.parse("702.8"), RuleNumber.parse("702.11")) == ["702.8", "702.9", "702.10", "702.11"]
    assert Counter(flat("rules 601.2f–h and 601.2g")) == Counter({"601.2g": 2, "601.2f": 1, "601.2h": 1})


@settings(max_examples=200, deadline=None)
@given(nums=st.lists(rule_numbers, min_size=2, max_size=6, unique=True),
       lang=st.sampled_from(["en", "pt", "es"]), oxford=st.booleans())
def test_property_lists_keep_every_item_in_order(nums, lang, oxford):
    from pipeline.profiles import get

    p = get(lang)
    word, conj = p.rule_words[1], p.conjunctions[0]  # "rules"/"regras"/"reglas", "and"/"e"/"y"
    body = ", ".join(nums[:-1]) + ("," if oxford and len(nums) > 2 else "") + f" {conj} {nums[-1]}"
    text = f"({p.see_words[0]} {word} {body}.)"
    assert flat(text, lang) == nums


@given(n=st.integers(100, 999), noun=st.sampled_from(["cards", "more times", "life", "cartas", "vidas"]))
def test_property_counts_are_not_references(n, noun):
    assert extract_from_text(f"Each deck must contain exactly {n} {noun}.") == []
    assert extract_from_text(f"O grimório deve ter {n} {noun}.", "pt") == []

"""Spacing repair: lexicon-backed splits, never a change beyond inserted spaces."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from pipeline.lexicon import unigram_lexicon as lexicon
from pipeline.segment.spacing import repair_spacing, split_glued


def test_splits_only_unknown_tokens_into_two_words():
    pt = lexicon("pt")
    assert split_glued("dotexto", pt) == ("do", "texto")
    assert split_glued("nocampo", pt) == ("no", "campo")
    assert split_glued("recuperarou", pt) == ("recuperar", "ou")
    assert split_glued("artefato", pt) is None  # two rare halves: kept, reported as unknown
    assert split_glued("jogadro", pt) is None  # a typo
    assert split_glued("apenas", pt) is None  # a word
    en = lexicon("en")
    assert split_glued("inthe", en) == ("in", "the")
    assert split_glued("deathtouch", en) is None
    es = lexicon("es")
    assert split_glued("esté", es) is None  # accented form of a listed word


def test_repairs_are_findings_with_spans_into_the_original():
    raw = "a partir dotexto impresso, consulte a regra601.2f e mana,indicador de tipo."
    fixed, finds = repair_spacing(raw, "pt", base=100)
    assert fixed == "a partir do texto impresso, consulte a regra 601.2f e mana, indicador de tipo."
    kinds = sorted(f.kind for f in finds)
    assert kinds == ["glued-number-repaired", "glued-punctuation-repaired", "glued-word-repaired"]
    for f in finds:
        a, b = f.span
        assert raw[a - 100 : b - 100] in f.detail


_texts = st.text(alphabet="abcdeoqrstuvxyzçãé ,.;:ABCQ0123456789()“”-", max_size=120)


@settings(max_examples=150, deadline=None)
@given(_texts, st.sampled_from(["pt", "es", "en"]))
def test_property_repair_only_inserts_spaces(raw, lang):
    fixed, finds = repair_spacing(raw, lang)
    assert fixed.replace(" ", "") == raw.replace(" ", "")
    assert len(fixed) - len(raw) == sum(1 for f in finds if f.kind.endswith("-repaired"))
    assert repair_spacing(raw, lang) == (fixed, finds)  # deterministic


def test_lexicon_disk_cache_round_trips(tmp_path, monkeypatch):
    from pipeline import lexicon as LX

    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path))
    fresh = LX._build_unigram("en")
    LX.unigram_lexicon.cache_clear()
    try:
        first = LX.unigram_lexicon("en")  # builds and writes the cache
        assert list((tmp_path / "lexicons").glob("en-*.marshal"))
        LX.unigram_lexicon.cache_clear()
        again = LX.unigram_lexicon("en")  # read back
        assert again.words == fresh.words == first.words and again.logprob == fresh.logprob
        assert again.function_words == fresh.function_words
    finally:
        LX.unigram_lexicon.cache_clear()

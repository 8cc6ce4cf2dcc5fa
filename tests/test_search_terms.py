"""Issue 26, item 5: the search keys of a text come from the cached per-chunk table exactly as
from spaCy's tokenizer run over the whole text, and a warm run keys a text without spaCy."""

from __future__ import annotations

import pytest

from pipeline import search_terms as T
from pipeline.editions import default_catalog
from tests.conftest import edition_spread

HAND = [
    "601.2f. To cast a spell, don't untap; see rule 601.2f. (It's 1/1.)",
    "Las reglas de EE. UU. y Ee. Uu. dicen: «valor de maná» — 702.19b–d.",
    "word\u00a0after a no-break space,\ttab\nnew line  two spaces; “quoted” and ‘single’ e.g. i.e. O'Brien's",
    "Rule 100.1a, 100.1b, and 100.1c. {2}{W}{U} costs X. 12/12 +1/+1 counters, CMC 3.",
    "",
]


def _whole(text: str, lang: str) -> list[tuple[int, int, str]]:
    """The keys as before the table: spaCy's tokenizer over the whole text."""
    from spacy.attrs import IDX, LENGTH

    out = []
    for start, size in T._tokenizer(lang)(text).to_array([IDX, LENGTH]).tolist():
        for m in T._RULE.finditer(text[start:start + size]):
            w = m.group(0)
            a = start + m.start()
            key = ("r" + w.replace(".", "x") if T._IS_RULE.match(w) else w) if w[0].isdigit() else T._stem(lang, w)
            out.append((a, a + len(w), key))
    return out


@pytest.fixture
def cache(monkeypatch, tmp_path):
    """An empty cache and no shipped table: every chunk is cut by spaCy."""
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(T, "_shipped", lambda lang: None)
    T._memo.cache_clear()
    yield tmp_path / "cache"
    T._memo.cache_clear()


def test_the_shipped_table_keys_the_newest_edition_as_spacy_does(monkeypatch, tmp_path):
    """pipeline/data/editions/search-terms-en.json.xz (python -m pipeline.pack_search_terms):
    made by this code with these spaCy and stemmer versions, and a first search keys the newest
    embedded edition from it alone, exactly as spaCy over each whole text."""
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CRPIPE_MIRROR", raising=False)
    T._memo.cache_clear()
    try:
        shipped = T._shipped("en")
        assert shipped, "the shipped search keys are stale: python -m pipeline.pack_search_terms"
        texts = _texts(default_catalog().latest().parse())
        expected = [_whole(t, "en") for t in texts]
        monkeypatch.setattr(T, "_tokenizer", lambda lang: (_ for _ in ()).throw(AssertionError("spaCy loaded")))
        assert [T.terms(t, "en") for t in texts] == expected
        T.save("en")  # seeded from the package: kept in the cache as marshal
        assert len(list((tmp_path / "cache" / "search").glob("terms-en-*.marshal"))) == 1
        assert T._shipped("pt") is None
    finally:
        T._memo.cache_clear()


def _texts(doc) -> list[str]:
    return ([r.text + ("\n" + "\n".join(r.example_texts) if r.examples else "") for r in doc.rules]
            + [g.term + "\n" + g.definition for g in doc.glossary])


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_hand_written_texts_keyed_as_by_the_whole_text(cache, lang):
    for text in HAND:
        assert T.terms(text, lang) == _whole(text, lang), text
    T.save(lang)
    T._memo.cache_clear()  # read back from the disk cache
    for text in HAND:
        assert T.terms(text, lang) == _whole(text, lang), text


def test_editions_keyed_as_by_the_whole_text_and_warm_without_spacy(cache, monkeypatch):
    cat = default_catalog()
    for name in ("2003-03-15", "2019-06-12", cat.latest().stem):
        texts = _texts(cat.resolve(name).parse())
        assert [T.terms(t, "en") for t in texts] == [_whole(t, "en") for t in texts]
    T.save("en")
    assert list(cache.glob("search/terms-en-*.marshal"))
    T._memo.cache_clear()

    def no_spacy(lang):
        raise AssertionError("spaCy loaded for a chunk the table holds")

    monkeypatch.setattr(T, "_tokenizer", no_spacy)
    assert T.terms(texts[0], "en") == [tuple(x) for x in T.terms(texts[0], "en")]
    assert T.stems("mana value", "en") == "mana valu"


def test_a_damaged_table_is_ignored(cache):
    T.terms("mana value", "en")
    T.save("en")
    (path,) = cache.glob("search/terms-en-*.marshal")
    path.write_bytes(b"\x00garbage")
    T._memo.cache_clear()
    assert T.terms("mana value", "en") == _whole("mana value", "en")


@pytest.mark.slow
def test_every_embedded_edition_keyed_as_by_the_whole_text(cache):
    """A spread of the embedded editions in the suite (all 110 with CRPIPE_TEST_ALL_EDITIONS=1)."""
    cat = default_catalog()
    for ref in edition_spread(cat.editions):
        texts = _texts(ref.parse())
        assert [T.terms(t, "en") for t in texts] == [_whole(t, "en") for t in texts], ref.stem

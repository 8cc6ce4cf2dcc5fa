"""Issue 26, item 5: each text is lemmatised for linking once; the cached lemmas are those
spaCy gives, and a text seen before is read back without spaCy."""

from __future__ import annotations

import pytest

from pipeline.link import text as T

TEXTS = ["Kicked creatures die; copies of it don't.", "The player's “mana value” — 601.2f (see rule 702.33d).",
         "", "Counters, attackers and blockers: second strike seconds."]


@pytest.fixture
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / "cache"))
    T._memo_path.cache_clear()
    T._memo.cache_clear()
    yield tmp_path / "cache"
    T._memo_path.cache_clear()
    T._memo.cache_clear()


def _spacy(texts):
    out = []
    for doc in T.nlp().pipe(T.normalise(t).lower() for t in texts):
        seq = []
        for t in doc:
            if T._WORD.search(t.text):
                seq.append(T.OVERRIDES.get(t.lower_, t.lemma_ or t.lower_))
            elif t.text in T._BREAKS and seq and seq[-1] != T.BOUNDARY:
                seq.append(T.BOUNDARY)
        out.append(seq)
    return out


def test_cached_lemmas_are_spacys_and_read_back_without_it(cache, monkeypatch):
    want = _spacy(TEXTS)
    assert T.lemma_lists(TEXTS + TEXTS[:1]) == want + want[:1]
    assert list(cache.glob("link-lemmas/en-*.marshal"))
    T._memo.cache_clear()

    def no_spacy():
        raise AssertionError("spaCy loaded for texts the cache holds")

    monkeypatch.setattr(T, "nlp", no_spacy)
    assert T.lemma_lists(TEXTS) == want


def test_stop_words_are_spacys():
    import spacy

    assert T.stopwords() == frozenset(w for w in spacy.blank("en").Defaults.stop_words if w not in T._KEEP) | {
        "'s", "n't", "'ll", "'re", "'ve", "'d"}

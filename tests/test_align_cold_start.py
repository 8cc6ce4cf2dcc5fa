"""What every ``crpipe align`` run needs, computed fast and the same as before (issue 24,
acceptance 6: the run on the real PO within 20 s CPU with empty caches).  Each faster path is
checked against the plain computation it replaces."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT

from pipeline.lexicon import spacy_stop_words


@pytest.mark.parametrize("lang", ["pt", "en", "es"])
def test_stop_words_read_by_path_are_spacys(lang):
    spacy_lang = pytest.importorskip(f"spacy.lang.{lang}.stop_words")
    assert spacy_stop_words(lang) == frozenset(spacy_lang.STOP_WORDS) and len(spacy_stop_words(lang)) > 100


def test_stop_words_do_not_import_spacy():
    pytest.importorskip("spacy")
    code = ("import sys; from pipeline.lexicon import spacy_stop_words; "
            "assert spacy_stop_words('pt'); print('spacy' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert r.stdout.strip() == "False"


def test_stop_words_of_a_language_spacy_lacks_are_empty():
    assert spacy_stop_words("xx-none") == frozenset()


# -- Hunspell: the C library's verdicts, without the pipe's suggestions -----------------------

def _dictionary():
    from pipeline.segment.hunspell import HunspellLibrary, dictionary_path

    stem = dictionary_path("pt")
    if stem is None:
        pytest.skip("no pt_BR Hunspell dictionary (Debian hunspell-pt-br)")
    lib = HunspellLibrary.start(stem)
    if lib is None:
        pytest.skip("the Hunspell C library (libhunspell) is not installed")
    return stem, lib


#: Known and unknown words of the PO's translations, the pipe's corner cases (case, accents,
#: ligatures, an over-long word).
WORDS = ["casa", "cartas", "grimório", "Não", "NÃO", "ativado", "ativada", "geralmente", "selecioandos",
         "differente", "supertipo", "subregra", "pudesser", "Mana", "MANA", "ﬁm", "Straße", "mãe", "aaaa" * 30]


def test_hunspell_library_agrees_with_the_command():
    import shutil

    from pipeline.segment.hunspell import HunspellPipe

    stem, lib = _dictionary()
    if shutil.which("hunspell") is None:
        pytest.skip("no hunspell command to compare with")
    pipe = HunspellPipe.start(stem)
    try:
        verdicts = [(w, lib.lookup(w)) for w in WORDS]
        assert verdicts == [(w, pipe.lookup(w)) for w in WORDS]
    finally:
        pipe.close()
    assert dict(verdicts)["grimório"] and not dict(verdicts)["selecioandos"]
    assert lib.lookup("a\x00b") is None and lib.lookup("\ud800") is None


def test_speller_asks_the_library_and_starts_no_process(tmp_path, monkeypatch):
    from pipeline.segment import hunspell

    _dictionary()
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path))

    def no_process(*_a, **_k):
        raise AssertionError("a hunspell process was started")

    monkeypatch.setattr(hunspell.HunspellPipe, "start", no_process)
    sp = hunspell.Speller("pt", hunspell.dictionary_path("pt"))
    assert "casa" in sp and "cartas" in sp and "selecioandos" not in sp
    assert isinstance(sp._cli, hunspell.HunspellLibrary)
    # CRPIPE_HUNSPELL_CLI=0 turns the C hunspell off, the library as the command.
    monkeypatch.setenv("CRPIPE_HUNSPELL_CLI", "0")
    assert hunspell.HunspellLibrary.start(hunspell.dictionary_path("pt")) is None


# -- the spelling lexicon: its cache holds the buckets --------------------------------------

def test_lexicon_read_from_its_cache_is_the_one_built(tmp_path, monkeypatch):
    from pipeline import lexicon as LX

    if not LX.lookups_table("en_lemma_lookup"):
        pytest.skip("spacy-lookups-data is not installed")
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path))
    LX._base_lexicon.cache_clear()
    try:
        built = LX._base_lexicon("en")
        assert list((tmp_path / "align-lexicons").iterdir())
        LX._base_lexicon.cache_clear()
        read = LX._base_lexicon("en")
    finally:
        LX._base_lexicon.cache_clear()
    assert read is not built
    ws, stop = LX._build_words("en")
    assert read.words == built.words == ws and read.function_words == built.function_words == frozenset(stop)
    # Every bucket holds the words of its first letter and length.
    assert {k: sorted(v) for k, v in read.buckets.items()} == {k: sorted(v) for k, v in built.buckets.items()}
    assert sum(map(len, read.buckets.values())) == len(ws)
    assert all(k == (w[:1], len(w)) for k, v in read.buckets.items() for w in v)
    # The search reads its buckets sorted, whatever order the cache kept: the first of equally
    # near words is the one a search over the words by length, then alphabetically, gives.
    shuffled = LX.Lexicon("en", read.words, buckets={k: sorted(v, reverse=True) for k, v in read.buckets.items()})
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    for w in ["creture", "spel", "tokn", "grat", "lnd", "mana", "cast", "tap"]:
        cands = sorted((c for c in ws if c[:1] == w[:1] and abs(len(c) - len(w)) <= 1), key=lambda c: (len(c), c))
        hit = process.extractOne(w, cands, scorer=OSA.distance, score_cutoff=1)
        assert shuffled.nearest(w) == read.nearest(w) == (hit[0] if hit else None), w
    assert read.nearest("creture") == "creature"


def test_brazilian_spellings_are_those_of_every_silent_letter_and_open_vowel():
    import re

    from pipeline.lexicon import _brazilian

    words = {"artefacto", "activado", "afectar", "académico", "adopção", "fénix", "económico", "casa",
             "pacto", "ténis", "cómodo", "capítulo", "óptimo", "acção"}
    # The plain definition: every word with its silent c/p dropped (when that changes it), and
    # with é/ó before m or n closed.
    want = {re.sub(r"c(?=[tç])|p(?=[tç])", "", w) for w in words} - words
    want |= {re.sub(r"ó(?=[mn])", "ô", re.sub(r"é(?=[mn])", "ê", w)) for w in words if "ó" in w or "é" in w}
    got = _brazilian(words)
    assert got - words == want - words and {"artefato", "ativado", "acadêmico", "econômico", "ótimo"} <= got


# -- term search: the literal prefilter never drops a match ---------------------------------

def _forms_of_the_termbase():
    from pipeline.align.termbase import load_termbase

    forms = set()
    for t in load_termbase().terms:
        forms.add(t.en)
        for group in (t.renderings, t.avoid):
            for v in group.values():
                forms.update(v)
        for f in t.formerly:
            forms.add(f.en)
            for v in f.renderings.values():
                forms.update(v)
    return sorted(forms)


def _unfiltered(text, form):
    from pipeline.align.termbase import term_regex

    return sorted({m.span() for m in term_regex(form).finditer(text)})


def test_term_literal_is_in_every_match_even_across_case_classes():
    from pipeline.align.termbase import _folded, find_all, term_literal

    assert term_literal("habilidade ativada") == "habilidade"  # the longest shared start of a word
    assert term_literal("conjur*") == "conjur" and term_literal("mana") == "man"
    assert term_literal("custo de mana convertido") == "convertid"
    # The regex engine matches "ſ" (long s) for "s", the Kelvin sign for "k", "İ" for "i": the
    # filter folds them alike, so it keeps every match the pattern finds.
    for text, form in [("uma Habilidade ATIVADA aqui", "habilidade ativada"), ("the ſtack", "stack"),
                       ("\u212aeyword", "keyword"), ("İnstant", "instant"), ("MANA", "mana"),
                       ("conjurá-lo", "conjur*"), ("efeitos de substituição", "efeito de substituição")]:
        assert find_all(text, (form,)) == _unfiltered(text, form) != [], (text, form)
        assert term_literal(form) in _folded(text)
    assert find_all("nada aqui", ("mana",)) == []


@pytest.mark.skipif(not (ROOT.parent / "shared" / "corpus" / "translations" / "pt-BR").is_dir(),
                    reason="the real PO is in ../shared")
def test_term_search_on_the_real_po_is_the_unfiltered_search():
    """Every term-base form over every unit of the real PO (source and translation): the
    filtered search finds exactly what the pattern alone finds."""
    from translate.storage import factory

    from pipeline.align.termbase import find_all

    po = ROOT.parent / "shared" / "corpus" / "translations" / "pt-BR" / "comprehensive-rules.pt-BR.po"
    texts = sorted({x for u in factory.getobject(str(po)).units for x in (u.source, u.target) if x})
    texts = texts[::4]  # a quarter of the units keeps the test fast (~600 k searches otherwise)
    forms = _forms_of_the_termbase()
    found = 0
    for text in texts:
        for form in forms:
            got = find_all(text, (form,))
            assert got == _unfiltered(text, form), (form, text[:80])
            found += bool(got)
    assert found > 1000  # the comparison is not vacuous


# -- pinning: each distinct line of the archive normalised once ------------------------------

def _plain_light_paragraphs(path):
    from pipeline.decode import decode_bytes
    from pipeline.io import read_bounded

    text = decode_bytes(read_bounded(path), path).text
    return frozenset(n for n in (" ".join(x.split()) for x in text.splitlines()) if n)


def test_light_paragraphs_are_each_lines_spaces_normalised(tmp_path):
    from pipeline.ingest.units import edition_paragraphs

    f = tmp_path / "e.txt"
    f.write_text("100.1. These  rules\tapply.\n\n  100.2 Indented \u00a0line \n100.1. These rules apply.\n"
                 "x\u2028y\x0bz\nend", encoding="utf-8")
    got = edition_paragraphs(f, light=True)
    assert got == _plain_light_paragraphs(f)
    assert {"100.1. These rules apply.", "100.2 Indented line", "x", "y", "z", "end"} == got


@pytest.mark.skipif(not (ROOT.parent / "shared" / "corpus" / "cr-en" / "txt").is_dir(), reason="needs ../shared")
def test_light_paragraphs_of_real_editions_are_the_plain_ones():
    from pipeline.ingest.units import edition_paragraphs

    eds = sorted((ROOT.parent / "shared" / "corpus" / "cr-en" / "txt").glob("*.txt"))
    for f in eds[::20]:  # a sample across the years (encodings, line endings)
        assert edition_paragraphs(f, light=True) == _plain_light_paragraphs(f), f.name

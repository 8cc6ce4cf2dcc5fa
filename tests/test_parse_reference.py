"""Issue 29, item 1: the fast official parser against its plain twin, the reference parser.

``pipeline/segment/official.py`` is written for speed; ``pipeline/segment/reference.py``
reads the same text line by line.  Both must give the same model (compared through
``Document.to_dict``, layouts included) on every English edition and on hand-written texts
that reach the layout's rare cases.  Separately, one sha256 over every edition's serialised
model is pinned here: a change of the parser's output, even one the reference shares, shows.

The editions are read from the archive embedded in the package (the same 110 files as
``../shared/corpus/cr-en/txt``), so these tests run on a fresh clone too.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import pytest

from crfixture import CLEAN_RULES, GLOSSARY, HEAD, document
from pipeline.editions.embedded import embedded
from pipeline.decode import decode_bytes
from pipeline.io import dumps
from pipeline.segment import official, reference

#: sha256 over every edition's name and serialised model (``dumps(doc.to_dict())``), in name
#: order.  Changes only when the parser's output changes: say why in the commit that updates it.
EDITIONS_MODEL_SHA256 = "11c5a8c7dff61285bdabd5ae9adc3479607999e5d2cacb5f53346f0720f05ba7"
EDITIONS_COUNT = 110


def _editions() -> list[str]:
    return embedded().names()


@functools.lru_cache(maxsize=1)
def _fast_models() -> dict[str, dict]:
    """Each edition's model as the fast parser gives it (parsed once for the tests below)."""
    arc = embedded()
    out = {}
    for name in _editions():
        data = arc.read(name)
        out[name] = official.parse_text(decode_bytes(data, name), source=Path(name), data=data).to_dict()
    return out


def _reference_model(name: str) -> dict:
    data = embedded().read(name)
    return reference.parse_text(decode_bytes(data, name), source=Path(name), data=data).to_dict()


def _first_difference(a: dict, b: dict) -> str:
    for key in a.keys() | b.keys():
        x, y = a.get(key), b.get(key)
        if x == y:
            continue
        if isinstance(x, list) and isinstance(y, list):
            for i, (u, v) in enumerate(zip(x, y)):
                if u != v:
                    return f"{key}[{i}]:\n fast      {u!r}\n reference {v!r}"
            return f"{key}: {len(x)} items (fast) against {len(y)} (reference)"
        return f"{key}:\n fast      {x!r}\n reference {y!r}"
    return "no difference"


def test_the_archive_holds_every_edition():
    assert len(_editions()) == EDITIONS_COUNT


@pytest.mark.slow
def test_fast_parser_gives_the_reference_model_on_every_edition():
    fast = _fast_models()
    differ = []
    for name in _editions():
        ref = _reference_model(name)
        if ref != fast[name]:
            differ.append(f"{name}: {_first_difference(fast[name], ref)}")
    assert not differ, "\n".join(differ[:5])


def test_every_editions_model_is_unchanged():
    """(~12 s CPU: not slow-marked.  The reference comparison above, ~20 s more, is.)"""
    h = hashlib.sha256()
    for name, model in _fast_models().items():
        h.update(name.encode())
        h.update(dumps(model).encode())
    assert h.hexdigest() == EDITIONS_MODEL_SHA256


# -- hand-written texts: the layout's rare cases -------------------------------------------
def _doc(rules: list[str], glossary: str = GLOSSARY, credits: str = "Credits\n\nTest Author\n") -> str:
    return HEAD + "1. Game Concepts\n\n" + "\n\n".join(rules) + "\n" + glossary + credits


WRAPPED = [
    "100. General",
    "100.1. These rules apply to games, and this sentence is long enough to be\nwrapped onto a second line of the text",
    "100.2. A wrapped reference to a rule: see rule\n100.1. which stays inside this paragraph, and a reference\n"
    "105.5. that does not continue the numbering",
    "100.3. Another rule\nwrapped here\nand here.",
    "Example: an example\nwrapped too.",
    "101. Numbers",
    "101.1. Numbers are integers, written with digits, as many as needed for the\nnumber they stand for.",
]

CASES = {
    "clean": document(),
    "no glossary, no credits": document(glossary=False),
    "no credits": document(credits=False),
    "hard-wrapped": _doc(WRAPPED),
    "number typo (606. 8b)": _doc(["100. General", "100.7. Seven.", "100. 8b Eight b.", "100. 8 Eight.",
                                   "100. 9x Not a typo: skips none but has a letter.", "100. 12 Too far."]),
    "stray and unnumbered lines": _doc(["100. General", "100.1. One.\nf", "100.2. Two.\n\nA second paragraph.",
                                        "100.3. Three.\n  an indented continuation\n\n\n  after two blank lines"]),
    "repeated numbers and parents out of order": _doc(["100. General", "100.1a Before its parent.", "100.1. One.",
                                                       "100.1a Again.", "100.1. One again.", "100.1b After.",
                                                       "101.2. Before 101.", "101. Numbers", "101.1. One."]),
    "non-canonical numbers": _doc(["100. General", "100.01. A leading zero.", "100.01a Its letter.",
                                   "100.0. Zero.", "100.2.Dot and capital.", "100.3 No dot.",
                                   "100.4.\tA tab.", "100.5a\tA letter and tab."]),
    "sections out of order and examples": _doc(["100. General", "100.1. One.", "3. Not next",
                                                 "2. Second section", "Example: after a section heading.",
                                                 "  Example: indented.", "Example: trailing blanks.   ",
                                                 "200. Two hundred", "200.1. Text.   ", "  200.2. Indented."]),
    "blank-line variations": HEAD + "1. Game Concepts\n100. General\n\n\n100.1. Two blank lines above.\n \t\n"
    "100.2. A blank line of spaces above.\n100.3. No blank line above.\n\n\n\nGlossary\n\n\n\nMana\n\n"
    "Term Alone\n\nLong Term\nFirst line of it.\nSecond line 100.2, see 100.1 and 100.10a.\n \nCredits\n\nX\n",
    "glossary runs to the end": HEAD + "1. Game Concepts\n\n100. General\n\n100.1. One.\n\nGlossary\n\nMana\n"
    "The mana. See rules 100.1, 100.1, 101.2b and 100.1a.\n\n  \n",
    "empty glossary": HEAD + "1. Game Concepts\n\n100. General\n\n100.1. One.\nGlossary\nCredits\n",
    "without title lines": "\n\n" + HEAD.replace("These rules are effective as of March 3, 2031.\n", "")
    .replace("Introduction\n", "") + "1. Game Concepts\n\n" + "\n\n".join(CLEAN_RULES) + "\n" + GLOSSARY + "Credits",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_fast_parser_gives_the_reference_model_on_hand_written_texts(case):
    text = CASES[case]
    fast = official.parse_text(text).to_dict()
    ref = reference.parse_text(text).to_dict()
    assert fast == ref, _first_difference(fast, ref)


def test_the_hand_written_texts_reach_the_rare_cases():
    """The cases above are worth comparing only if they take the parser's rare paths."""
    kinds = {f.kind for text in CASES.values() for f in official.parse_text(text).findings}
    assert {"malformed-number", "stray-line", "unnumbered-paragraph", "truncated"} <= kinds
    wrapped = official.parse_text(CASES["hard-wrapped"])
    assert wrapped.rule("100.2").text.count("100.1.") == 1 and wrapped.rule("105.5") is None
    assert any(r.layout.breaks for r in wrapped.rules)


DATA = Path(__file__).resolve().parent / "data"
#: The official-layout texts among the test data (made-up editions of the update tests).
DATA_TEXTS = sorted(p.relative_to(DATA).as_posix() for p in DATA.rglob("*.txt")
                    if official.looks_official(p.read_text(encoding="utf-8", errors="replace")))


def test_the_test_data_holds_official_texts():
    assert len(DATA_TEXTS) >= 2


@pytest.mark.parametrize("rel", DATA_TEXTS)
def test_fast_parser_gives_the_reference_model_on_the_test_data(rel):
    p = DATA / rel
    data = p.read_bytes()
    fast = official.parse_text(decode_bytes(data, p), source=p, data=data).to_dict()
    ref = reference.parse_text(decode_bytes(data, p), source=p, data=data).to_dict()
    assert fast == ref, _first_difference(fast, ref)


@pytest.mark.parametrize("name", ["2025-11-14.txt"])
def test_a_file_on_disk_gives_the_same_model_as_its_bytes(name, tmp_path):
    """``source``'s sha256 and name come from the file when no bytes are given."""
    p = tmp_path / name
    p.write_bytes(embedded().read(name))
    dec = decode_bytes(p.read_bytes(), p)
    assert official.parse_text(dec, source=p).to_dict() == reference.parse_text(dec, source=p).to_dict()

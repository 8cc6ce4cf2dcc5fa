"""Issue 26, G4: rulings and card files that are valid JSON but not valid rulings — a lone
surrogate escape, a 5,000-digit integer, wrongly typed fields, a "ruling" of a million
characters — are one line and exit 2 (or read, skipping what is wrongly typed), never a
traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, with_value_at
from pipeline.errors import InputError
from pipeline.rulings import load_card_index, read_rulings


def v3(*texts: str) -> dict:
    return {"code": "XX", "name": "Test", "cards": [
        {"name": "Grizzly Bears", "layout": "normal", "rulings": [{"date": "2017-04-18", "text": t} for t in texts]}]}


V5_CARD = {"name": "Grizzly Bears", "faceName": "Grizzly Bears", "layout": "normal", "text": "Vanilla.",
           "identifiers": {"scryfallOracleId": "abc"}, "foreignData": [{"language": "Spanish", "name": "Osos"}],
           "rulings": [{"date": "2017-04-18", "text": "Combat damage is dealt."}]}
SHAPES = {
    "v3": v3("Combat damage is dealt."),
    "v3-allsets": {"XX": v3("Combat damage is dealt."), "YY": v3("It deals damage.")},
    "v5-set": {"meta": {"version": "5"}, "data": {"cards": [V5_CARD]}},
    "v5-atomic": {"meta": {"version": "5"}, "data": {"Grizzly Bears": [V5_CARD]}},
    "v5-printings": {"meta": {"version": "5"}, "data": {"XX": {"cards": [V5_CARD]}}},
    "scryfall": {"object": "list", "data": [{"object": "ruling", "oracle_id": "abc", "source": "wotc",
                                             "published_at": "2017-04-18", "comment": "Combat damage."}]},
}
WRONG = ["a string", 5, None, [1], {"a": 1}, 1.5, True, [], {}]


def _paths(o, pre=()):
    if isinstance(o, dict):
        items = o.items()
    elif isinstance(o, list):
        items = enumerate(o)
    else:
        return
    for k, v in items:
        yield pre + (k,)
        yield from _paths(v, pre + (k,))


def write(tmp_path, obj, name="r.json"):
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return p


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_field_wrongly_typed_is_read_or_refused_in_one_line(tmp_path, shape):
    """Each field of each shape replaced by each wrong type: read (the field treated as absent)
    or an InputError — before, ``"rulings": 5``, a list as a face name or an oracle id, a
    number as a language were TypeErrors and AttributeErrors."""
    doc = SHAPES[shape]
    cases = 0
    for path in _paths(doc):
        for bad in WRONG:
            d = with_value_at(doc, path, bad)
            p = write(tmp_path, d)
            for read in (read_rulings, lambda f: load_card_index([f])):
                try:
                    read(p)
                except InputError as e:
                    assert "\n" not in str(e)
                cases += 1
    assert cases > 100


def test_a_v5_card_whose_rulings_is_a_string_keeps_the_other_cards_rulings(tmp_path):
    other = {**V5_CARD, "name": "Hill Giant", "faceName": "Hill Giant",
             "rulings": [{"date": "2018-01-01", "text": "It is a giant."}]}
    obj = {"meta": {"version": "5"}, "data": {"cards": [{**V5_CARD, "rulings": "Combat damage is dealt."}, other]}}
    rs = read_rulings(write(tmp_path, obj))
    assert [(r.card.name, r.text) for r in rs.rulings] == [("Hill Giant", "It is a giant.")]


def test_lone_surrogate_escape_is_refused_but_a_pair_and_an_escaped_backslash_are_text(tmp_path):
    lone = write(tmp_path, json.dumps(v3("Line one.", "It dies \ud800 here.")))  # json.dumps writes \ud800
    with pytest.raises(InputError, match=r"lone surrogate escape \(\\ud800\)"):
        read_rulings(lone)
    with pytest.raises(InputError, match="lone surrogate"):
        load_card_index([lone])
    pair = read_rulings(write(tmp_path, json.dumps(v3("A smile \U0001F600 here.")), "pair.json"))
    assert pair.rulings[0].text == "A smile \U0001F600 here."
    escaped = read_rulings(write(tmp_path, json.dumps(v3("A path C:\\ud800 here.")), "bs.json"))
    assert escaped.rulings[0].text == "A path C:\\ud800 here."


def test_a_5000_digit_integer_is_refused(tmp_path):
    text = json.dumps(v3("Combat damage is dealt."))[:-1] + ', "number": ' + "1" * 5000 + "}"
    with pytest.raises(InputError, match="more than 4,300 digits"):
        read_rulings(write(tmp_path, text))


def test_a_ruling_over_the_bound_is_refused_one_under_it_is_read(tmp_path):
    from pipeline.rulings.reader import MAX_RULING_CHARS

    with pytest.raises(InputError, match=r"a ruling of 1,000,001 characters \(card 'Grizzly Bears', ruling 2\)"):
        read_rulings(write(tmp_path, v3("Short.", "x" * 1_000_001)))
    paste = write(tmp_path, "Grizzly Bears\n2017-04-18\n" + "word " * 300_000 + "\n", "paste.txt")
    with pytest.raises(InputError, match="characters"):
        read_rulings(paste)
    ok = read_rulings(write(tmp_path, v3("y" * MAX_RULING_CHARS), "ok.json"))
    assert len(ok.rulings[0].text) == MAX_RULING_CHARS


@pytest.mark.parametrize("name,content,message", [
    ("surrogate.json", json.dumps(v3("It dies \ud800 here.")), "lone surrogate escape"),
    ("bigint.json", json.dumps(v3("Combat damage."))[:-1] + ', "n": ' + "7" * 5000 + "}", "digits"),
    ("huge.json", json.dumps(v3("damage " * 150_000)), "1,049,999 characters"),
])
def test_link_cli_one_line_exit_2(tmp_path, name, content, message):
    p = write(tmp_path, content, name)
    out = tmp_path / "links.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CRPIPE_MIRROR": ""}
    r = subprocess.run([sys.executable, "-m", "pipeline.cli", "link", str(p), "--json", str(out)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.startswith(f"crpipe: error: {p}: ") and message in r.stderr
    assert not out.exists()

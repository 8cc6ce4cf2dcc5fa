"""Rulings readers: seed paste, MTGJSON v3/v5, Scryfall list and bulk, dates, bad input."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, strategies as st
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.errors import InputError
from pipeline.rulings import load_card_index, read_rulings
from pipeline.rulings.dates import decide_order, parse_date
from pipeline.rulings.paste import split_paste

from conftest import SHARED, needs_shared

DATA = Path(__file__).parent / "data"
MTGJSON3 = SHARED / "corpus" / "rulings" / "mtgjson3"
needs_mtgjson = pytest.mark.skipif(not MTGJSON3.is_dir(), reason=f"MTGJSON v3 files not found at {MTGJSON3}")


# -- acceptance 1: the seed paste ---------------------------------------------------------

@needs_mtgjson
def test_seed_paste_resolves_card_and_dates(seed_path):
    # Refuse // Cooperate is an Hour of Devastation card: HOU.json holds its foreign names.
    idx = load_card_index([MTGJSON3 / "HOU.json"])
    rs = read_rulings(seed_path("002"), cards=idx)
    assert rs.format == "paste"
    assert len(rs.rulings) == 19
    assert {r.card.name for r in rs.rulings} == {"Refuse // Cooperate"}
    card = rs.rulings[0].card
    assert card.faces == ("Refuse", "Cooperate") and card.layout == "aftermath" and card.resolved
    assert card.localized_name("pt") == "Recusar // Cooperar"
    assert rs.rulings[0].date == "2017-07-14"  # 14/07/2017, day first
    assert rs.rulings[-1].date == "2017-04-18"
    assert [r.position for r in rs.rulings] == list(range(19))
    assert rs.rulings[0].text == "Cooperate can copy any instant or sorcery spell, not just one with targets."
    assert any("resolved to 'Refuse // Cooperate'" in n for n in rs.notes)


def test_seed_paste_without_cards_keeps_the_localized_name(seed_path):
    rs = read_rulings(seed_path("002"))
    assert len(rs.rulings) == 19
    card = rs.rulings[0].card
    assert card.name == "Recusar // Cooperar" and not card.resolved and card.faces == ("Recusar", "Cooperar")


# -- acceptance 2: every source ------------------------------------------------------------

@needs_mtgjson
def test_all_mtgjson3_files_parse():
    files = sorted(MTGJSON3.glob("*.json"))
    assert len(files) == 18
    total = 0
    for f in files:
        rs = read_rulings(f)
        assert rs.format == "mtgjson3"
        assert all(r.date and len(r.date) == 10 and r.text for r in rs.rulings)
        total += len(rs.rulings)
    assert total == 10_279


@needs_mtgjson
def test_mtgjson3_split_faces_make_one_card():
    rs = read_rulings(MTGJSON3 / "HOU.json")
    refuse = [r for r in rs.rulings if r.card.name == "Refuse // Cooperate"]
    assert len(refuse) == 19
    assert refuse[0].card.localized_name("pt") == "Recusar // Cooperar"
    assert "Aftermath" in refuse[0].card.text


def test_scryfall_list_object():
    idx = load_card_index([DATA / "rulings-mtgjson5-atomic.json"])
    rs = read_rulings(DATA / "rulings-scryfall-list.json", cards=idx)
    assert rs.format == "scryfall-list"
    assert [(r.card.name, r.date, r.source, r.position) for r in rs.rulings] == [
        ("Defy // Comply", "2017-04-18", "scryfall:wotc", 0), ("Defy // Comply", "2021-04-16", "scryfall:scryfall", 1)]


def test_scryfall_bulk_without_cards_names_the_oracle_id():
    rs = read_rulings(DATA / "rulings-scryfall-bulk.json")
    assert rs.format == "scryfall-bulk" and len(rs.rulings) == 3
    assert rs.rulings[1].card.name == "oracle:0a1b2c3d-0000-4000-8000-000000000002"
    assert not rs.rulings[1].card.resolved


def test_mtgjson5_atomic_cards():
    rs = read_rulings(DATA / "rulings-mtgjson5-atomic.json")
    assert rs.format == "mtgjson5"
    # v5 repeats a card's rulings on each face: kept once.
    assert [(r.card.name, r.text[:20]) for r in rs.rulings] == [
        ("Defy // Comply", "A spell with afterma"), ("Defy // Comply", "Each split card has "),
        ("Stinging Wasp", "Deathtouch applies t")]
    defy = rs.rulings[0].card
    assert defy.layout == "aftermath" and defy.localized_name("pt") == "Desafiar // Obedecer"
    assert defy.oracle_id == "0a1b2c3d-0000-4000-8000-000000000001"


def test_mtgjson5_allprintings_shape(tmp_path):
    atomic = json.loads((DATA / "rulings-mtgjson5-atomic.json").read_text(encoding="utf-8"))
    cards = [c for k in atomic["data"] for c in atomic["data"][k]]
    p = tmp_path / "AllPrintings.json"
    p.write_text(json.dumps({"meta": atomic["meta"], "data": {"AKH": {"code": "AKH", "cards": cards}}}), encoding="utf-8")
    rs = read_rulings(p)
    assert rs.format == "mtgjson5" and len(rs.rulings) == 3


def test_paste_month_first_and_iso_on_one_line():
    idx = load_card_index([DATA / "rulings-mtgjson5-atomic.json"])
    rs = read_rulings(DATA / "rulings-paste-mdy.txt", cards=idx)
    assert [r.date for r in rs.rulings] == ["2017-04-18", "2018-01-19"]
    # Wrapped lines of one ruling are joined.
    assert rs.rulings[0].text.startswith("Each split card has two names. If an effect instructs you to choose a card name, you may")
    assert rs.rulings[0].card.name == "Defy // Comply"


# -- dates: decided per document ---------------------------------------------------------------

def test_ambiguous_dates_follow_the_document_not_the_line(tmp_path):
    p = tmp_path / "paste.txt"
    p.write_text("Some Card\n\n05/06/2017\nFirst.\n\n25/06/2017\nSecond.\n", encoding="utf-8")
    rs = read_rulings(p)
    assert [r.date for r in rs.rulings] == ["2017-06-05", "2017-06-25"]


def test_ambiguous_dates_use_the_card_language_hint(tmp_path):
    p = tmp_path / "paste.txt"
    p.write_text("Some Card\n\n05/06/2017\nFirst.\n", encoding="utf-8")
    assert read_rulings(p, card_lang="pt").rulings[0].date == "2017-06-05"
    assert read_rulings(p).rulings[0].date == "2017-05-06"


def test_contradicting_dates_are_an_error(tmp_path):
    p = tmp_path / "paste.txt"
    p.write_text("Card\n\n25/06/2017\nOne.\n\n06/25/2017\nTwo.\n", encoding="utf-8")
    with pytest.raises(InputError, match="mix day-first and month-first"):
        read_rulings(p)


@given(st.lists(st.dates(min_value=date(1993, 1, 1), max_value=date(2030, 12, 31)), min_size=1, max_size=12),
       st.sampled_from(["dmy", "mdy"]))
def test_dates_round_trip_per_document(days, order):
    lines = [d.strftime("%d/%m/%Y" if order == "dmy" else "%m/%d/%Y") for d in days]
    # One order per document: a day above 12 settles it, otherwise the hint does.
    got, _ = decide_order(lines, hint=order)
    assert got == order
    assert [parse_date(x, got) for x in lines] == [d.isoformat() for d in days]
    other = "mdy" if order == "dmy" else "dmy"
    if any(d.day > 12 for d in days):
        assert decide_order(lines, hint=other)[0] == order


@given(st.lists(st.text(alphabet="abc XYZ.,'\n", min_size=1, max_size=40), min_size=1, max_size=6))
def test_split_paste_keeps_every_text_line(texts):
    body = "".join(f"2020-01-0{i % 9 + 1}\n{t}\n" for i, t in enumerate(texts))
    p = split_paste("Card\n" + body)
    assert p.card_name == "Card" and len(p.blocks) == len(texts)
    for b, t in zip(p.blocks, texts):
        assert b.text.split() == t.split()


# -- acceptance 6: bad input ---------------------------------------------------------------------

@pytest.mark.parametrize("content, message", [
    (b"", "empty rulings file"),
    (b"  \n\n", "empty rulings file"),
    (b'{"object": "card", "name": "Island"}', "JSON of another shape"),
    (b'[{"date": "2017-01-01", "text": "x"}]', "JSON of another shape"),
    (b'{"object": "list", "data": [{"object": "ruling", "comm', "invalid or truncated JSON"),
    (b"Recusar // Cooperar\n\nCooperate can copy any instant or sorcery spell.\n", "no date lines"),
    (b"\x00\x01\x02\xff\xfe binary \x00junk", "binary"),
    (b'{"meta": {}, "data": {"X": []}}', "holds no rulings"),
])
def test_bad_input_is_one_clear_error(tmp_path, content, message):
    p = tmp_path / "rulings.dat"
    p.write_bytes(content)
    with pytest.raises(InputError, match=message) as e:
        read_rulings(p)
    assert e.value.path == str(p)


def test_missing_file_and_bad_card_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_rulings(tmp_path / "nope.txt")
    bad = tmp_path / "cards.json"
    bad.write_text('{"object": "list", "data": []}', encoding="utf-8")
    with pytest.raises(InputError, match="not an MTGJSON card file"):
        load_card_index([bad])


@needs_shared
def test_cli_bad_rulings_exit_2_and_nothing_written(tmp_path):
    p = tmp_path / "empty.txt"
    p.write_bytes(b"")
    out = tmp_path / "links.json"
    res = CliRunner().invoke(app, ["link", str(p), "--rules", str(SHARED / "corpus/cr-en/txt/2025-11-14.txt"),
                                   "--json", str(out)])
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [f"crpipe: error: {p}: empty rulings file"]
    assert not out.exists() and "Traceback" not in res.output


def test_mtgjson3_allsets_shape(tmp_path):
    card = {"name": "Dusk", "names": ["Dusk", "Dawn"], "layout": "aftermath", "text": "Destroy all creatures.",
            "foreignNames": [{"language": "Spanish", "name": "Ocaso"}],
            "rulings": [{"date": "2017-04-18", "text": "Each split card is a single card."}]}
    other = {"name": "Dawn", "names": ["Dusk", "Dawn"], "layout": "aftermath",
             "foreignNames": [{"language": "Spanish", "name": "Alba"}], "rulings": []}
    p = tmp_path / "AllSets.json"
    p.write_text(json.dumps({"AKH": {"code": "AKH", "cards": [card, other]}}), encoding="utf-8")
    rs = read_rulings(p)
    assert rs.format == "mtgjson3"
    (r,) = rs.rulings
    assert r.card.name == "Dusk // Dawn" and r.card.localized_name("es") == "Ocaso // Alba"
    assert load_card_index([p]).resolve("ocaso // alba").name == "Dusk // Dawn"

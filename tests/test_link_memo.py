"""Remembered links (pipeline/link/memo.py): a hit is exactly what ranking would give, a
ruling is ranked again when anything it depends on changes, and the linker is not built
when every ruling was linked before.  Runs on the embedded newest edition: no ../shared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.editions.catalog import load_edition
from pipeline.link import memo as memo_mod
from pipeline.link.index import build_index
from pipeline.link.linker import Linker
from pipeline.link.run import link_set, links_to_dict
from pipeline.rulings import read_rulings

CARDS = {
    "Gideon's Sacrifice": ("instant", "Choose creature or planeswalker. The next time damage would be dealt to the "
                                      "chosen permanent this turn, that damage is dealt to target creature or "
                                      "planeswalker you control instead.", [
        "If the chosen permanent leaves the battlefield before damage would be dealt to it, the effect does nothing.",
        "The damage is redirected only once, even if more than one source deals damage at the same time.",
    ]),
    "Liliana's Triumph": ("instant", "Each opponent sacrifices a creature.", [
        "Each opponent chooses a creature they control at the same time, then those creatures are sacrificed.",
        "If an opponent controls no creatures, that player doesn't sacrifice anything.",
    ]),
    "Defy // Comply": ("aftermath", "Aftermath (Cast this spell only from your graveyard. Then exile it.)", [
        "A spell with aftermath cast from a graveyard is exiled when it leaves the stack.",
        "Each split card has two names. If an effect instructs you to choose a card name, you may choose one.",
    ]),
}


def _write(path: Path, cards: dict) -> Path:
    data = {name: [{"name": name, "layout": layout, "text": text,
                    "rulings": [{"date": "2019-05-03", "text": t} for t in rulings]}]
            for name, (layout, text, rulings) in cards.items()}
    path.write_text(json.dumps({"meta": {"date": "2026-01-01", "version": "5.2.2"}, "data": data}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def doc():
    return load_edition("latest")


@pytest.fixture(scope="module")
def linker(doc):
    return Linker(build_index(doc))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _dump(rs, links, doc) -> str:
    return json.dumps(links_to_dict(rs, links, doc), sort_keys=True)


def _never():
    raise AssertionError("the linker was built although every ruling was linked before")


def test_a_remembered_link_is_what_ranking_gives(tmp_path, cache, doc, linker):
    rs = read_rulings(_write(tmp_path / "set.json", CARDS))
    fresh, note0 = link_set(lambda: linker, rs, doc, top=5, explain=5, remember=False)
    first, note1 = link_set(lambda: linker, rs, doc, top=5, explain=5)
    again, note2 = link_set(_never, rs, doc, top=5, explain=5)
    assert _dump(rs, fresh, doc) == _dump(rs, first, doc) == _dump(rs, again, doc)
    assert note0 == note1 == note2
    assert all(len(lr.candidates) == 5 for lr in again)
    assert [type(c.score) for lr in again for c in lr.candidates] == [float] * 30
    assert len(list((cache / "link-memo").iterdir())) == 1


def test_only_new_rulings_are_ranked_and_a_changed_card_context_ranks_again(tmp_path, cache, doc, linker):
    two = {k: CARDS[k] for k in ("Gideon's Sacrifice", "Liliana's Triumph")}
    link_set(lambda: linker, read_rulings(_write(tmp_path / "two.json", two)), doc)
    # A third card, and one more ruling on Liliana's Triumph: its other ruling's context changed.
    grown = dict(CARDS)
    layout, text, rulings = grown["Liliana's Triumph"]
    grown["Liliana's Triumph"] = (layout, text, rulings + ["If you control a legendary planeswalker named Liliana, "
                                                           "each opponent also discards a card."])
    rs = read_rulings(_write(tmp_path / "grown.json", grown))
    ranked: list[str] = []

    class Spy:
        ranker = linker.ranker

        def link_texts(self, texts, *a, **k):
            ranked.extend(texts)
            return linker.link_texts(texts, *a, **k)

    got, _ = link_set(Spy, rs, doc)
    fresh, _ = link_set(lambda: linker, rs, doc, remember=False)
    assert _dump(rs, got, doc) == _dump(rs, fresh, doc)
    # Gideon's rulings were remembered; Liliana's (new context) and Defy's were ranked.
    assert sorted(ranked) == sorted(grown["Liliana's Triumph"][2] + grown["Defy // Comply"][2])


def test_other_settings_and_a_damaged_memo_rank_again(tmp_path, cache, doc, linker):
    rs = read_rulings(_write(tmp_path / "set.json", CARDS))
    five, _ = link_set(lambda: linker, rs, doc, top=5)
    three, _ = link_set(lambda: linker, rs, doc, top=3)
    assert [len(lr.candidates) for lr in three] == [3] * 6
    assert [c.rule for c in three[0].candidates] == [c.rule for c in five[0].candidates][:3]
    assert len(list((cache / "link-memo").iterdir())) == 2
    for f in (cache / "link-memo").iterdir():
        f.write_bytes(b"\x00garbage")
    again, _ = link_set(lambda: linker, rs, doc, top=5)
    assert _dump(rs, again, doc) == _dump(rs, five, doc)


def test_the_memo_keeps_its_newest_entries(tmp_path, cache, doc, linker, monkeypatch):
    monkeypatch.setattr(memo_mod, "MAX_ENTRIES", 3)
    rs = read_rulings(_write(tmp_path / "set.json", CARDS))
    link_set(lambda: linker, rs, doc)
    m = memo_mod.LinkMemo(doc, 5, 1)
    assert len(m.table) == 4 and m.note == linker.ranker.carry_note  # three rulings and the note


def test_cli_second_link_reads_the_memo_and_writes_the_same(tmp_path, cache):
    src = _write(tmp_path / "set.json", CARDS)
    runner = CliRunner()
    outs = []
    for i in range(2):
        r = runner.invoke(app, ["link", str(src), "--json", str(tmp_path / f"l{i}.json")])
        assert r.exit_code == 0, r.output
        outs.append((tmp_path / f"l{i}.json").read_bytes())
    assert outs[0] == outs[1]
    assert len(json.loads(outs[0])["links"]) == 6

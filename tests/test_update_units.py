"""Issue 24, item 9: the update file of a bilingual input keeps the team's own units.

``crpipe align TEAM.po --po OUT.po`` (and ``--xliff``) gives back the team's file brought to the
current English edition: one unit per English paragraph as the team segments it, the same header,
comments, flags and ids, msgid = the current English, the translation carried (fuzzy with the
previous msgid where the English changed), removed paragraphs obsolete, new ones added empty.

A small fixture (two made-up editions and a Crowdin-style PO / an XLIFF 2.0 of them, in
``tests/data/update-units``) always runs; the real pt-BR PO of the 2020-11-20 CR runs when
``../shared`` is there.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from conftest import EDITIONS, ROOT, SHARED

pypo = pytest.importorskip("translate.storage.pypo", reason="translate-toolkit is not installed")

DATA = ROOT / "tests" / "data" / "update-units"
PO = SHARED / "corpus" / "translations" / "pt-BR" / "comprehensive-rules.pt-BR.po"
needs_po = pytest.mark.skipif(not (PO.is_file() and EDITIONS.is_dir()), reason=f"the real pt-BR PO is not at {PO}")
NS2 = "urn:oasis:names:tc:xliff:document:2.0"
MSGFMT = shutil.which("msgfmt")


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})


def _units(data: bytes) -> list:
    return [u for u in pypo.pofile.parsestring(data).units if not u.isheader()]


def _comments(u) -> list[str]:
    return [*u.othercomments, *u.automaticcomments, *u.sourcecomments, *u.typecomments]


def _msgfmt_ok(path: Path) -> None:
    if MSGFMT is None:
        pytest.skip("gettext's msgfmt is not installed")
    r = subprocess.run([MSGFMT, "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.fixture(scope="module")
def editions(tmp_path_factory) -> Path:
    # A copy: the edition archive may keep its diff cache next to the editions.
    d = tmp_path_factory.mktemp("editions")
    for f in DATA.glob("2031-*.txt"):
        shutil.copy(f, d / f.name)
    return d


@pytest.fixture(scope="module")
def fixture_update(editions, tmp_path_factory):
    """The fixture PO updated to the current edition by the CLI, and its plan in-process."""
    from pipeline.align.run import align_file

    src = DATA / "team.pt-BR.po"
    po, xlf = _update(src, editions, tmp_path_factory.mktemp("update"))
    return src, po, xlf, align_file(src, editions)


def _update(src: Path, reference: Path, tmp_path: Path, name: str = "out"):
    po, xlf = tmp_path / f"{name}.po", tmp_path / f"{name}.xlf"
    r = _cli("align", src, "--reference", reference, "--po", po, "--xliff", xlf, "--fail-on", "never")
    assert r.returncode == 0, r.stderr
    return po, xlf


# -- the fixture PO ------------------------------------------------------------------------------

def test_fixture_po_update_to_the_current_edition(fixture_update):
    src, po, _, res = fixture_update
    data = po.read_bytes()
    inp, out = _units(src.read_bytes()), _units(data)
    by_id = {u.source: u for u in out if not u.isobsolete()}
    # The header as the team's platform wrote it, nothing added.
    assert data.split(b"\n\n", 1)[0] == src.read_bytes().split(b"\n\n", 1)[0]
    # An unchanged unit: exactly as it was, comments and location included; a fuzzy one stays fuzzy.
    intro = by_id["A made-up edition for tests."]
    assert intro.target == "Uma edição inventada para testes." and not intro.isfuzzy()
    assert intro.getlocations() == ["intro.txt:7"] and "the introduction's only paragraph" in intro.getnotes()
    assert by_id["100.1a A two-player game has two players."].isfuzzy()
    assert by_id["Example: Alice plays Bob."].target == "Exemplo: Alice joga contra Bob."
    # English changed: the current English, the translation carried, fuzzy with the old msgid.
    frac = by_id["101.1a Fractions always round down."]
    assert frac.isfuzzy() and frac.prev_source == "101.1a Fractions round down."
    assert frac.target == "101.1a Frações são arredondadas para baixo."
    # Renumbered: the unit's own number and its references pre-applied, a translator comment says so.
    moved = by_id["100.3. Players need decks of sixty cards."]
    assert moved.isfuzzy() and moved.prev_source == "100.2. Players need decks of sixty cards."
    assert moved.target.startswith("100.3. Os jogadores") and "100.2 → 100.3" in moved.getnotes("translator")
    cite = by_id["101.1. Numbers are integers. See rule 100.3."]
    assert cite.target == "101.1. Números são inteiros. Veja a regra 100.3." and cite.isfuzzy()
    # Untranslated stays untranslated, with the current English, not fuzzy.
    cred = by_id["Test Author and Another Author"]
    assert cred.target == "" and not cred.isfuzzy()
    # New paragraphs: empty, in document order (after the paragraph before them).
    order = [u.source for u in out if not u.isobsolete()]
    new_rule = "100.2. Each player may use dice and tokens to keep track of counters during the game."
    assert by_id[new_rule].target == ""
    assert order.index("100.1b A multiplayer game has more.") + 1 == order.index(new_rule)
    assert order.index(new_rule) + 1 == order.index("100.3. Players need decks of sixty cards.")
    assert order[order.index("New Term") - 1].startswith("The total amount of mana")
    assert order[order.index("New Term") + 1] == "A term this edition adds. See rule 100.2."
    # Removed: obsolete, with its translation; the input's own obsolete entry kept.
    obs = {u.source: u for u in out if u.isobsolete()}
    assert obs["Old Term"].target == "Termo Antigo" and "An old paragraph." in obs
    # No unit lost, the input's order kept: the plan's units, in input order, are the output's
    # units once the new paragraphs are taken out; each translation as it was or renumbered.
    plan = res.unit_update
    fresh = {n.source for n in plan.new}
    assert len(out) == len(inp) + len(plan.new) == len(inp) + 3
    assert len(plan.changes) == len([u for u in inp if not u.isobsolete()])
    kept_live = [c.source for c in plan.changes if c.fate.value not in ("removed", "merged")]
    assert [u.source for u in out if not u.isobsolete() and u.source not in fresh] == kept_live
    carried = {(u.prev_source or u.source): u for u in out if u.target}
    for u in inp:
        if u.target:
            v = carried[u.source]
            assert v.target == u.target or (v.isfuzzy() and "renumbered" in v.getnotes("translator")), u.source
    _msgfmt_ok(po)


def test_fixture_po_update_to_the_base_edition_is_the_input(editions, tmp_path):
    src = DATA / "team.pt-BR.po"
    po, xlf = _update(src, editions / "2031-03-03.txt", tmp_path)
    assert po.read_bytes() == src.read_bytes()
    units = etree.fromstring(xlf.read_bytes()).findall(f".//{{{NS2}}}unit")
    assert len(units) == len([u for u in _units(src.read_bytes()) if not u.isobsolete()])


def test_fixture_update_is_deterministic(fixture_update):
    # The CLI's process and this one (another hash seed) write the same bytes.
    from pipeline.report.update_po import render_update_po
    from pipeline.report.xliff import render_xliff

    _, po, xlf, res = fixture_update
    assert render_update_po(res) == po.read_bytes() and render_xliff(res) == xlf.read_bytes()


def test_fixture_xliff_from_po_keeps_every_unit(fixture_update):
    from translate.storage import xliff2

    src, _, xlf, _ = fixture_update
    inp = [u for u in _units(src.read_bytes()) if not u.isobsolete()]
    units = [u for u in xliff2.Xliff2File.parsefile(str(xlf)).units if not u.isheader()]
    assert len(units) == len(inp) + 3
    by_id = {u.getid(): u for u in units}
    assert [f"u{i}" for i in range(1, len(inp) + 1)] == [u.getid() for u in units if not u.getid().startswith("crpipe")]
    for i, u in enumerate(inp, 1):
        assert (by_id[f"u{i}"].target or "") == u.target or "renumbered" in _xnotes(by_id[f"u{i}"])
    frac = next(u for u in units if u.source == "101.1a Fractions always round down.")
    assert frac.isfuzzy() and "Fractions round down." in _xnotes(frac)


def _xnotes(unit) -> str:
    el = unit.getunitelement().find(f"{{{NS2}}}notes")
    return "" if el is None else "\n".join(n.text or "" for n in el)


def test_fixture_xliff_input_keeps_ids_notes_and_gains_new_units(editions, tmp_path):
    src = DATA / "team.pt-BR.xlf"
    po, xlf = _update(src, editions, tmp_path)
    root_in = etree.fromstring(src.read_bytes())
    root = etree.fromstring(xlf.read_bytes())
    ids_in = [u.get("id") for u in root_in.iter(f"{{{NS2}}}unit")]
    units = {u.get("id"): u for u in root.iter(f"{{{NS2}}}unit")}
    ids_out = [u.get("id") for u in root.iter(f"{{{NS2}}}unit")]
    assert [i for i in ids_out if i in ids_in] == ids_in  # every unit, in order
    assert units["r100-1"].find(f"{{{NS2}}}notes/{{{NS2}}}note").text == 'keep "regras" lower case'
    seg = units["r100-2"].find(f"{{{NS2}}}segment")
    assert seg.get("state") == "initial" and seg.findtext(f"{{{NS2}}}source").startswith("100.3. ")
    assert seg.findtext(f"{{{NS2}}}target").startswith("100.3. Os jogadores")
    assert units["g-old"].get("translate") == "no"  # removed: kept, marked not to translate
    new = [i for i in ids_out if i not in ids_in]
    # Only paragraphs new in the current edition: the base paragraphs this partial file leaves out
    # are not added.
    assert [units[i].findtext(f"{{{NS2}}}segment/{{{NS2}}}source") for i in new] == [
        "100.2. Each player may use dice and tokens to keep track of counters during the game.",
        "New Term", "A term this edition adds. See rule 100.2."]
    # The PO written from it: the XLIFF ids as msgctxt, valid for msgfmt.
    ctx = {u.getcontext(): u for u in _units(po.read_bytes())}
    assert ctx["r101-1a"].isfuzzy() and ctx["r101-1a"].source == "101.1a Fractions always round down."
    _msgfmt_ok(po)


def test_obsolete_entry_with_a_live_msgid_gets_its_own_context(tmp_path):
    from pipeline.report.update_units import _obsolete_apart

    head = b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    store = pypo.pofile.parsestring(head + b'msgid "A"\nmsgstr "a"\n\nmsgid "B"\nmsgstr "b"\n')
    header, live, old = store.units
    old.source = "A"  # a removed paragraph whose English another unit now has
    old.makeobsolete()
    p = tmp_path / "d.po"
    if MSGFMT is not None:  # the duplicate is fatal to msgfmt ...
        p.write_bytes(bytes(store))
        assert subprocess.run([MSGFMT, "--check", "-o", "/dev/null", str(p)], capture_output=True).returncode != 0
    _obsolete_apart([live], [old])  # ... and is not once it has a context of its own
    p.write_bytes(bytes(store))
    assert old.getcontext() == "crpipe-obsolete" and old.target == "b" and old.isobsolete()
    _msgfmt_ok(p)


def test_bad_input_writes_no_update(tmp_path, editions):
    p = tmp_path / "bad.po"
    p.write_text('msgid "100.1. These rules apply to games."\nmsgstr "x\n', encoding="utf-8")
    out = tmp_path / "out"
    r = _cli("align", p, "--reference", editions, "--po", out / "u.po", "--xliff", out / "u.xlf")
    assert r.returncode == 2 and len([x for x in r.stderr.splitlines() if x.strip()]) == 1
    assert "bad.po" in r.stderr and not out.exists()


# -- the real pt-BR PO ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def real_newest(real_po_alignment):
    from pipeline.report.update_po import render_update_po
    from pipeline.report.xliff import render_xliff

    res = real_po_alignment  # align_file(PO, EDITIONS), once per session (conftest)
    return res, render_update_po(res), render_xliff(res)


@needs_po
def test_real_po_every_translation_is_carried(real_newest, tmp_path):
    res, data, _ = real_newest
    inp, out = _units(PO.read_bytes()), _units(data)
    translated = [u for u in inp if u.target]
    assert len(inp) == 4084 and len(translated) == 1637
    carried = {(u.prev_source or u.source): u for u in out if u.target}
    for u in translated:
        v = carried.get(u.source)
        assert v is not None, u.source
        if v.target != u.target:  # only a renumbering suggestion may touch it, and says so
            assert v.isfuzzy() and "renumbered" in v.getnotes("translator"), u.source
        if v.source != u.source and not v.isobsolete():
            assert v.isfuzzy() and v.prev_source == u.source
    # No unit lost: every input unit is an output unit; the rest are paragraphs new since 2020-11-20.
    counts = res.unit_update.counts()
    assert len(out) == 4084 + counts["new"] and counts["units"] == 4084
    assert counts["kept"] > 2000 and counts["new"] > 500  # dozens of editions of changes
    ids = {u.source for u in out if not u.isobsolete()}
    assert len(ids) == len([u for u in out if not u.isobsolete()])  # msgids unique
    assert data.split(b"\n\n", 1)[0] == PO.read_bytes().split(b"\n\n", 1)[0]  # the Crowdin header as it was
    p = tmp_path / "u.po"
    p.write_bytes(data)
    _msgfmt_ok(p)


@needs_po
def test_real_po_units_keep_the_team_segmentation(real_newest):
    _, data, _ = real_newest
    out = {u.source: u for u in _units(data) if not u.isobsolete()}
    newest = sorted(p.stem for p in EDITIONS.glob("????-??-??.txt"))[-1]
    assert not any(u.getcontext() for u in out.values())  # the team's PO has no msgctxt: none added
    # A rule paragraph with its number, and its example as a unit of its own.
    assert out["100.1. These Magic rules apply to any Magic game with two or more players, including "
               "two-player games and multiplayer games."].target.startswith("100.1. ")
    assert any(s.startswith("Example: ") and u.target for s, u in out.items())
    # Glossary term and definition units, credits, front matter.
    assert out["Abandon"].target == "Abandonar"
    assert out["Magic: The Gathering Original Game Design: Richard Garfield"].target.startswith("Magic: The Gathering")
    date = next(u for s, u in out.items() if s.startswith("These rules are effective as of") and u.target)
    assert date.isfuzzy() and date.prev_source == "These rules are effective as of November 20, 2020."
    assert newest[:4] in date.source
    # A retitled heading (the renumbering map loses it, its subrules go on): carried, fuzzy.
    assert out["308. Kindreds"].isfuzzy() and out["308. Kindreds"].prev_source == "308. Tribals"
    # Untranslated: the current English, still untranslated.
    todo = next(u for s, u in out.items() if s.startswith("702.2b "))
    assert todo.target == "" and not todo.isfuzzy()


@needs_po
def test_real_po_update_to_the_base_edition_is_identical(tmp_path):
    po, xlf = _update(PO, EDITIONS / "2020-11-20.txt", tmp_path)
    assert po.read_bytes() == PO.read_bytes()
    inp, out = _units(PO.read_bytes()), _units(po.read_bytes())
    assert [(u.source, u.target, u.isfuzzy(), _comments(u)) for u in inp] == \
        [(u.source, u.target, u.isfuzzy(), _comments(u)) for u in out]
    units = etree.fromstring(xlf.read_bytes()).findall(f".//{{{NS2}}}unit")
    assert len(units) == 4084
    assert [u.findtext(f"{{{NS2}}}segment/{{{NS2}}}target") or "" for u in units] == [u.target for u in inp]


@needs_po
def test_real_po_xliff_update_keeps_every_unit(real_newest, tmp_path):
    from translate.storage import xliff2

    res, _, xdata = real_newest
    p = tmp_path / "u.xlf"
    p.write_bytes(xdata)
    units = {u.getid(): u for u in xliff2.Xliff2File.parsefile(str(p)).units if not u.isheader()}
    inp = _units(PO.read_bytes())
    assert len(units) == 4084 + res.unit_update.counts()["new"]
    for i, u in enumerate(inp, 1):
        v = units[f"u{i}"]
        assert (v.target or "") == u.target or (u.target and v.isfuzzy() and "renumbered" in _xnotes(v)), u.source
        if u.target and v.source != u.source and v.getunitelement().get("translate") != "no":
            assert v.isfuzzy() and u.source in _xnotes(v)


# -- one English, two places: a split and a merge ------------------------------------------------

def test_shared_example_split_and_examples_merged(tmp_path):
    """The team's PO holds an English paragraph once even where the edition has it twice (the same
    example under two rules).  When the current edition changes one of the two, the changed one
    is a new unit with the translation as a fuzzy suggestion; when two paragraphs become the
    same English, the second unit is obsolete and keeps its translation (a msgid is unique)."""
    from pipeline.align.run import align_file
    from pipeline.report.update_po import render_update_po

    base = (DATA / "2031-03-03.txt").read_text(encoding="utf-8")
    base = base.replace("100.1b A multiplayer game has more.\n",
                        "100.1b A multiplayer game has more.\n\nExample: Alice plays Bob.\n")
    base = base.replace("100.2. Players need decks of sixty cards.\n",
                        "100.2. Players need decks of sixty cards.\n\nExample: Carol shuffles.\n")
    cur = base.replace("March 3, 2031", "June 6, 2031")
    cur = cur.replace("more.\n\nExample: Alice plays Bob.\n", "more.\n\nExample: Alice plays Bob and Carol.\n")
    cur = cur.replace("Example: Carol shuffles.", "Example: Alice plays Bob.")
    d = tmp_path / "ed"
    d.mkdir()
    (d / "2031-03-03.txt").write_text(base, encoding="utf-8")
    (d / "2031-06-06.txt").write_text(cur, encoding="utf-8")
    po = tmp_path / "t.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: pt_BR\\n"\n\n'
                  'msgid "These rules are effective as of March 3, 2031."\nmsgstr "Estas regras entram em vigor em 3 de março de 2031."\n\n'
                  'msgid "100.1a A two-player game has two players."\nmsgstr "100.1a Um jogo de dois jogadores tem dois jogadores."\n\n'
                  'msgid "Example: Alice plays Bob."\nmsgstr "Exemplo: Alice joga contra Bob."\n\n'
                  'msgid "100.1b A multiplayer game has more."\nmsgstr "100.1b Um jogo multijogador tem mais."\n\n'
                  'msgid "100.2. Players need decks of sixty cards."\nmsgstr "100.2. Os jogadores precisam de decks."\n\n'
                  'msgid "Example: Carol shuffles."\nmsgstr "Exemplo: Carol embaralha."\n', encoding="utf-8")
    res = align_file(po, d)
    out = _units(render_update_po(res))
    live = {u.source: u for u in out if not u.isobsolete()}
    assert live["Example: Alice plays Bob."].target == "Exemplo: Alice joga contra Bob."
    split = live["Example: Alice plays Bob and Carol."]
    assert split.isfuzzy() and split.target == "Exemplo: Alice joga contra Bob." and \
        split.prev_source == "Example: Alice plays Bob."
    order = [u.source for u in out if not u.isobsolete()]
    assert order.index("Example: Alice plays Bob and Carol.") == order.index("100.1b A multiplayer game has more.") + 1
    gone = [u for u in out if u.isobsolete()]
    assert [(u.source, u.target) for u in gone] == [("Example: Carol shuffles.", "Exemplo: Carol embaralha.")]
    assert "has this English once" in gone[0].getnotes("translator")
    assert res.unit_update.counts()["merged"] == 1
    p = tmp_path / "u.po"
    p.write_bytes(render_update_po(res))
    _msgfmt_ok(p)


def test_xliff_12_input_gives_an_xliff_20_update_with_its_ids(editions, tmp_path):
    src = tmp_path / "t.xlf"
    src.write_text('<?xml version="1.0"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
                   '<file original="cr" source-language="en" target-language="pt-BR" datatype="plaintext"><body>'
                   '<trans-unit id="d1"><source>These rules are effective as of March 3, 2031.</source>'
                   '<target>Estas regras entram em vigor em 3 de março de 2031.</target></trans-unit>'
                   '<trans-unit id="r1"><source>101.1a Fractions round down.</source>'
                   '<target>101.1a Frações são arredondadas para baixo.</target>'
                   '<note>a team note</note></trans-unit>'
                   '<trans-unit id="r2"><source>101.2. Mana value is a number (see rule 101.1).</source></trans-unit>'
                   '</body></file></xliff>', encoding="utf-8")
    _, xlf = _update(src, editions, tmp_path)
    root = etree.fromstring(xlf.read_bytes())
    assert root.get("version") == "2.0"
    units = {u.get("id"): u for u in root.iter(f"{{{NS2}}}unit")}
    assert {"d1", "r1", "r2"} <= set(units)
    seg = units["r1"].find(f"{{{NS2}}}segment")
    assert seg.get("state") == "initial" and seg.findtext(f"{{{NS2}}}source") == "101.1a Fractions always round down."
    assert "a team note" in "".join(units["r1"].itertext())
    assert units["r2"].find(f"{{{NS2}}}segment").get("state") == "initial"
    assert units["r2"].find(f"{{{NS2}}}segment/{{{NS2}}}target") is None


def test_renumbering_a_carried_translation():
    from pipeline.align.unit_update import _renumber

    moves = {"109.4e": "109.4f", "109.4f": "109.4g", "905.5": "905.6"}.get
    t = "109.4f Em um jogo de Draft de Conspiracy, o dono o controla. Consulte a regra 905.5."
    assert _renumber(t, "pt", moves, ("109.4f", "109.4g")) == (
        "109.4g Em um jogo de Draft de Conspiracy, o dono o controla. Consulte a regra 905.6.",
        [("109.4f", "109.4g"), ("905.5", "905.6")])
    # The real PO's 109.4f unit opens with "109.4e": a slip of the translator, not a reference to 109.4e.
    slip = t.replace("109.4f", "109.4e", 1)
    out, moved = _renumber(slip, "pt", moves, ("109.4f", "109.4g"))
    assert out.startswith("109.4e ") and moved == [("905.5", "905.6")]
    assert _renumber("Veja a regra 20 e a regra 117.", "pt", moves) == ("Veja a regra 20 e a regra 117.", [])

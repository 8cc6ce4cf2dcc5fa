"""The light paragraphs of the embedded editions shipped with the package
(``pipeline/data/editions/light-paragraphs.json.xz``, written by ``python -m
pipeline.editions.pack_light_paragraphs``) are what reading the editions gives now, and pinning
a PO's base edition gives the same answer with them as by reading every edition (issue 24,
acceptance 6).  If the key test fails, the decoder or the light form changed: run the release
step again."""

from __future__ import annotations

import json
import lzma
import shutil

import pytest

from conftest import EDITIONS

from pipeline.editions.embedded import embedded
from pipeline.ingest.bilingual import Unit, UnitState
from pipeline.decode import decode_bytes
from pipeline.editions import light_paragraphs as LP
from pipeline.ingest import units as U


def _file() -> dict:
    return json.loads(lzma.decompress(LP.shipped_path().read_bytes()))


def _read(e: dict) -> frozenset[str]:
    return LP.light_paragraphs(decode_bytes(embedded().read(e["name"]), e["name"]).text)


def test_shipped_file_is_keyed_by_the_code_that_reads_now():
    data = _file()
    assert data["key"] == LP.shipped_key(), "the decoder changed: run python -m pipeline.editions.pack_light_paragraphs"
    assert data["editions"] == [e["sha256"] for e in embedded().editions]
    assert LP.shipped() is not None


@pytest.mark.parametrize("k", [0, 17, 40, 63, 88, 109])  # UTF-16, cp437, cp1252, Mac Roman, UTF-8 years
def test_shipped_paragraphs_are_what_reading_gives(k):
    e = embedded().editions[k]
    assert LP.shipped().paragraphs_of(e["sha256"]) == _read(e)


@pytest.mark.slow
def test_every_shipped_edition_is_what_reading_gives():
    sp = LP.shipped()
    for e in embedded().editions:
        assert sp.paragraphs_of(e["sha256"]) == _read(e), e["name"]


def test_counts_are_per_edition_memberships():
    sp = LP.ShippedParagraphs(["a", "b", "c"], ["x", "y", "z"], [[0, 2], [1, 1], [0, 0, 2, 2]])
    assert sp.counts(["x", "y", "z", "z", "w"]) == [3, 2, 3]
    assert sp.paragraphs_of("c") == {"x", "z"}
    data = LP.serialise({"a": frozenset({"x", "z"}), "b": frozenset({"x", "y"}), "c": frozenset({"x", "z"})})
    assert json.loads(lzma.decompress(data))["runs"] == [[0, 2], [1, 1], [0, 0, 2, 2]]


def test_a_file_of_other_code_is_not_used(tmp_path):
    stale = tmp_path / "stale.json.xz"
    stale.write_bytes(lzma.compress(json.dumps({**_file(), "key": "0" * 12}).encode()))
    assert LP.shipped(stale) is None
    broken = tmp_path / "broken.json.xz"
    broken.write_bytes(b"\xfd7zXZ not really")
    assert LP.shipped(broken) is None


@pytest.mark.skipif(not EDITIONS.is_dir(), reason="needs ../shared")
def test_pin_with_shipped_paragraphs_is_the_pin_by_reading(tmp_path, monkeypatch):
    """Unit sources drawn from two editions and from nowhere; a folder with one file that is not
    the archive's (read, not looked up).  Both ways give the same pin, counts and runner-up."""
    folder = tmp_path / "eds"
    folder.mkdir()
    for d in ("2020-08-07", "2020-09-25", "2020-11-20", "2021-02-02"):
        src = EDITIONS / f"{d}.txt"
        if not src.is_file():
            pytest.skip(f"{src} missing")
        shutil.copy(src, folder / src.name)
    own = (EDITIONS / "2021-02-02.txt").read_bytes().replace(b"Commander", b"Kommandant", 1)
    (folder / "2021-03-01.txt").write_bytes(own)  # not an edition the package ships
    lines = [ln for ln in decode_bytes((folder / "2020-11-20.txt").read_bytes()).text.splitlines() if ln.strip()]
    units = [Unit(str(i), f"x:{i}", s, "", UnitState.UNTRANSLATED, i) for i, s in enumerate(lines[::9] + ["Not a paragraph."])]

    def pin(shipped: bool, cache: str):
        monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / cache))
        U._PARAS.clear()
        if not shipped:
            monkeypatch.setattr(U, "shipped_light_paragraphs", lambda: None)
        return U.pin_base_edition(units, folder)

    fast = pin(True, "a")
    monkeypatch.setattr(U, "edition_paragraphs", _no_read_of_shipped(U.edition_paragraphs))
    assert pin(True, "b") == fast  # the shipped editions are not read
    monkeypatch.undo()
    slow = pin(False, "c")
    assert fast == slow and fast.label == "2020-11-20" and fast.runner_up is not None


def _no_read_of_shipped(real):
    shas = {e["sha256"] for e in embedded().editions}

    def guarded(f, light=False):
        import hashlib

        assert hashlib.sha256(f.read_bytes()).hexdigest() not in shas, f"{f.name} was read"
        return real(f, light)

    return guarded

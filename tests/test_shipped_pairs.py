"""The consecutive-pair maps shipped with the package (``pipeline/data/editions/pairs.json.xz``,
written by ``python -m pipeline.diff.pack_pairs``) are what matching the embedded editions
gives now, and the archive takes them instead of matching (issue 24, acceptance 6).

If the key test fails, the matcher or the parser changed: run the release step again."""

from __future__ import annotations

import json
import lzma

import pytest

import pipeline.diff.history as history
from pipeline.diff import shipped
from pipeline.editions.catalog import Catalog
from pipeline.diff.pack_pairs import embedded_archive, match_all


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    return embedded_archive(tmp_path_factory.mktemp("pairs-cache"))


def _file() -> dict:
    return json.loads(lzma.decompress(shipped.shipped_path().read_bytes()))


def test_shipped_file_is_keyed_by_the_code_that_matches_now(archive):
    data = _file()
    assert data["version"] == shipped.VERSION
    assert data["key"] == shipped.shipped_key(), "the matcher changed: run python -m pipeline.diff.pack_pairs"
    # Every consecutive pair of the embedded archive, nothing else.
    E = archive.editions
    assert set(data["pairs"]) == {f"{E[i].sha256}-{E[i + 1].sha256}" for i in range(len(E) - 1)}


@pytest.mark.parametrize("date", ["2004-10-01", "2021-02-15", "2021-04-19", "2026-01-16"])
def test_shipped_pairs_are_what_matching_gives(archive, date):
    """A sample across the years, renumberings included (2021-04-19 moved 702.78a to 702.79a)."""
    i = archive.index(date) - 1
    got = shipped.shipped_pair(archive.editions[i].sha256, archive.editions[i + 1].sha256)
    assert got == archive.match_pair(i).to_dict()


@pytest.mark.slow
def test_every_shipped_pair_is_what_matching_gives(archive):
    assert _file()["pairs"] == match_all(archive)


def test_archive_takes_shipped_pairs_and_caches_them(tmp_path, monkeypatch):
    def boom(*_a, **_k):
        raise AssertionError("a shipped pair was matched again")

    monkeypatch.setattr(history, "match_rules", boom)
    arch = history.EditionArchive(Catalog(use_cache=False), cache_dir=tmp_path)
    assert arch.map_number("702.78a", "2020-11-20", "2026-01-16") == "702.79a"
    assert arch.map_number("117.9d", "2019-06-12", "2021-07-12") == "118.9d"
    # Cached as they are taken: a warm run reads those few files, not the shipped one.
    assert len(list(tmp_path.glob("diff-*/pairs/*.json"))) == len(arch.editions) - 1 - len(arch.missing()) >= 30


def test_a_shipped_file_of_other_code_is_not_used(tmp_path):
    data = _file()
    E = list(data["pairs"])[0].split("-")
    good = tmp_path / "good.json.xz"
    good.write_bytes(lzma.compress(json.dumps(data).encode()))
    assert shipped.shipped_pair(*E, path=good) is not None
    stale = tmp_path / "stale.json.xz"
    stale.write_bytes(lzma.compress(json.dumps({**data, "key": "0" * 12}).encode()))
    assert shipped.shipped_pair(*E, path=stale) is None
    broken = tmp_path / "broken.json.xz"
    broken.write_bytes(b"not xz")
    assert shipped.shipped_pair(*E, path=broken) is None
    # Turned off, the archive matches the pair itself.
    arch = history.EditionArchive(Catalog(use_cache=False), cache_dir=tmp_path / "c", shipped=False)
    assert arch._shipped(0) is None

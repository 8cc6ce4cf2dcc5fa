"""Issue 26, item 5: the embedded archive's consecutive-edition matches are computed at release
time (``python -m pipeline.diff.release``), so a first ``show`` or ``history`` matches nothing."""

from __future__ import annotations

import pytest

from pipeline.diff import history
from pipeline.editions.catalog import Catalog


def test_the_shipped_matches_are_those_of_the_current_matcher():
    # Fails when the matching code changed (its cache key) and the release step was not re-run.
    assert history.shipped_pairs_path().is_file(), "run: python -m pipeline.diff.release"
    assert len(history.shipped_pairs()) >= 100


@pytest.mark.parametrize("where", [0, 55, -1])
def test_a_shipped_match_is_what_the_matcher_gives_now(tmp_path, where):
    arch = history.EditionArchive(Catalog(use_cache=False), cache_dir=tmp_path)
    i = where % (len(arch.editions) - 1)
    shipped = history.shipped_pairs()[arch._pair_key(i)]
    assert arch.match_pair(i).to_dict() == shipped


def test_lineage_reads_the_shipped_matches(tmp_path, monkeypatch):
    arch = history.EditionArchive(Catalog(use_cache=False), cache_dir=tmp_path)
    assert arch.missing() == []  # nothing to precompute on a fresh cache
    lin = arch.lineage("601.2f", word_diffs=False)
    assert lin.numbers[:3] == ["409.1f", "601.2e", "601.2f"]
    assert not (tmp_path / f"diff-{history.cache_key()}" / "pairs").exists()  # nothing was matched

"""pipeline.environ: variables set for a block and put back, whatever happens in it."""

from __future__ import annotations

import os

import pytest

from pipeline.environ import environment


def test_set_unset_and_put_back(monkeypatch):
    monkeypatch.setenv("CRPIPE_T_A", "before")
    monkeypatch.delenv("CRPIPE_T_B", raising=False)
    with environment(CRPIPE_T_A=None, CRPIPE_T_B="inside"):
        assert "CRPIPE_T_A" not in os.environ and os.environ["CRPIPE_T_B"] == "inside"
    assert os.environ["CRPIPE_T_A"] == "before" and "CRPIPE_T_B" not in os.environ


def test_put_back_after_an_error(monkeypatch):
    monkeypatch.setenv("CRPIPE_T_A", "before")
    with pytest.raises(RuntimeError):
        with environment(CRPIPE_T_A="inside"):
            raise RuntimeError("boom")
    assert os.environ["CRPIPE_T_A"] == "before"

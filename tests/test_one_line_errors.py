"""Issue 26, G2, G6, G8: messages that were not one line naming the path — a full disk naming
no path, lxml's messages with a newline inside, a non-UTF-8 search argument (a traceback)."""

from __future__ import annotations

import errno
import os
import subprocess
import sys

import pytest

from conftest import CORPUS, ROOT
from pipeline.errors import InputError


def crpipe(*args) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CRPIPE_MIRROR": ""}
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], capture_output=True, env=env, timeout=300)


# -- G2: "no space left on the device" names where ----------------------------------------------

def test_a_failed_write_names_the_output(tmp_path):
    from pipeline.io import atomic_group, atomic_path, os_failure

    def full(*_):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # as write() raises it: no file name

    target = tmp_path / "out" / "x.json"
    with pytest.raises(OSError) as e:
        with atomic_path(target):
            full()
    assert str(os_failure(e.value)) == f"{target}: no space left on the device"
    with pytest.raises(OSError) as e:
        with atomic_group([tmp_path / "out" / "a.csv", tmp_path / "out" / "b.csv"]):
            full()
    assert str(os_failure(e.value)) == f"{tmp_path / 'out'}: no space left on the device"
    assert os.listdir(tmp_path / "out") == []  # and nothing left behind


def test_a_full_disk_during_a_build_names_the_out_folder_not_its_staging(small_disk):
    disk = small_disk
    r = crpipe("build", "--corpus", str(CORPUS), "--out", str(disk / "aligned"), "--offline")
    lines = r.stderr.decode().splitlines()
    assert r.returncode == 2 and lines == [f"crpipe: error: {disk / 'aligned'}: no space left on the device"], lines
    r = crpipe("parse", str(CORPUS / "seeds" / "000_460f8bf0ecd0529f.txt"), "--export", str(disk / "x"))
    assert r.stderr.decode().splitlines() == [f"crpipe: error: {disk / 'x'}: no space left on the device"]


# -- G6: one line whatever a library's message holds ----------------------------------------------

def test_every_project_error_is_one_line():
    e = InputError("Invalid character: Char 0x0 out of allowed range\n, line 1, column 4", "/a/b")
    assert str(e) == "/a/b: Invalid character: Char 0x0 out of allowed range , line 1, column 4"
    assert str(InputError("bad", "/a/new\nline.xlf")) == "'/a/new\\nline.xlf': bad"
    assert str(InputError("two  spaces kept", "/é")) == "/é: two  spaces kept"


@pytest.mark.parametrize("xml", [
    b'<?xml version="1.0"?><xliff version="1.2"><file>\x00</file></xliff>',  # "...out of allowed range\n, line 1"
    b'<?xml version="1.0"?><xliff version="1.2"><file><![CDATA[x\n</file></xliff>',  # "CData section not finished\nx..."
])
def test_lxml_messages_with_a_newline_are_one_line(tmp_path, xml):
    p = tmp_path / "bad.xlf"
    p.write_bytes(xml)
    r = crpipe("align", str(p))
    lines = r.stderr.decode().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith(f"crpipe: error: {p}: not well-formed XML"), lines


# -- G8: a search argument that is not UTF-8 -----------------------------------------------------

def test_search_with_a_non_utf8_argument(tmp_path):
    r = crpipe("search", b"\xffmana", "--db", str(tmp_path / "none.sqlite"))  # checked before the database
    assert r.returncode == 2 and r.stderr.decode().splitlines() == [
        "crpipe: error: command line: the search query is not UTF-8 text (byte 0xff)"], r.stderr
    from pipeline.search import search

    with pytest.raises(InputError, match="not UTF-8 text$"):
        search(tmp_path / "none.sqlite", "mana \ud800")

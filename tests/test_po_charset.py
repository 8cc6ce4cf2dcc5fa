"""Issue 26, G5: a PO file is read in the charset its header declares (translate-toolkit 3.20
parses the header, then goes on decoding as UTF-8 anyway and refused ISO-8859-1 files)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import ROOT
from pipeline.errors import InputError
from pipeline.ingest.bilingual import UnitState, read_bilingual

RULE = ("100.1. These Magic rules apply to any Magic game with two or more players, including two-player games "
        "and multiplayer games.")
TRANSLATION = ("100.1. Estas regras de Magic se aplicam a qualquer jogo de Magic com dois ou mais jogadores, "
               "incluindo jogos de dois jogadores e jogos multijogador — até à última ação.")


def po(charset: str, target: str = TRANSLATION) -> str:
    return (f'# Tradução: João\nmsgid ""\nmsgstr ""\n"Language: pt_BR\\n"\n'
            f'"Content-Type: text/plain; charset={charset}\\n"\n\n'
            f'msgid "These rules are effective as of November 20, 2020."\n'
            f'msgstr "Estas regras entram em vigor em 20 de Novembro de 2020."\n\n'
            f'msgid "{RULE}"\nmsgstr "{target}"\n\n'
            f'msgid "100.1a A two-player game is a game that begins with only two players."\nmsgstr ""\n')


@pytest.mark.parametrize("charset,codec,target", [
    ("ISO-8859-1", "latin-1", TRANSLATION.replace("—", "-")),  # Latin-1 has no dash
    ("iso-8859-15", "iso-8859-15", TRANSLATION.replace("—", "-") + " €"),
    ("windows-1252", "cp1252", TRANSLATION + " “aspas”"),
    ("UTF-8", "utf-8", TRANSLATION),
])
def test_po_is_read_in_its_declared_charset(tmp_path, charset, codec, target):
    p = tmp_path / "x.po"
    p.write_bytes(po(charset, target).encode(codec))
    bf = read_bilingual(p.read_bytes(), p)
    assert [u.state for u in bf.units] == [UnitState.TRANSLATED, UnitState.TRANSLATED, UnitState.UNTRANSLATED]
    assert bf.units[1].target == target and bf.units[1].source == RULE
    assert bf.units[1].location == "x.po:10" and bf.target_lang == "pt_BR"  # line numbers as in the file


def test_a_template_with_the_charset_placeholder_is_utf8(tmp_path):
    p = tmp_path / "x.pot"
    p.write_bytes(po("CHARSET").encode("utf-8"))
    assert read_bilingual(p.read_bytes(), p).units[1].target == TRANSLATION


@pytest.mark.parametrize("charset,data,message", [
    ("UTF-8", po("UTF-8").encode("latin-1", "replace"), "not UTF-8 text, as its header declares"),
    ("klingon", po("klingon").encode("utf-8"), "charset 'klingon', which is not a known encoding"),
    ("ASCII", po("ASCII").encode("utf-8"), "not ASCII text, as its header declares"),
])
def test_a_po_that_is_not_in_its_declared_charset_is_one_line(tmp_path, charset, data, message):
    p = tmp_path / "x.po"
    p.write_bytes(data)
    with pytest.raises(InputError, match=message) as e:
        read_bilingual(data, p)
    assert "\n" not in str(e.value) and str(p) in str(e.value)


def test_align_reads_an_iso_8859_1_po(tmp_path):
    p = tmp_path / "pt-BR.po"
    p.write_bytes(po("ISO-8859-1", TRANSLATION.replace("—", "-")).encode("latin-1"))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CRPIPE_MIRROR": ""}
    r = subprocess.run([sys.executable, "-m", "pipeline.cli", "align", str(p), "--json", str(tmp_path / "a.json")],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode in (0, 1), r.stderr  # 1: the check found errors in the translation, not in the file
    assert "base 2020-11-20" in " ".join(r.stdout.split())
    assert "até à última ação" in (tmp_path / "a.json").read_text(encoding="utf-8")

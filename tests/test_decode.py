"""Issue 2, acceptance 2/5/6: decoding any edition's bytes, and refusing what is not text."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings, strategies as st

from pipeline.errors import CrpipeError, InputError
from pipeline.decode import decode_bytes

SAMPLE = "100.1. These “rules” — Dandân’s Æther.\n\n100.2. Next.\n"


@pytest.mark.parametrize("enc,label", [
    ("utf-8", "utf-8"), ("utf-8-sig", "utf-8-sig"), ("utf-16-le", "utf-16-le"), ("utf-16-be", "utf-16-be"),
])
def test_unicode_encodings(enc, label):
    data = SAMPLE.encode(enc)
    if enc.startswith("utf-16"):
        bom = codecs.BOM_UTF16_LE if enc.endswith("le") else codecs.BOM_UTF16_BE
        data = bom + data
    d = decode_bytes(data)
    assert d.text == SAMPLE and d.encoding == label


def test_bomless_utf16_is_sniffed():
    d = decode_bytes(SAMPLE.encode("utf-16-le"))
    assert d.text == SAMPLE and d.encoding == "utf-16-le"


def test_ascii_and_cp1252():
    assert decode_bytes(b"100.1. Plain.\n").encoding == "ascii"
    text = "100.1. He said “hi” — it’s 5–6.\n"
    d = decode_bytes(text.encode("cp1252"))
    assert d.text == text and d.encoding == "cp1252"


def test_whole_file_cp437_and_mac_roman():
    text = "Cards: Dandân, Ghazbán Ogre, Junún Efreet, Ring of Ma'rûf; Æther Storm.\n"
    d = decode_bytes(text.encode("cp437"))
    assert d.text == text and d.encoding == "cp437"
    mac = "Magic: The Gathering DCI™ Floor Rules. \"Basic Land – Mountain\"\n"
    d = decode_bytes(mac.encode("mac_roman"))
    assert d.text == mac and d.encoding == "mac_roman"


def test_stray_cp437_byte_in_cp1252_text():
    data = "It’s “quoted” text with many ’ marks.".encode("cp1252") + b" Cards: Dand\x83n, Desert.\n"
    d = decode_bytes(data)
    assert "Dandân" in d.text and "It’s “quoted”" in d.text
    assert d.encoding == "cp1252+cp437" and d.notes


@pytest.mark.parametrize("raw,endings", [
    (b"a\r\nb\r\n", "crlf"), (b"a\nb\n", "lf"), (b"a\rb\r", "cr"), (b"a\r\nb\rc\n", "mixed:crlf+lf+cr"),
])
def test_line_endings(raw, endings):
    d = decode_bytes(raw)
    assert d.text.replace("\n", "") == raw.replace(b"\r", b"").replace(b"\n", b"").decode()
    assert "\r" not in d.text and d.line_endings == endings


@pytest.mark.parametrize("data,what", [
    (b"", "empty"), (b"  \r\n\t", "empty"),
    (bytes(range(256)) * 20, "binary"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 64, "binary"),
    ("Правила игры Magic на русском языке, много текста здесь.\n".encode("koi8_r") * 5, "unknown text encoding"),
    (codecs.BOM_UTF16_LE + "100.1 Rules".encode("utf-16-le")[:-1], "truncated"),
])
def test_bad_input_is_one_clear_error(data, what):
    with pytest.raises(InputError) as e:
        decode_bytes(data, "x.txt")
    assert what in str(e.value) and str(e.value).startswith("x.txt: ")


def test_truncated_utf8_character():
    with pytest.raises(InputError, match="truncated"):
        decode_bytes("100.1 Dandân".encode("utf-8")[:-2])


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_never_raises_anything_but_project_errors(data):
    try:
        d = decode_bytes(data)
    except CrpipeError:
        return
    # Whatever decodes is text with normalised line endings and no replacement characters
    # that the input did not already hold.
    assert "\r" not in d.text
    if "\ufffd".encode() not in data:
        assert "\ufffd" not in d.text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="cp1252", exclude_categories=("Cc", "Cs")), min_size=1, max_size=300))
def test_utf8_text_round_trips(text):
    if not text.strip():
        return
    d = decode_bytes(text.encode("utf-8"))
    assert d.text == text.replace("\r\n", "\n").replace("\r", "\n")


# Windows-1252 text as the archive's single-byte editions hold it: ASCII and typography (which
# makes the reading unambiguous: an accented letter alone may read better as Mac Roman), any
# line endings.
_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6)
_CP1252_PIECE = st.one_of(_WORD, st.sampled_from([" ", "’", "“", "”", "–", "—", "…", "\r\n", "\n", "\r", "™", ". "]))


@settings(max_examples=200, deadline=None)
@given(st.lists(_CP1252_PIECE, min_size=1, max_size=80).map("".join))
def test_windows_1252_text_round_trips_with_its_line_endings(text):
    if not text.strip() or text.isascii():
        return
    d = decode_bytes(text.encode("cp1252"))
    assert d.encoding == "cp1252" and d.text == text.replace("\r\n", "\n").replace("\r", "\n")
    kinds = [k for k, n in (("crlf", text.count("\r\n")), ("lf", text.replace("\r\n", "").count("\n")),
                            ("cr", text.replace("\r\n", "").count("\r"))) if n]
    assert d.line_endings == (kinds[0] if len(kinds) == 1 else "mixed:" + "+".join(kinds) if kinds else "none")


def test_crlf_and_lf_files_decode_as_the_newline_decoder_does_with_their_lines():
    # The plain-decode path (all-CRLF or all-LF) and the newline decoder agree on the text and
    # the label; a CRLF file's lines come with it, and any other mix takes the decoder.
    from pipeline.decode import _decode_newlines

    cases = ["a\r\nb\r\n", "a\r\nb", "a\nb\n", "a", "a\r\nb\nc", "a\r\nb\rc", "a\rb", "a\r\n\x0cb\r\n",
             "a\r\nb\u2028c\r\n", "a\r\r\n", "a\r\nb\n", "’\r\n“x”\r\n\r\n"]
    for s in cases:
        body = s.encode("utf-8")
        dec = decode_bytes(body)
        assert (dec.text, dec.line_endings) == _decode_newlines(body, "utf-8"), s
        if dec.split is not None:
            assert dec.split[0] is dec.text and dec.split[1] == dec.text.split("\n"), s
    assert decode_bytes(b"a\r\nb\r\n").split is not None and decode_bytes(b"a\r\nb\n").split is None

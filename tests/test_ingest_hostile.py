"""Hostile input (acceptance item 6): entity bombs, external entities, zip bombs, fake PDFs,
a 200 MB text file.  Each must end in a clear InputError (or bounded work): no hang, no
network request, peak memory far below 2 GB.  The files are generated here, in tmp."""

from __future__ import annotations

import http.server
import json
import os
import socketserver
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from pipeline.errors import InputError
from pipeline.ingest import docx as docx_reader
from pipeline.ingest.loader import load_document

ROOT = Path(__file__).resolve().parents[1]
NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _docx(path: Path, xml: bytes) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", xml)
    return path


def _laughs() -> bytes:
    ents = ['<!ENTITY lol0 "lollollollollollollollollollol">']
    ents += [f'<!ENTITY lol{i} "{("&lol%d;" % (i - 1)) * 10}">' for i in range(1, 10)]
    return (f'<?xml version="1.0"?><!DOCTYPE w:document [{"".join(ents)}]>'
            f'<w:document {NS}><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>').encode()


def _xxe(url: str) -> bytes:
    return (f'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "{url}">]>'
            f'<w:document {NS}><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>').encode()


class _Counter(http.server.BaseHTTPRequestHandler):
    hits = 0

    def do_GET(self):  # noqa: N802 - http.server API
        type(self).hits += 1
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"SECRET-FROM-NETWORK")

    def log_message(self, *a):
        pass


@pytest.fixture
def http_server():
    srv = socketserver.TCPServer(("127.0.0.1", 0), _Counter)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    _Counter.hits = 0
    yield f"http://127.0.0.1:{srv.server_address[1]}/entity"
    srv.shutdown()
    srv.server_close()


def test_entity_bomb_docx_refused(tmp_path):
    p = _docx(tmp_path / "bomb.docx", _laughs())
    t = time.perf_counter()
    with pytest.raises(InputError, match="DTD or entities") as e:
        load_document(p)
    assert str(p) in str(e.value) and time.perf_counter() - t < 5


def test_parser_never_expands_entities_even_without_the_guard():
    # The XML parser itself is safe: libxml2 stops at its amplification limit, or the
    # entity stays unexpanded; either way no billion laughs in memory.
    t = time.perf_counter()
    try:
        root = etree.fromstring(_laughs(), docx_reader._parser())
    except etree.XMLSyntaxError as e:
        assert "amplification" in str(e) or "entity" in str(e).lower()
    else:
        assert len(etree.tostring(root)) < 10_000
    assert time.perf_counter() - t < 2


def test_external_entity_docx_refused_and_no_network(tmp_path, http_server):
    p = _docx(tmp_path / "xxe.docx", _xxe(http_server))
    with pytest.raises(InputError, match="DTD or entities"):
        load_document(p)
    # Even parsed directly, libxml2 neither fetches nor reads the entity.
    root = etree.fromstring(_xxe(http_server), docx_reader._parser())
    assert b"SECRET" not in etree.tostring(root)
    root = etree.fromstring(_xxe("file:///etc/passwd"), docx_reader._parser())
    assert b"root:" not in etree.tostring(root)
    assert _Counter.hits == 0


def _zip_bomb(path: Path, mb: int) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        with z.open("word/document.xml", "w", force_zip64=True) as f:
            chunk = b" " * (1 << 20)
            for _ in range(mb):
                f.write(chunk)
    return path


def test_zip_bomb_refused_without_unpacking(tmp_path):
    p = _zip_bomb(tmp_path / "bomb.docx", 120)
    assert p.stat().st_size < 2 << 20
    t = time.perf_counter()
    with pytest.raises(InputError, match="zip bomb"):
        load_document(p)
    assert time.perf_counter() - t < 2


def test_fake_and_broken_pdfs(tmp_path):
    junk = tmp_path / "fake.pdf"
    junk.write_bytes(b"%PDF-1.7\n" + os.urandom(50_000))
    with pytest.raises(InputError, match="not a readable PDF"):
        load_document(junk)
    text = tmp_path / "text.pdf"
    text.write_text("These are not the rules you are looking for.\n", encoding="utf-8")
    with pytest.raises(InputError, match="not a PDF"):
        load_document(text)
    binary = tmp_path / "noise.bin"
    binary.write_bytes(os.urandom(4096))
    with pytest.raises(InputError):
        load_document(binary)


_CHILD = r"""
import json, socket, sys, time, resource
attempts = []
real_connect = socket.socket.connect
def spy(self, addr):
    attempts.append(str(addr))
    raise OSError("network disabled in this test")
socket.socket.connect = spy
from pipeline.errors import InputError
from pipeline.ingest.loader import load_document
out = {}
for p in sys.argv[1:]:
    t = time.perf_counter()
    try:
        load_document(p)
        out[p] = ["loaded", round(time.perf_counter() - t, 2)]
    except InputError as e:
        out[p] = ["InputError: " + str(e), round(time.perf_counter() - t, 2)]
# VmHWM is this program's own peak: ru_maxrss survives exec and would report the parent's
# (a test session holding many parsed editions) instead.
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")]
out["_maxrss_mb"] = int(hwm[0].split()[1]) / 1024 if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["_network"] = attempts
print(json.dumps(out))
"""


def test_all_hostile_files_in_a_separate_process_bounded_memory_no_network(tmp_path, http_server):
    big = tmp_path / "huge.txt"
    line = b"616.1. If two or more replacement effects attempt to modify the way an event affects an object.\n"
    with open(big, "wb") as f:
        block = line * ((1 << 20) // len(line))
        for _ in range(200):
            f.write(block)
    assert big.stat().st_size > 190 << 20
    files = [big, _docx(tmp_path / "bomb.docx", _laughs()), _docx(tmp_path / "xxe.docx", _xxe(http_server)),
             _zip_bomb(tmp_path / "zip.docx", 120)]
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF")
    files.append(fake)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHILD, *map(str, files)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    print(f"\nhostile files handled in {time.perf_counter() - t:.1f} s, peak RSS {out['_maxrss_mb']:.0f} MB")
    for f in files:
        verdict, secs = out[str(f)]
        print(f"  {f.name}: {verdict[:110]} ({secs} s)")
        assert verdict.startswith("InputError: ") and str(f) in verdict
        assert secs < 10
    assert "too large" in out[str(big)][0]
    assert out["_maxrss_mb"] < 2048
    assert out["_network"] == [] and _Counter.hits == 0

"""Issue 26, G3: every way a download goes wrong is one line and exit 2, never a traceback or
a wait without end — against a misbehaving HTTP server on 127.0.0.1, never the internet."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
import time

import pytest

from conftest import ROOT
from crfixture import document


class Misbehaving(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    drip_every = 0.3

    def log_message(self, *a):  # keep test output clean
        pass

    def do_GET(self):  # noqa: N802 - the http.server name
        try:
            getattr(self, "_" + self.path.strip("/"))()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up, as it should

    def _raw(self, data: bytes) -> None:
        self.wfile.write(data)
        self.wfile.flush()
        self.close_connection = True

    def _badstatus(self):
        self._raw(b"HTTX/1.1 200 OK\r\n\r\nhello")

    def _badchunk(self):
        self._raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n")

    def _hangup(self):
        self.close_connection = True  # no answer at all

    def _loop(self):
        self.send_response(302)
        self.send_header("Location", "/loop")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _drip(self):
        body = document().encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        for b in body:  # one byte at a time, each well within the per-read timeout
            self.wfile.write(bytes([b]))
            self.wfile.flush()
            time.sleep(self.drip_every)

    def _good(self):
        body = document().replace("March 3, 2031", "June 6, 2031").encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def server():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Misbehaving)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()


def add(url: str, tmp_path, *extra) -> tuple[subprocess.CompletedProcess, float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CRPIPE_MIRROR": "", "CRPIPE_CACHE": str(tmp_path / "cache")}
    t = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "pipeline.cli", "editions", "add", url, *extra], capture_output=True,
                       text=True, env=env, timeout=120)
    return r, time.monotonic() - t


@pytest.mark.parametrize("path,why", [
    ("badstatus", "not an HTTP answer"),
    ("badchunk", "ended early"),
    ("hangup", "closed the connection without an answer"),
    ("loop", "redirects in a loop (HTTP 302)"),
])
def test_a_broken_server_is_one_line_and_exit_2(server, tmp_path, path, why):
    r, _ = add(f"{server}/{path}", tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"crpipe: error: {server}/{path}: download failed: "), r.stderr
    assert why in lines[0]
    assert not (tmp_path / "cache" / "editions").exists()  # nothing stored


def test_a_server_dripping_bytes_is_cut_off_at_the_deadline(server, tmp_path):
    # A byte every 0.3 s never trips a per-read timeout of 1.5 s; the deadline does.
    r, took = add(f"{server}/drip", tmp_path, "--timeout", "1.5")
    assert r.returncode == 2 and r.stderr.splitlines() == [
        f"crpipe: error: {server}/drip: download failed: no complete answer within 1.5 s"], r.stderr
    assert took < 15  # start-up plus the deadline, not the ~30 min the whole body would take


def test_a_good_server_still_works(server, tmp_path):
    r, _ = add(f"{server}/good", tmp_path)
    assert r.returncode == 0, r.stderr
    assert "2031-06-06: added" in r.stdout and (tmp_path / "cache" / "editions" / "2031-06-06.txt").is_file()


def test_the_builds_download_turns_the_same_failures_into_a_note(server, tmp_path):
    from pipeline.build import resolve_reference

    for path in ("badstatus", "badchunk", "loop"):
        manifest = {"reference": {"mirror_name": "x.txt", "url": f"{server}/{path}", "sha256": "0" * 64}}
        ref, _, notes = resolve_reference(manifest, None, None, tmp_path / "cache", timeout=5,
                                          url_check=lambda u: None)
        assert ref is None and [n for n in notes if n.startswith(f"download of {server}/{path} failed: ")], notes
        assert all("\n" not in n for n in notes)


def test_one_line_reason_for_any_message():
    from pipeline.net import one_line

    assert one_line("a\nb\r\n  c") == "a b c"
    assert len(one_line("x" * 1000)) == 200

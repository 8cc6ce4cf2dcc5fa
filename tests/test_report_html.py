"""The HTML report: escaping, filters, and a real browser (headless Chromium) opening it."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import time
from pathlib import Path

import pytest

from pipeline.align.model import AlignResult, Check, Issue, Row, Score
from pipeline.model import BaseEdition
from pipeline.report.html import render_html

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")

EVIL = '<script>document.title="pwned"</script><img src=x onerror=alert(1)>'


def _result() -> AlignResult:
    checks = [Check("references.stale", "references", "warning", "stale"),
              Check("damage.typo", "damage", "warning", "typo"),
              Check("structure.inferred-number", "structure", "info", "inferred")]
    rows = [
        Row("601.2b", "601.2b", "601.2b", "aligned", "number", target="Se a mágica é modal (consulte a regra 702.46).",
            source="If the spell is modal (see rule 702.46).", current="If the spell is modal (see rule 702.47).",
            issues=[Issue("references.stale", "references", "warning", "601.2b", "cites 702.46, now 702.47",
                          (36, 42), "702.46", "702.47", "601.2b")]),
        Row("601.2c", "601.2c", "601.2c", "aligned", "number", target=f"O jogadro diz {EVIL}",
            source=f"The player says {EVIL}", current="x",
            issues=[Issue("damage.typo", "damage", "warning", "601.2c", f"“jogadro” {EVIL}", (2, 9), "jogadro",
                          "jogador", "601.2c")]),
        Row("614.12a", "614.12a", "614.12a", "aligned", "number", target="Sin hallazgos.", source="No findings.",
            current="No findings.", inferred_number=True,
            issues=[Issue("structure.inferred-number", "structure", "info", "614.12a", "inferred")]),
        Row("614.12b", "614.12b", "614.12b", "aligned", "number", target="Limpio.", source="Clean.", current="Clean."),
    ]
    return AlignResult({"name": f"t{EVIL}.txt", "language": "pt"}, BaseEdition("2019-06-12", EVIL),
                       "2025-11-14", rows, checks, Score(30, 6.0, 200.0, {"warning": 2}))


def test_every_text_is_escaped():
    page = render_html(_result())
    assert "<img" not in page and 'document.title="pwned"' not in page.replace("&quot;", '"').split("&lt;script&gt;")[0]
    assert page.count("<script") == 2  # the page's own: metadata JSON and the filter script
    assert "&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;" in page
    # The finding is highlighted inline in the translation.
    assert re.search(r'<mark class="warning" data-check="damage.typo"[^>]*>jogadro</mark>', page)


def test_deterministic():
    assert render_html(_result()) == render_html(_result())


def _chromium(args: list[str], tmp: Path) -> subprocess.CompletedProcess:
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--no-first-run", "--disable-extensions",
           f"--user-data-dir={tmp / 'profile'}", "--enable-logging=stderr", "--v=0",
           "--virtual-time-budget=5000", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def _console_errors(stderr: str) -> list[str]:
    # Chromium logs each console message (and every uncaught exception) as "...:CONSOLE(line)] ...".
    return [ln for ln in stderr.splitlines() if ":CONSOLE" in ln or "Uncaught" in ln]


@needs_chromium
def test_console_error_detection_works(tmp_path):
    """The detector below is not vacuous: a page with a script error is caught."""
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>", encoding="utf-8")
    proc = _chromium(["--dump-dom", bad.as_uri()], tmp_path)
    assert _console_errors(proc.stderr), proc.stderr[-2000:]


@needs_chromium
def test_report_in_headless_chromium(tmp_path):
    page = tmp_path / "report.html"
    page.write_text(render_html(_result()), encoding="utf-8")
    # A filter through the page's own control, driven by the URL fragment it reads.
    url = page.as_uri() + "#check=references.stale&severity=warning"
    proc = _chromium(["--dump-dom", url], tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _console_errors(proc.stderr) == []
    dom = proc.stdout
    assert 'data-ready="1"' in dom
    rows = re.findall(r'<tr class="row[^"]*"[^>]*>', dom)
    assert len(rows) == 4
    shown = [r for r in rows if "hidden" not in r]
    assert len(shown) == 1 and 'data-checks="references.stale"' in shown[0]
    assert re.search(r'id="shown">1<', dom)
    # The hostile rule text is text in the DOM, never an element, and the title was not changed.
    assert "&lt;script&gt;document.title" in dom and "<img" not in dom
    assert "<title>Alignment: t" in dom and "pwned</title>" not in dom
    # A second filter: severity info only, any check -> only the inferred-number row.
    proc = _chromium(["--dump-dom", page.as_uri() + "#check=all&severity=info&only=1"], tmp_path)
    shown = [r for r in re.findall(r'<tr class="row[^"]*"[^>]*>', proc.stdout) if "hidden" not in r]
    assert len(shown) == 1 and "structure.inferred-number" in shown[0]
    shot = tmp_path / "shot.png"
    proc = _chromium([f"--screenshot={shot}", "--window-size=1280,900", url], tmp_path)
    assert _console_errors(proc.stderr) == []
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 5000


# -- a tiny Chrome DevTools Protocol client (stdlib only: a WebSocket is a few frames) ---------

class _CDP:
    def __init__(self, ws_url: str):
        m = re.match(r"ws://([^:/]+):(\d+)(/.*)", ws_url)
        self.sock = socket.create_connection((m.group(1), int(m.group(2))), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {m.group(3)} HTTP/1.1\r\nHost: {m.group(1)}:{m.group(2)}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert b" 101 " in head.split(b"\r\n")[0], head
        self.next_id = 0
        self.events: list[dict] = []

    def _recv_exact(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("devtools socket closed")
            buf += chunk
        return buf

    def _recv(self) -> dict:
        data = b""
        while True:
            b0, b1 = self._recv_exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._recv_exact(8))[0]
            data += self._recv_exact(n)
            if b0 & 0x80:
                return json.loads(data.decode("utf-8"))

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        payload = json.dumps(msg).encode()
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                                bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536 else
                                bytes([0x80 | 127]) + struct.pack(">Q", n))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        while True:
            reply = self._recv()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(reply["error"])
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = 20.0) -> dict:
        end = time.time() + timeout
        while time.time() < end:
            for e in self.events:
                if e.get("method") == method:
                    return e
            self.events.append(self._recv())
        raise TimeoutError(method)


def open_devtools(tmp_path: Path) -> tuple[subprocess.Popen, "_CDP", str]:
    """Headless Chromium driven over the DevTools protocol: (process, client, page session)
    with the Page, Runtime and Log domains on.  The caller terminates the process."""
    proc = subprocess.Popen([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                             "--disable-component-update", "--no-first-run", "--disable-extensions",
                             f"--user-data-dir={tmp_path / 'profile'}", "--remote-debugging-port=0", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        ws = None
        end = time.time() + 60
        while ws is None and time.time() < end:
            m = re.search(r"DevTools listening on (ws://\S+)", proc.stderr.readline())
            ws = m.group(1) if m else None
        assert ws, "chromium did not open its devtools endpoint"
        cdp = _CDP(ws)
        target = cdp.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        sid = cdp.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            cdp.send(f"{domain}.enable", session=sid)
    except BaseException:
        proc.terminate()
        proc.wait(timeout=30)
        raise
    return proc, cdp, sid


@needs_chromium
def test_report_driven_over_devtools(tmp_path):
    """Drive the page like a user: choose a check in the filter, untick a severity, read what is
    shown, take a screenshot; no console message or exception on the way."""
    page = tmp_path / "report.html"
    page.write_text(render_html(_result()), encoding="utf-8")
    proc, cdp, sid = open_devtools(tmp_path)
    try:
        cdp.send("Page.navigate", {"url": page.as_uri()}, session=sid)
        cdp.wait_for("Page.loadEventFired")

        def js(expr: str):
            r = cdp.send("Runtime.evaluate", {"expression": expr, "returnByValue": True}, session=sid)
            assert "exceptionDetails" not in r, r
            return r["result"].get("value")

        visible = "Array.from(document.querySelectorAll('tr.row')).filter(r => !r.hidden).map(r => r.querySelector('td.id').firstChild.textContent)"
        assert js(visible) == ["601.2b", "601.2c", "614.12a", "614.12b"]
        js("var s=document.getElementById('check-filter'); s.value='damage.typo'; s.dispatchEvent(new Event('change'))")
        assert js(visible) == ["601.2c"]
        js("var b=document.querySelector('input.sev[value=warning]'); b.click()")  # untick warnings
        assert js(visible) == []
        js("var s=document.getElementById('check-filter'); s.value='all'; s.dispatchEvent(new Event('change'))")
        js("document.getElementById('only-findings').click()")
        assert js(visible) == ["614.12a"]  # only rules with findings of the ticked severities (error, info)
        # The hostile text is a text node: no element was injected, the title is intact.
        assert js("document.querySelectorAll('img').length") == 0
        assert js("document.title") == f"Alignment: t{EVIL}.txt"  # shown as text, the script never ran
        assert "<script>" in js("document.querySelector('tr.row:nth-child(2) .seg').textContent")
        shot = base64.b64decode(cdp.send("Page.captureScreenshot", {"format": "png"}, session=sid)["data"])
        (tmp_path / "report.png").write_bytes(shot)
        assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 5000
        def noise():
            return [e for e in cdp.events if e.get("method") in ("Runtime.consoleAPICalled", "Runtime.exceptionThrown")
                    or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")]
        assert noise() == []
        # The listener is live: a console error now is seen (so the empty list above means something).
        js("console.error('probe')")
        cdp.wait_for("Runtime.consoleAPICalled")
        assert [e["params"]["args"][0]["value"] for e in noise()] == ["probe"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _big_result(n: int = 4000) -> AlignResult:
    """A 4,000-rule translation: every tenth rule's English changed, every seventh has a finding."""
    checks = [Check("damage.typo", "damage", "warning", "typo")]
    rows = []
    for k in range(n):
        rid = f"{100 + k // 40}.{k % 40 + 1}"
        src = f"Rule text number {k} about the stack and priority."
        cur = src.replace("priority", "the priority") if k % 10 == 0 else src
        issues = [Issue("damage.typo", "damage", "warning", rid, "typo", (0, 5), "Regra", "Regra", rid)] if k % 7 == 0 else []
        rows.append(Row(rid, rid, rid, "aligned", "number", target=f"Regra número {k} sobre a pilha e a prioridade.",
                        source=src, current=cur, issues=issues))
    cov = {"units": n, "translated": n, "share": 1.0, "by_section": {"1": {"name": "section 1", "units": n,
           "translated": n, "share": 1.0}}, "untranslated_rules": [], "stale_units": []}
    upd = {"base": "2020-11-20", "current": "2026-01-16", "to_update": [r.id for r in rows if r.english_changed],
           "new": [], "removed": [], "rules": []}
    return AlignResult({"name": "big.po", "language": "pt"}, BaseEdition("2020-11-20", "pinned"), "2026-01-16",
                       rows, checks, Score(40000, 1.0, 1.0, {}), coverage=cov, update=upd)


def test_summary_first_and_small_on_4000_rules():
    page = render_html(_big_result())
    # Summary (coverage, rules to update, findings by check) before the first rule row.
    first_row = page.index('<tr class="row')
    for h in ("<h2>Coverage</h2>", "<h2>Rules to update</h2>", "<h2>Findings</h2>", "<h2>Top problems</h2>"):
        assert page.index(h) < first_row, h
    assert "<b>400</b> translated rules" in page  # every tenth rule's English changed
    # Unchanged English is not written twice: a row costs well under 1 kB.
    assert len(page.encode()) / 4000 < 1000, len(page.encode())
    assert page.count("<ins>") == 400 and page.count('class="same">unchanged<') == 3600


@needs_chromium
def test_4000_rules_paged_in_headless_chromium(tmp_path):
    page = tmp_path / "big.html"
    page.write_text(render_html(_big_result()), encoding="utf-8")
    proc = _chromium(["--dump-dom", page.as_uri() + "#page=2"], tmp_path)
    assert proc.returncode == 0 and _console_errors(proc.stderr) == [], proc.stderr[-2000:]
    rows = re.findall(r'<tr class="row[^"]*"[^>]*>', proc.stdout)
    shown = [r for r in rows if "hidden" not in r]
    assert len(rows) == 4000 and len(shown) == 100  # one page at a time
    assert 'id="r-102.21"' in shown[0]  # the first rule of page 2 (row 101)
    assert re.search(r'id="page">2 / 40<', proc.stdout)
    # "rules to update" view: 400 rows match, the first page shows 100 of them.
    proc = _chromium(["--dump-dom", page.as_uri() + "#update=1"], tmp_path)
    shown = [r for r in re.findall(r'<tr class="row[^"]*"[^>]*>', proc.stdout) if "hidden" not in r]
    assert len(shown) == 100 and all('data-update="1"' in r for r in shown)
    assert re.search(r'id="shown">400<', proc.stdout)

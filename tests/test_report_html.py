"""The HTML report: escaping, filters, and a real browser (headless Chromium) opening it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pipeline.align.model import AlignResult, Check, Issue, Row, Score
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
    return AlignResult({"name": f"t{EVIL}.txt", "language": "pt"}, {"label": "2019-06-12", "how": EVIL},
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

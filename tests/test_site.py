"""The static rules site: generated once per session, checked by a link checker and driven
in headless Chromium from disk."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from lxml import html as lhtml

from conftest import CORPUS, EDITIONS, needs_shared
from test_report_html import needs_chromium, open_devtools

pytestmark = needs_shared


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """One build of the corpus (its site stage included), offline, from the shared mirror."""
    from pipeline.build import run_build

    out = tmp_path_factory.mktemp("build") / "aligned"
    ctx = run_build(CORPUS, out, mirror=EDITIONS, allow_download=False)
    return ctx


@pytest.fixture(scope="session")
def site(built, rendered_notebooks, tmp_path_factory):
    """The site of the default editions plus 2021-04-19, with the build's reports and the notebooks."""
    from pipeline.site import build_site

    out = tmp_path_factory.mktemp("site") / "site"
    build_site(out, editions=["2021-04-19"], reports=built.out, notebooks=[p for _, _, p in rendered_notebooks.values()])
    return out


def _pages(root: Path) -> list[Path]:
    return sorted(root.rglob("*.html"))


def check_links(root: Path) -> tuple[int, list[str]]:
    """Every internal href/src of every page: the file exists and so does the #anchor."""
    ids: dict[Path, set[str]] = {}

    def anchors(p: Path) -> set[str]:
        if p not in ids:
            tree = lhtml.parse(str(p), parser=lhtml.HTMLParser(encoding="utf-8", no_network=True))
            ids[p] = {e.get("id") for e in tree.iter() if isinstance(e.tag, str) and e.get("id")} | \
                     {e.get("name") for e in tree.iter("a") if e.get("name")}
        return ids[p]

    broken, checked = [], 0
    for page in _pages(root):
        tree = lhtml.parse(str(page), parser=lhtml.HTMLParser(encoding="utf-8", no_network=True))
        for el, attr in [(e, "href") for e in tree.iter("a", "link")] + [(e, "src") for e in tree.iter("script", "img")]:
            url = el.get(attr)
            if not url or url.startswith(("data:", "mailto:", "javascript:")):
                continue
            parts = urlsplit(url)
            if parts.scheme or parts.netloc:
                continue  # external (the notebooks' CDN scripts): not ours to check
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            checked += 1
            if not target.is_file() or root.resolve() not in target.parents:
                broken.append(f"{page.relative_to(root)}: {url} (no file)")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in anchors(target):
                broken.append(f"{page.relative_to(root)}: {url} (no anchor)")
    return checked, broken


def test_no_broken_links(site):
    checked, broken = check_links(site)
    assert checked > 70_000  # every reference, cited-by and trace link of three editions (77,951 on 2026-12-02)
    assert broken == []


def test_the_build_stage_writes_a_site(built):
    root = built.out / "site"
    assert (root / "index.html").is_file()
    labels = sorted(p.name for p in root.iterdir() if re.fullmatch(r"\d{4}-\d{2}-\d{2}", p.name))
    # The default edition (also the build's reference and the rulings' edition, issue 26.4), the
    # translations' base editions (pt: 2019-06-12; es: consistent with the default, 2026-01-16).
    assert labels == ["2019-06-12", "2026-01-16"]
    assert sorted(p.name for p in (root / "translations").iterdir()) == [
        "align-es-001_b16e69f1b44391e7.html", "align-pt-000_460f8bf0ecd0529f.html"]
    listed = {o.relative_to(built.out).as_posix() for o in built.outputs}
    assert "site/2026-01-16/702.html" in listed  # in build-report.json, with its sha256


def test_pages_hold_what_readers_look_for(site):
    ch = (site / "2026-01-16" / "702.html").read_text(encoding="utf-8")
    assert 'id="702.79a"' in ch and 'href="trace-702.html#702.79a"' in ch
    assert re.search(r'<p class="example">', ch)
    # A range is a link too (its first rule; the title lists the rest).
    r601 = (site / "2026-01-16" / "601.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="ref" href="601.html#601.2a" title="601.2a, 601.2b, [^"]*601.2h">601.2a–h</a>', r601) \
        or re.search(r'<a class="ref" href="[^"]+" title="[^"]+, [^"]+">\d{3}\.\d+[a-z]?[–-]', r601)
    assert "Cited by" in ch
    gl = (site / "2026-01-16" / "glossary.html").read_text(encoding="utf-8")
    assert '<dt id="g-persist"><dfn>Persist</dfn></dt>' in gl and 'href="702.html#702.79"' in gl
    # An old page names today's number.
    old = (site / "2019-06-12" / "702.html").read_text(encoding="utf-8")
    sec = old[old.index('id="702.78a"'):]
    assert 'Today: <a href="../2026-01-16/702.html#702.79a">702.79a</a>' in sec[:sec.index("</section>")]
    # The latest edition's search knows old numbers.
    data = (site / "2026-01-16" / "search-data.js").read_text(encoding="utf-8")
    docs = json.loads(data[data.index("["):data.rindex("]") + 1])
    assert any(d["k"] == "old" and d["r"] == "702.78a" and "now 702.79a" in d["t"] for d in docs)
    # The translation beside its English base and today's English, with findings.
    tr = (site / "translations" / "align-pt-000_460f8bf0ecd0529f.html").read_text(encoding="utf-8")
    assert 'href="../2019-06-12/601.html#601.2b"' in tr and 'class="finding' in tr
    ru = (site / "rulings" / "links-002_094abacf31a08c8b.html").read_text(encoding="utf-8")
    assert re.search(r'class="top">Rule: <a href="../2026-01-16/\d{3}.html#', ru)  # the build's (default) edition
    assert (site / "notebooks" / "xref_hubs.html").is_file() and 'href="notebooks/xref_hubs.html"' in \
        (site / "index.html").read_text(encoding="utf-8")


def test_text_is_escaped(tmp_path):
    """Rule text is data: markup in it is shown, never run."""
    from jinja2 import Environment

    from pipeline.site.generate import _env

    env = _env()
    assert isinstance(env, Environment) and env.autoescape
    out = env.get_template("macros.html").module.segs([("<script>alert(1)</script>", None, ""),
                                                      ("601.2f", "601.html#601.2f", '"x"')])
    assert "<script>" not in str(out) and "&lt;script&gt;" in str(out) and 'title="&#34;x&#34;"' in str(out)


def test_deterministic(built, tmp_path):
    """A second generation from the same inputs is byte-identical to the build's site."""
    from pipeline.site import build_site

    again = build_site(tmp_path / "site", reports=built.out, catalog=built.editions_dir)
    a = {p.relative_to(tmp_path / "site"): p.read_bytes() for p in again}
    b = {p.relative_to(built.out / "site"): p.read_bytes() for p in (built.out / "site").rglob("*") if p.is_file()}
    assert a == b


def test_cli_reports_bad_input(tmp_path):
    import os
    import sys

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    p = subprocess.run([sys.executable, "-m", "pipeline.cli", "site", "--out", str(tmp_path / "s"), "-e", "1999-13-40"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 2 and "crpipe: error:" in p.stderr and "Traceback" not in p.stderr
    assert not (tmp_path / "s").exists()


# -- in a browser ------------------------------------------------------------------------------

@needs_chromium
def test_site_in_headless_chromium(site, tmp_path):
    proc, cdp, sid = open_devtools(tmp_path)
    try:
        cdp.send("Emulation.setDeviceMetricsOverride", {"width": 1100, "height": 900, "deviceScaleFactor": 1,
                                                        "mobile": False}, session=sid)

        def js(expr: str):
            r = cdp.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True},
                         session=sid)
            assert "exceptionDetails" not in r, r
            return r["result"].get("value")

        def loaded(action):
            cdp.events = [e for e in cdp.events if e.get("method") != "Page.loadEventFired"]
            action()
            cdp.wait_for("Page.loadEventFired", timeout=60)

        def until(expr: str, timeout: float = 20.0):
            end = time.time() + timeout
            while time.time() < end:
                v = js(expr)
                if v:
                    return v
                time.sleep(0.1)
            raise AssertionError(f"never true: {expr}")

        def shot(name: str) -> Path:
            data = base64.b64decode(cdp.send("Page.captureScreenshot", {"format": "png"}, session=sid)["data"])
            p = tmp_path / f"{name}.png"
            p.write_bytes(data)
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
            return p

        # 1. From 601.2b, follow "see rule 601.2f" to 601.2f's anchor.
        loaded(lambda: cdp.send("Page.navigate", {"url": (site / "2026-01-16" / "601.html").as_uri() + "#601.2b"},
                                session=sid))
        link = ("Array.from(document.getElementById('601.2b').querySelectorAll('a.ref'))"
                ".find(a => a.textContent === '601.2f' && /see rule $/.test(a.previousSibling.textContent))")
        assert js(f"!!({link})")
        js(f"({link}).click()")
        until("location.hash === '#601.2f'")
        assert js("document.querySelector(':target').id") == "601.2f"
        assert js("document.getElementById('601.2f').getBoundingClientRect().top") < 200  # scrolled to it
        shot("601")

        # 2. Open 702.79a's trace and reach 702.78a in the 2019-06-12 edition.
        loaded(lambda: cdp.send("Page.navigate", {"url": (site / "2026-01-16" / "702.html").as_uri() + "#702.79a"},
                                session=sid))
        loaded(lambda: js("document.getElementById('702.79a').querySelector('a.trace').click()"))
        assert js("location.pathname.endsWith('/2026-01-16/trace-702.html') && location.hash") == "#702.79a"
        shot("trace")
        loaded(lambda: js("Array.from(document.getElementById('702.79a').querySelectorAll('a'))"
                          ".find(a => a.textContent === '2019-06-12').click()"))
        assert js("location.pathname.endsWith('/2019-06-12/702.html') && location.hash") == "#702.78a"
        assert js("document.getElementById('702.78a').textContent").count("Persist") >= 1

        # 3. The pair form leads to the 2021-04-19 change page, where persist's move is listed.
        loaded(lambda: cdp.send("Page.navigate", {"url": (site / "index.html").as_uri()}, session=sid))
        loaded(lambda: js("document.getElementById('pair-a').value='2021-02-24';"
                          "document.getElementById('pair-b').value='2021-04-19';"
                          "document.getElementById('pair-go').click()"))
        assert js("location.pathname").endswith("/changes/2021-02-24_2021-04-19.html")
        moves = js("Array.from(document.querySelectorAll('details.cascade p')).map(p => p.textContent).join(' ')")
        assert "702.78 → 702.79;" in moves and "702.78a → 702.79a;" in moves
        assert js("Array.from(document.querySelectorAll('li.change')).some(li => li.dataset.old === 'Persist' "
                  "&& li.textContent.includes('702.79'))")
        shot("changes")

        # 4. Search "mana value": 202.3 among the first results.
        loaded(lambda: cdp.send("Page.navigate", {"url": (site / "2026-01-16" / "search.html").as_uri()}, session=sid))
        js("var q=document.getElementById('q'); q.value='mana value'; q.dispatchEvent(new Event('input'))")
        until("document.querySelectorAll('#results li').length > 0")
        first = js("Array.from(document.querySelectorAll('#results li')).slice(0, 5).map(li => li.dataset.id)")
        assert "202.3" in first, first
        # An old number leads to today's.
        js("var q=document.getElementById('q'); q.value='702.78a'; q.dispatchEvent(new Event('input'))")
        until("document.querySelectorAll('#results li').length > 0")
        assert js("Array.from(document.querySelectorAll('#results li')).some(li => li.textContent.includes('now 702.79a')"
                  " && li.querySelector('a').getAttribute('href') === '702.html#702.79a')")
        shot("search")

        # A phone-sized screen: no horizontal scrolling on a rules page.
        cdp.send("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2,
                                                        "mobile": True}, session=sid)
        loaded(lambda: cdp.send("Page.navigate", {"url": (site / "2026-01-16" / "702.html").as_uri() + "#702.79a"},
                                session=sid))
        assert js("document.documentElement.scrollWidth <= window.innerWidth + 1")
        shot("phone")

        noise = [e for e in cdp.events if e.get("method") in ("Runtime.consoleAPICalled", "Runtime.exceptionThrown")
                 or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")]
        assert noise == []
        js("console.error('probe')")
        cdp.wait_for("Runtime.consoleAPICalled")
    finally:
        proc.terminate()
        proc.wait(timeout=30)

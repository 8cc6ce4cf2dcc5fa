"""Issue 13: the paths real users take -- the embedded archive, one way to name editions,
``crpipe show``, search, no cwd traps, and the small items."""

from __future__ import annotations

import hashlib
import json
import lzma
import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from conftest import CORPUS, EDITIONS, ROOT, needs_shared
from crfixture import document
from pipeline.cli import app
from pipeline.editions import Catalog, EditionRef, resolve_edition
from pipeline.editions.embedded import ArchiveError, EmbeddedArchive, embedded
from pipeline.editions.pack import pack

runner = CliRunner()


@pytest.fixture
def no_mirror(monkeypatch, tmp_path):
    """No CRPIPE_MIRROR and an empty user cache: only the embedded archive is known."""
    monkeypatch.delenv("CRPIPE_MIRROR", raising=False)
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / "cache"))


# -- the embedded archive ----------------------------------------------------------------------

def test_archive_holds_every_edition_and_is_small():
    arch = embedded()
    assert len(arch.editions) == 110
    size = sum((arch.dir / c["file"]).stat().st_size for c in arch.index["chunks"])
    assert size < 2.5e6  # 74 MB of editions
    dates = [e["date"] for e in arch.editions]
    assert dates == sorted(dates) and dates[0] == "2003-03-15" and dates[-1] == "2026-01-16"


@needs_shared
def test_archive_gives_the_exact_bytes_of_every_edition():
    arch = embedded()
    for e in arch.editions:
        assert arch.read(e["name"]) == (EDITIONS / e["name"]).read_bytes(), e["name"]


def test_archive_checks_sha256_on_read(tmp_path):
    d = tmp_path / "editions"
    shutil.copytree(embedded().dir, d)
    idx = json.loads((d / "index.json").read_text())
    name = idx["editions"][3]["name"]
    idx["editions"][3]["sha256"] = "0" * 64
    (d / "index.json").write_text(json.dumps(idx))
    arch = EmbeddedArchive(d)
    with pytest.raises(ArchiveError, match="sha256"):
        arch.read(name)
    assert arch.read(idx["editions"][4]["name"])  # the others still read
    # A damaged xz file is one clear error too.
    (d / idx["chunks"][0]["file"]).write_bytes(b"not xz")
    with pytest.raises(ArchiveError, match="damaged"):
        EmbeddedArchive(d).read(idx["editions"][0]["name"])


def test_pack_round_trip_and_is_deterministic(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    texts = {"2031-03-03.txt": document(), "2031-06-01.txt": document().replace("March 3, 2031", "June 2, 2031")}
    for n, t in texts.items():
        (src / n).write_text(t, encoding="utf-8")
    (src / "notes.txt").write_text("not an edition", encoding="utf-8")
    a = pack(src, tmp_path / "a", chunk=1)
    b = pack(src, tmp_path / "b", chunk=1)
    assert a == b and (tmp_path / "a" / "editions-00.xz").read_bytes() == (tmp_path / "b" / "editions-00.xz").read_bytes()
    arch = EmbeddedArchive(tmp_path / "a")
    assert [(e["name"], e["date"]) for e in arch.editions] == [("2031-03-03.txt", "2031-03-03"), ("2031-06-01.txt", "2031-06-02")]
    for n, t in texts.items():
        assert arch.read(n) == t.encode()
        chunk = tmp_path / "a" / arch.index["chunks"][arch.entry(n)["chunk"]]["file"]
        assert lzma.decompress(chunk.read_bytes()) == t.encode()  # a plain xz file, chunk=1


# -- naming and finding editions ---------------------------------------------------------------

def test_embedded_editions_are_named_by_their_stated_date(no_mirror, capsys):
    cat = Catalog()
    assert {r.source for r in cat.editions} == {"embedded"} and len(cat.editions) == 110
    assert cat.latest().date == "2026-01-16"
    r = cat.resolve("2019-06-14")
    assert r.name == "2019-06-12.txt"
    # the file's own name finds it too, with one warning per process
    import pipeline.io

    pipeline.io._warned.clear()  # the one warn-once registry
    assert cat.resolve("2019-06-12") == r and cat.resolve("2019-06-12") == r
    assert capsys.readouterr().err.count("states it is the 2019-06-14 edition") == 1
    with pytest.raises(Exception, match="no edition '1999-01-01'"):
        cat.resolve("1999-01-01")


def test_mirror_then_cache_then_embedded(no_mirror, tmp_path):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "2031-03-03.txt").write_text(document(), encoding="utf-8")
    cat = Catalog(mirror=mirror)
    assert cat.latest().date == "2031-03-03" and cat.latest().source == "mirror"
    assert cat.resolve("2025-11-14").source == "embedded"
    assert resolve_edition("latest", cat).date == "2031-03-03"


def test_editions_add_and_list(no_mirror, tmp_path):
    f = tmp_path / "new.txt"
    f.write_text(document().replace("March 3, 2031", "April 4, 2031"), encoding="utf-8")
    res = runner.invoke(app, ["editions", "add", str(f)])
    assert res.exit_code == 0, res.output
    assert "2031-04-04: added" in res.output
    assert (tmp_path / "cache" / "editions" / "2031-04-04.txt").is_file()
    res = runner.invoke(app, ["editions", "add", str(f)])
    assert "already known" in res.output
    res = runner.invoke(app, ["editions", "--json"])
    data = json.loads(res.output)
    assert data["latest"] == "2031-04-04"
    by_date = {e["date"]: e for e in data["editions"]}
    assert by_date["2031-04-04"]["source"] == "cache" and by_date["2025-11-14"]["source"] == "embedded"
    res = runner.invoke(app, ["editions"])
    assert "2019-06-14" in res.output and "file name says 2019-06-12" in res.output
    # not an edition: a clear error, nothing stored
    bad = tmp_path / "bad.txt"
    bad.write_text("hello", encoding="utf-8")
    res = runner.invoke(app, ["editions", "add", str(bad)])
    assert res.exit_code == 2 and "not an official" in res.output


def test_editions_add_from_a_url(no_mirror, tmp_path):
    import functools
    import http.server
    import threading

    root = tmp_path / "www"
    root.mkdir()
    (root / "cr.txt").write_text(document().replace("March 3, 2031", "May 5, 2031"), encoding="utf-8")
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(http.server.SimpleHTTPRequestHandler,
                                                                              directory=str(root)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        res = runner.invoke(app, ["editions", "add", f"http://127.0.0.1:{srv.server_address[1]}/cr.txt"])
    finally:
        srv.shutdown()
    assert res.exit_code == 0 and "2031-05-05: added" in res.output


# -- show ------------------------------------------------------------------------------------------

def _show(*args):
    res = runner.invoke(app, ["show", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)  # stderr may hold a once-per-process warning (a file-name date)


def test_show_601_2f(no_mirror):
    v = _show("601.2f")
    assert v["rule"] == "601.2f" and v["text"].startswith("The player determines the total cost of the spell.")
    assert [t["id"] for t in v["title_path"]] == ["6", "601"] and v["title_path"][1]["title"] == "Casting Spells"
    assert "601.2b" in v["cites"] and "118.9d" in v["cited_by"]
    assert "601.2e 2009-07-11" in v["history"] and "601.2f 2015-07-17 … 2026-01-16" in v["history"]


def test_show_old_number_in_its_own_edition(no_mirror):
    v = _show("702.78a", "--edition", "2019-06-12")
    assert v["edition"] == "2019-06-14" and v["rule"] == "702.78a"
    assert v["text"].startswith("Persist is a triggered ability.")
    assert "702.78a 2013-07-13 … 2021-02-15; 702.79a 2021-04-22 … 2026-01-16" in v["history"]


def test_show_old_number_is_followed_to_today(no_mirror):
    v = _show("706.10", "--edition", "2019-06-12", "--no-history")  # exists then: copies of spells
    assert v["text"].startswith("To copy a spell")
    v = _show("709.4b", "--no-history")  # a 2026 number...
    assert v["found_as"] == "number"
    v = _show("502.79a", "--no-history")  # persist's 2008 number
    assert v["found_as"] == "old-number" and v["rule"] == "702.79a" and "502.79a" in v["notes"][0]


def test_show_a_number_no_edition_held_answers_from_the_shipped_maps(no_mirror, tmp_path):
    res = runner.invoke(app, ["show", "999.9z"])
    assert res.exit_code == 2 and "no rule 999.9z in the 2026-01-16 edition or any earlier one" in res.output
    cache = tmp_path / "cache"
    # Nothing but the edition's inventory: no pair maps written, no references extracted.
    assert sorted(p.name.split("-")[0] for p in cache.iterdir()) == ["inventory"], sorted(cache.iterdir())


def test_the_never_held_shortcut_agrees_with_the_walk(no_mirror):
    from pipeline.diff.history import EditionArchive
    from pipeline.editions.catalog import default_catalog
    from pipeline.show import _follow_old_number

    arch = EditionArchive(default_catalog())
    k = len(arch.editions) - 1
    old = [n for i in (3, 40, 90) for n in (arch.shipped_pair(i).removed[:3] + list(arch.shipped_pair(i).moved)[:3])]
    numbers = old + ["999.9z", "100.1z", "702.300a", "1000.1", "502.79a", "706.10"]
    fast = [_follow_old_number(arch, n, k) for n in numbers]
    walk_only = EditionArchive(default_catalog())
    walk_only.shipped_pair = lambda i: None  # no shortcut: the walk decides every number
    assert fast == [_follow_old_number(walk_only, n, k) for n in numbers]
    assert fast[-2][0] == "702.79a" and fast[numbers.index("999.9z")] is None
    assert sum(f is not None for f in fast) >= len(old)


def test_show_keyword_and_glossary_term(no_mirror):
    v = _show("persist")
    assert v["rule"] == "702.79" and v["text"] == "Persist" and v["found_as"] == "heading"
    assert v["subrules"][0]["id"] == "702.79a" and "Persist is a triggered ability" in v["subrules"][0]["text"]
    assert v["glossary"][0]["term"] == "Persist"
    v = _show("mana value", "--no-history")
    assert v["rule"] == "202.3" and v["glossary"][0]["term"] == "Mana Value"


def test_show_rule_number_with_trailing_dot_and_terminal_text(no_mirror):
    res = runner.invoke(app, ["show", "120.4.", "--no-history"])
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.split())
    assert "120.4 Damage is processed in a four-part sequence." in out
    assert "120.4d Finally, the damage event occurs." in out and "1 Game Concepts › 120 Damage" in out


def test_show_with_a_translation(no_mirror):
    seed = CORPUS / "seeds" / "000_460f8bf0ecd0529f.txt"
    v = _show("persistir", "--edition", "2019-06-12", "--lang", "pt", "--doc", str(seed), "--no-history")
    assert v["rule"] == "702.78" and v["translation"]["language"] == "pt"


def test_show_unknown_is_a_clear_error(no_mirror):
    res = runner.invoke(app, ["show", "persistt"])
    assert res.exit_code == 2 and "did you mean Persist" in res.output


# -- search ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One offline build of the corpus, from the embedded archive only."""
    import os

    tmp = tmp_path_factory.mktemp("build13")
    old = {k: os.environ.get(k) for k in ("CRPIPE_MIRROR",)}
    os.environ.pop("CRPIPE_MIRROR", None)
    try:
        res = runner.invoke(app, ["build", "--out", str(tmp / "aligned"), "--offline"])
    finally:
        for k, v in old.items():
            if v is not None:
                os.environ[k] = v
    assert res.exit_code == 0, res.output
    return tmp / "aligned"


def test_search_renders_the_words_searched_for(built):
    res = runner.invoke(app, ["search", "mana value", "--db", str(built / "en-reference.sqlite")])
    assert res.exit_code == 0
    out = " ".join(res.output.replace("│", " ").split())
    assert out.count("mana value") >= 5 and "The of" not in out
    assert "The mana value of an object is a number equal to the total amount of mana in its mana cost" in out
    data = json.loads(runner.invoke(app, ["search", "mana value", "--db", str(built / "en-reference.sqlite"),
                                          "--json"]).output)
    for h in data:
        for a, b in h["highlights"]:
            assert h["snippet"][a:b].lower() in ("mana", "value", "values")


def test_search_rule_number_first(built):
    data = json.loads(runner.invoke(app, ["search", "601.2f", "--db", str(built / "en-reference.sqlite"), "--json"]).output)
    assert data[0]["id"] == "601.2f" and data[0]["snippet"].startswith("The player determines the total cost")
    assert len(data) > 3  # then the rules citing it


def test_search_old_term_finds_the_new_name(built):
    data = json.loads(runner.invoke(app, ["search", "converted mana cost", "--db", str(built / "en-reference.sqlite"),
                                          "--json"]).output)
    ids = [h["id"] for h in data]
    assert ids[0] == "Converted Mana Cost (Obsolete)"
    assert "202.3" in ids and any(h.get("via") == "converted mana cost → mana value" for h in data)


def test_search_portuguese_index_after_a_build(built, monkeypatch):
    monkeypatch.setenv("CRPIPE_HOME", str(built.parent))
    res = runner.invoke(app, ["search", "valor de mana", "--lang", "pt", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data[0]["id"] == "202.3e" and "custo de mana convertido" in data[0]["snippet"]
    res = runner.invoke(app, ["search", "persistir", "--lang", "pt", "--json"])
    assert any(h["id"] == "702.78a" for h in json.loads(res.output))
    # English search of a Portuguese word says where to look
    res = runner.invoke(app, ["search", "persistir", "--db", str(built / "en-reference.sqlite")])
    assert "--lang pt" in res.output
    res = runner.invoke(app, ["search", "x", "--lang", "es", "--db", str(built / "nope.sqlite")])
    assert res.exit_code == 2 and "nope.sqlite" in res.output


def test_stems_follow_the_language():
    from pipeline.search import stems

    assert stems("valores de mana", "pt") == stems("valor de mana", "pt")
    assert stems("regras", "pt") == stems("regra", "pt")
    assert stems("véanse las reglas 614.1c", "es").endswith("r614x1c")


def test_build_outputs_from_the_embedded_archive(built):
    report = json.loads((built / "build-report.json").read_text())
    assert report["skipped"] == []
    files = {o["file"] for o in report["outputs"]}
    for f in ("en-reference.xref.json", "diff-pt-000_460f8bf0ecd0529f.html", "align-pt-000_460f8bf0ecd0529f.json",
              "links-002_094abacf31a08c8b.json", "engine-validation.json", "pt-000_460f8bf0ecd0529f.sqlite"):
        assert f in files
    al = json.loads((built / "align-pt-000_460f8bf0ecd0529f.json").read_text())
    rng = al["base_edition"]["range"]
    assert (rng["first"], rng["last"]) == ("2018-08-10", "2019-06-12")
    es = (built / "diff-es-001_b16e69f1b44391e7.html").read_text()
    assert "No change" in es


# -- no cwd traps ------------------------------------------------------------------------------

@needs_shared
@pytest.mark.parametrize("args", [
    ["history", "702.79a"],
    ["xref", "601.2f"],
    ["diff", "2025-11-14", "latest"],
    ["show", "601.2f", "--no-history"],
    ["validate-engine"],
    ["editions"],
    ["align", str(CORPUS / "seeds" / "001_b16e69f1b44391e7.txt"), "--fail-on", "never"],
    ["link", str(CORPUS / "seeds" / "002_094abacf31a08c8b.txt"), "--card-lang", "pt"],
    ["audit-citations", str(ROOT / "pipeline" / "engine" / "persist.py")],
    ["search", "mana value"],
])
def test_every_command_runs_from_another_cwd_without_path_flags(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CRPIPE_MIRROR", str(EDITIONS))
    res = runner.invoke(app, args)
    assert res.exit_code in (0, 1), res.output  # 1: findings (audit, validate)
    assert "error" not in res.output.split("\n")[0].lower()


def test_errors_name_the_path_tried(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["xref", "601.2f", "--doc", "nope.txt"])
    assert res.exit_code == 2 and str(tmp_path / "nope.txt") in res.output
    monkeypatch.setenv("CRPIPE_MIRROR", "relative/missing")
    res = runner.invoke(app, ["history", "702.79a"])
    assert res.exit_code == 2 and str(tmp_path / "relative" / "missing") in res.output


def test_build_defaults_come_from_the_project(monkeypatch, tmp_path):
    from pipeline.paths import default_corpus, default_out

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CRPIPE_HOME", raising=False)
    assert default_corpus() == ROOT / "corpus" and default_out() == ROOT / "aligned"


# -- small items ---------------------------------------------------------------------------------

def test_history_accepts_a_trailing_dot_and_reads_without_colour(no_mirror):
    res = runner.invoke(app, ["history", "702.79a."])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "[-" in out and "{+" in out  # the word diff is readable without colour
    assert "702.78a" in out


def test_diff_warns_when_reversed(no_mirror):
    res = runner.invoke(app, ["diff", "2025-11-14", "2025-09-19"])
    assert res.exit_code == 0
    assert "look reversed" in res.output


@needs_shared
def test_align_with_one_reference_file_says_so(tmp_path):
    res = runner.invoke(app, ["align", str(CORPUS / "seeds" / "001_b16e69f1b44391e7.txt"), "--reference",
                              str(EDITIONS / "2025-11-14.txt"), "--fail-on", "never"])
    assert res.exit_code == 0, res.output
    assert "None" not in " ".join(res.output.split()[:30]) and "the given reference file" in res.output


def test_link_eval_baseline_without_bm25s(monkeypatch):
    monkeypatch.setitem(sys.modules, "bm25s", None)  # import fails
    gold = ROOT / "tests" / "data" / "rulings-gold-sets.json"
    res = runner.invoke(app, ["link-eval", str(gold), "--rules", "2025-11-14", "--baseline"])
    assert res.exit_code == 2 and "bm25s" in res.output and "Traceback" not in res.output


def test_help_texts():
    res = runner.invoke(app, ["validate-engine", "--help"])
    assert "pip install '.'" not in res.output and "crpipe[phase]" in " ".join(res.output.split())
    for cmd in ("check", "search"):
        res = runner.invoke(app, [cmd, "--help"])
        import re

        opts = re.findall(r"│ (--[a-z-]+)\s+(?:[A-Z]+\s+)?(\S*)", res.output)
        assert opts and all(helptext for _, helptext in opts), (cmd, opts)


def _every_command(group, path=()):
    import typer.main

    cmd = typer.main.get_command(group) if not path else group
    for name, sub in sorted(getattr(cmd, "commands", {}).items()):
        yield (*path, name)
        yield from _every_command(sub, (*path, name))


def test_help_has_h_and_no_bool_type_on_flags():
    import re

    commands = list(_every_command(app))
    assert ("editions", "add") in commands and ("show",) in commands and len(commands) >= 17
    for cmd in [(), *commands]:
        env = {"COLUMNS": "200", "NO_COLOR": "1"}
        long, short = (runner.invoke(app, [*cmd, h], env=env) for h in ("--help", "-h"))
        assert long.exit_code == short.exit_code == 0, (cmd, long.output)
        assert long.output == short.output, cmd
        assert "<bool>" not in long.output and re.search(r"--help\s+-h\s", long.output), cmd
    show = " ".join(runner.invoke(app, ["show", "--help"], env={"COLUMNS": "200"}).output.split())
    # A flag has no type; an option that takes a value keeps its own.
    assert "--no-history Skip the one-line history" in show and "--doc <path>" in show
    assert "--json PATH|- Write the rule view as JSON to PATH" in show


def test_version_without_loading_typer():
    from pipeline import __version__

    for flag in ("--version", "-V"):
        probe = ("import runpy, sys; sys.argv = ['crpipe', %r]; "
                 "runpy.run_module('pipeline.cli', run_name='__main__')\n"
                 "assert 'typer' not in sys.modules, 'typer loaded'") % flag
        r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 0 and r.stdout == f"crpipe {__version__}\n" and not r.stderr, r
    res = runner.invoke(app, ["--version", "show"])  # with more arguments: Typer's eager option
    assert res.exit_code == 0 and res.output == f"crpipe {__version__}\n"


def test_link_shows_rule_text_and_writes_html(no_mirror, tmp_path):
    out = tmp_path / "links.html"
    res = runner.invoke(app, ["link", str(CORPUS / "seeds" / "002_094abacf31a08c8b.txt"), "--card-lang", "pt",
                              "--cards", str(CORPUS / "cards" / "refuse-cooperate.atomic.json"), "--html", str(out)])
    assert res.exit_code == 0, res.output
    assert "To copy a" in res.output  # the best rule's text, beside its number
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>") and "707.10" in html and "To copy a spell" in html


def test_reference_ref_from_the_archive():
    from pipeline.build import _embedded_reference

    r = _embedded_reference("2025-11-14.txt", None)
    assert isinstance(r, EditionRef) and r.source == "embedded"
    assert hashlib.sha256(r.read_bytes()).hexdigest() == r.sha256
    assert _embedded_reference("2025-11-14.txt", "0" * 64) is None


# -- acceptance 1: a fresh clone, no network, no mirror ------------------------------------------

@pytest.mark.slow
def test_fresh_clone_builds_everything_offline(tmp_path):
    """`git clone` of this checkout into a folder with no ../shared, no CRPIPE_MIRROR, an empty
    cache: the README's `crpipe build` (no flags) runs every stage from the embedded archive,
    then `history 702.79a` works with no flags."""
    import os
    import subprocess

    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)
    assert not (tmp_path / "shared").exists()
    env = {k: v for k, v in os.environ.items() if k not in ("CRPIPE_MIRROR", "CRPIPE_HOME", "CRPIPE_CACHE")}
    env.update({"PYTHONPATH": str(clone), "CRPIPE_CACHE": str(tmp_path / "cache"),
                # any download attempt would fail at once instead of reaching the network
                "http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9"})

    def run(*args):
        return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], cwd=clone, env=env, capture_output=True,
                              text=True, timeout=900)

    r = run("build")
    assert r.returncode == 0, r.stderr[-3000:]
    # The build reads the default edition (issue 26.4): the newest in the embedded archive.
    assert "reference edition 2026-01-16: the default edition (the newest of cache + embedded archive)" in \
        " ".join(r.stdout.split())
    report = json.loads((clone / "aligned" / "build-report.json").read_text())
    assert report["skipped"] == [] and report["reference"]["found"]
    files = {o["file"] for o in report["outputs"]}
    for stage_output in ("en-reference.xref.json", "diff-pt-000_460f8bf0ecd0529f.md", "align-pt-000_460f8bf0ecd0529f.html",
                         "links-002_094abacf31a08c8b.csv", "engine-validation.json"):
        assert stage_output in files
    rng = json.loads((clone / "aligned" / "align-pt-000_460f8bf0ecd0529f.json").read_text())["base_edition"]["range"]
    assert (rng["first"], rng["last"]) == ("2018-08-10", "2019-06-12")
    r = run("history", "702.79a", "--json")
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout)["numbers"] == ["502.79a", "702.76a", "702.77a", "702.78a", "702.79a"]


def test_audit_without_editions_keeps_stale_citations(no_mirror, tmp_path):
    """No --editions: the audit still reads the history (embedded archive), so a stale number
    is reported as renumbered, not downgraded to missing / wrong-topic."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "persist.py").write_text("# Persist (CR 702.78a): return the creature with a -1/-1 counter.\n"
                                    "def persist(card):\n    pass\n", encoding="utf-8")
    res = runner.invoke(app, ["audit-citations", str(src), "--json"])
    assert res.exit_code == 1, res.output
    c = json.loads(res.output)["citations"][0]
    assert (c["cited"], c["status"], c["suggested"]) == ("702.78a", "stale-renumbered", "702.79a")

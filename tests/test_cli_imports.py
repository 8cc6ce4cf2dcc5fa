"""Issue 18, item 1: commands start fast because they import only what they use.

Each case runs the real CLI in a fresh interpreter and records every module it imported
(at exit, so modules imported inside the command count too).  Timing is for the
benchmarks (``benchmarks/bench_cli.py``); this test pins the cause: no heavy library
is loaded by a command that does not need it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import EDITIONS, ROOT, needs_shared

#: Libraries that cost 0.05–0.5 s to import; none is needed to show help, a rule or a parse summary.
HEAVY = {"pandas", "pyarrow", "numpy", "scipy", "spacy", "thinc", "networkx", "lxml", "sklearn", "rapidfuzz",
         "pypdf", "pypdfium2", "sentence_transformers", "torch",
         # Typer 0.29 imports it on every command (pyproject holds Typer below 0.29).
         "pydantic"}

_PROBE = """
import atexit, json, sys
out = sys.argv.pop(1)
sys.argv[0] = "crpipe"
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from pipeline.cli import main
main()
"""


def _imports(tmp_path, *args: str, mirror: bool = True) -> tuple[subprocess.CompletedProcess, set[str]]:
    out = tmp_path / "modules.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT), CRPIPE_MIRROR=str(EDITIONS), CRPIPE_CACHE=str(tmp_path / "cache"))
    if not mirror:  # the embedded archive alone (a fresh clone has no ../shared)
        env.pop("CRPIPE_MIRROR")
    r = subprocess.run([sys.executable, "-c", _PROBE, str(out), *args], capture_output=True, text=True,
                       cwd=ROOT, env=env, timeout=300)
    mods = set(json.loads(out.read_text())) if out.is_file() else set()
    return r, mods


def _heavy(mods: set[str]) -> list[str]:
    return sorted({m.split(".")[0] for m in mods} & HEAVY)


def _has_command(name: str) -> bool:
    from pipeline.cli import COMMAND_MODULES, app  # noqa: PLC0415

    names = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    return name in names or name in COMMAND_MODULES


def test_help_imports_nothing_heavy(tmp_path):
    r, mods = _imports(tmp_path, "--help")
    assert r.returncode == 0, r.stderr
    assert "Usage" in r.stdout
    assert "pipeline.cli" in mods  # the probe really ran the CLI
    assert _heavy(mods) == []
    # No pipeline stage either: help is the commands' signatures, not their code.
    stages = {m for m in mods if m.startswith(("pipeline.segment", "pipeline.diff", "pipeline.align",
                                                "pipeline.link", "pipeline.engine", "pipeline.ingest"))}
    assert stages == set()


def test_a_command_with_options_imports_no_pydantic(tmp_path):
    """Typer 0.29 loads pydantic when it converts a command's parameters (not for --help)."""
    r, mods = _imports(tmp_path, "editions", "--json", mirror=False)
    assert r.returncode == 0, r.stderr
    assert "pipeline.commands.editions" in mods and "typer" in mods
    assert _heavy(mods) == []


@needs_shared
def test_parse_imports_nothing_heavy(tmp_path):
    r, mods = _imports(tmp_path, "parse", str(EDITIONS / "2025-11-14.txt"))
    assert r.returncode == 0, r.stderr
    assert "pipeline.segment.official" in mods  # it parsed
    assert _heavy(mods) == []


@needs_shared
def test_show_imports_nothing_heavy(tmp_path):
    if not _has_command("show"):
        pytest.skip("no 'show' command on this branch yet (issue 13 adds it)")
    r, mods = _imports(tmp_path, "show", "601.2f")
    assert r.returncode == 0, r.stderr
    assert "601.2f" in r.stdout
    assert _heavy(mods) == []
    # Warm (the edition's index and the rule's history line cached): no parse, no cross-reference
    # extraction, no archive of editions -- only the look-up.
    again, warm = _imports(tmp_path, "show", "601.2f")
    assert again.stdout == r.stdout
    assert not {m for m in warm if m.startswith(("pipeline.xref", "pipeline.diff.history", "pipeline.diff.match",
                                                 "pipeline.diff.classify", "pipeline.segment.paste",
                                                 "pipeline.ingest.loader"))}


# -- the replayed top-level help (pipeline/help_cache.py) ------------------------------------------

def _help(tmp_path, env_extra: dict | None = None, cache: str = "cache") -> tuple[str, set[str]]:
    out = tmp_path / "modules.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT), CRPIPE_CACHE=str(tmp_path / cache), **(env_extra or {}))
    r = subprocess.run([sys.executable, "-c", _PROBE, str(out), "--help"], capture_output=True, text=True,
                       cwd=ROOT, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout, set(json.loads(out.read_text()))


def test_replayed_help_equals_the_live_rendering(tmp_path):
    live, mods = _help(tmp_path)
    assert "typer" in mods and "Usage" in live and "show" in live
    replay, mods = _help(tmp_path)
    assert replay == live
    assert "typer" not in mods and "rich" not in mods  # it really was the recording
    # Another width is another key: rendered live at that width, then replayed.
    wide, mods = _help(tmp_path, {"COLUMNS": "132"})
    assert "typer" in mods and wide != live and max(map(len, wide.splitlines())) > 80
    assert _help(tmp_path, {"COLUMNS": "132"})[0] == wide
    # A live rendering with no cache at all is the same text.
    assert _help(tmp_path, cache="elsewhere")[0] == live


def test_a_damaged_help_recording_is_rendered_again(tmp_path):
    live, _ = _help(tmp_path)
    (entry,) = (tmp_path / "cache" / "help").iterdir()
    for junk in ('{"key": "other", "text": "stale help"}', "{not json", ""):
        entry.write_text(junk)
        again, mods = _help(tmp_path)
        assert again == live and "typer" in mods


def test_replayed_help_on_a_terminal(tmp_path):
    """On a terminal rich adds colour and takes the terminal's width: recorded and replayed as is."""
    import pty  # noqa: PLC0415 - POSIX only

    def run() -> bytes:
        env = dict(os.environ, PYTHONPATH=str(ROOT), CRPIPE_CACHE=str(tmp_path / "cache"), TERM="xterm-256color",
                   COLUMNS="100")
        env.pop("NO_COLOR", None)
        pid, fd = pty.fork()
        if pid == 0:  # child: stdout is the terminal
            os.chdir(ROOT)
            os.execve(sys.executable, [sys.executable, "-m", "pipeline.cli", "--help"], env)
        chunks = []
        while True:
            try:
                b = os.read(fd, 65536)
            except OSError:
                break
            if not b:
                break
            chunks.append(b)
        os.waitpid(pid, 0)
        return b"".join(chunks)

    live = run()
    assert b"\x1b[" in live  # coloured
    assert run() == live
    assert len(list((tmp_path / "cache" / "help").iterdir())) == 1


def test_the_command_map_names_each_commands_module():
    """``crpipe NAME`` imports only COMMANDS[NAME]'s module: the map must say where every command lives."""
    from pipeline.cli import COMMAND_MODULES, COMMANDS, build_app  # noqa: PLC0415

    def names(app) -> set[str]:
        return {c.name or c.callback.__name__ for c in app.registered_commands} | {g.name for g in app.registered_groups}

    for module in COMMAND_MODULES:
        assert names(build_app([module])) == {n for n, m in COMMANDS.items() if m == module}, module
    assert set(COMMANDS.values()) == set(COMMAND_MODULES)


def test_one_command_app_is_still_a_group(tmp_path):
    """``crpipe show RULE`` with only show's module loaded still reads "show" as the command."""
    r, mods = _imports(tmp_path, "show", "--help")
    assert r.returncode == 0, r.stderr
    assert "show [OPTIONS]" in r.stdout
    assert not any(m.startswith("pipeline.commands.") and m.split(".")[-1] not in ("show", "common") for m in mods)


def test_command_help_prose_is_reflowed_not_ragged():
    """A docstring's source line breaks do not reach the help: at 200 columns each prose
    paragraph of ``build --help`` fills its lines (Typer keeps single breaks after the first
    paragraph, and rich wrapped those lines again, leaving half-empty lines)."""
    from typer.testing import CliRunner

    from pipeline.cli import build_app, reflow

    r = CliRunner().invoke(build_app(["build"]), ["build", "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert r.exit_code == 0, r.output
    line = next(l for l in r.output.splitlines() if "The reference edition is taken from" in l)
    assert "else the archive of English editions embedded in crpipe, else downloaded" in line
    # lists and command lines keep their breaks
    doc = "Summary.\n\nProse that\nwraps.\n\n- one\n- two\n\n  crpipe x\n  crpipe y"
    assert reflow(doc) == "Summary.\n\nProse that wraps.\n\n- one\n- two\n\n  crpipe x\n  crpipe y"

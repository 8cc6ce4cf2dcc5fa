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
         "pypdf", "pypdfium2", "sentence_transformers", "torch"}

_PROBE = """
import atexit, json, sys
out = sys.argv.pop(1)
sys.argv[0] = "crpipe"
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from pipeline.cli import main
main()
"""


def _imports(tmp_path, *args: str) -> tuple[subprocess.CompletedProcess, set[str]]:
    out = tmp_path / "modules.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT), CRPIPE_MIRROR=str(EDITIONS), CRPIPE_CACHE=str(tmp_path / "cache"))
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

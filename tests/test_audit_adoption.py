"""Issue 30, acceptance 3: adopting the citation audit on a real codebase — a baseline that
accepts today's findings and reports only new ones, suppressions the author writes, and the
pre-commit hook (the pre-commit framework's and a plain git hook) run from a test repository.

Everything runs on the edition and history the package embeds (no ../shared needed), in temporary
folders and git repositories; nothing is fetched."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pipeline.audit.scan import DASH, HASH, PROSE, SLASH
from pipeline.cli import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()

PERSIST = """package engine;

/** Persist: see 702.78 persist. */
public class Persist {
    // 702.78a: when it dies with no -1/-1 counters, return it
    void onDies() {}
}
"""
EXALTED = """# Exalted and persist helpers.
def exalted():
    # 702.90a: exalted triggers when a creature attacks alone
    pass

# CR 702.19b: trample assigns lethal damage to blockers first
"""


def _tree(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "Persist.java").write_text(PERSIST, encoding="utf-8")
    (root / "src" / "exalted.py").write_text(EXALTED, encoding="utf-8")
    return root


def _audit(*args: str) -> tuple[int, dict]:
    res = runner.invoke(app, ["audit-citations", *args, "--json"])
    assert res.exit_code in (0, 1), res.output
    return res.exit_code, json.loads(res.stdout)


def _new(data: dict) -> list[tuple[str, int, str]]:
    return [(c["file"], c["line"], c["cited"]) for c in data["citations"] if c.get("new")]


def test_baseline_accepts_today_then_reports_only_the_edited_citation(tmp_path):
    tree = _tree(tmp_path / "engine")
    base = tmp_path / "engine" / ".crpipe-audit-baseline.json"
    rc, data = _audit(str(tree), "--baseline", str(base))
    problems = [c for c in data["citations"] if c["status"] != "ok"]
    assert len(problems) >= 3 and rc == 0  # the first run accepts them all and writes the baseline
    assert data["baseline"]["written"] and data["baseline"]["accepted"] == len(problems)
    assert json.loads(base.read_text())["format"] == "crpipe-audit-baseline"
    first = base.read_bytes()

    # An unchanged tree: nothing new, exit 0; the baseline is not rewritten.
    rc, data = _audit(str(tree), "--baseline", str(base))
    assert rc == 0 and _new(data) == [] and data["baseline"]["new"] == 0
    assert data["baseline"]["accepted"] == len(problems) and base.read_bytes() == first

    # Code added above the findings moves their lines: still nothing new.
    java = tree / "src" / "Persist.java"
    java.write_text(PERSIST.replace("package engine;\n", "package engine;\n\nimport java.util.List;\n\n"),
                    encoding="utf-8")
    rc, data = _audit(str(tree), "--baseline", str(base))
    assert rc == 0 and _new(data) == []

    # One citation edited (its words change): it is the only finding, and exit 1.
    py = tree / "src" / "exalted.py"
    py.write_text(EXALTED.replace("when a creature attacks alone", "whenever a creature attacks alone"),
                  encoding="utf-8")
    sarif = tmp_path / "new.sarif"
    rc, data = _audit(str(tree), "--baseline", str(base), "--sarif", str(sarif))
    assert rc == 1 and _new(data) == [("src/exalted.py", 3, "702.90a")]
    assert data["baseline"]["new"] == 1 and data["baseline"]["fixed"] == 1  # the old wording is gone
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert [(r["locations"][0]["physicalLocation"]["region"]["startLine"], r["baselineState"]) for r in results] == [
        (3, "new")]
    from sarif.loader import load_sarif_file  # an independent reader of the streamed SARIF

    assert [(r["Location"], int(r["Line"])) for r in load_sarif_file(str(sarif)).get_records()] == [
        ("src/exalted.py", 3)]

    # The text output lists that one finding and nothing else.
    res = runner.invoke(app, ["audit-citations", str(tree), "--baseline", str(base)])
    assert res.exit_code == 1
    lines = [x for x in res.stdout.splitlines() if re.match(r"^\S+:\d+:\d+: ", x)]
    assert len(lines) == 1 and lines[0].startswith("src/exalted.py:3:") and "wrong-topic 702.90a" in lines[0]

    # --update-baseline accepts it: the next run is clean again.
    rc, _ = _audit(str(tree), "--baseline", str(base), "--update-baseline")
    assert rc == 0
    rc, data = _audit(str(tree), "--baseline", str(base))
    assert rc == 0 and _new(data) == []


def test_baseline_names_files_alike_for_the_tree_and_for_single_files(tmp_path, monkeypatch):
    """A hook passes changed files one by one, relative to the repository: the baseline written
    for the whole tree recognises them (names are relative to the baseline's folder)."""
    tree = _tree(tmp_path / "engine")
    base = tree / ".crpipe-audit-baseline.json"
    _audit(str(tree), "--baseline", str(base))
    monkeypatch.chdir(tree)
    rc, data = _audit("src/exalted.py", "--baseline", ".crpipe-audit-baseline.json")
    assert rc == 0 and _new(data) == [] and data["baseline"]["accepted"] >= 1
    # Auditing one file keeps the other files' accepted findings when the baseline is updated.
    before = {r["file"] for r in json.loads(base.read_text())["findings"]}
    _audit("src/exalted.py", "--baseline", ".crpipe-audit-baseline.json", "--update-baseline")
    assert {r["file"] for r in json.loads(base.read_text())["findings"]} == before


def test_a_file_that_is_not_a_baseline_is_refused_and_kept(tmp_path):
    tree = _tree(tmp_path / "engine")
    mine = tmp_path / "notes.json"
    mine.write_text('{"my": "notes"}\n', encoding="utf-8")
    res = runner.invoke(app, ["audit-citations", str(tree), "--baseline", str(mine)])
    assert res.exit_code == 2
    assert len(res.stderr.strip().splitlines()) == 1 and "not a crpipe audit baseline" in res.stderr
    assert mine.read_text() == '{"my": "notes"}\n'
    res = runner.invoke(app, ["audit-citations", str(tree), "--update-baseline"])
    assert res.exit_code == 2 and "--baseline" in res.stderr
    # A baseline that could not be written is refused before the run, not after its output.
    res = runner.invoke(app, ["audit-citations", str(tree), "--baseline", str(mine / "sub" / "b.json")])
    assert res.exit_code == 2 and res.stdout == "" and len(res.stderr.strip().splitlines()) == 1
    assert "cannot write the baseline" in res.stderr


def test_keep_comments_suppress_a_citation_on_purpose(tmp_path):
    (tmp_path / "a.py").write_text(
        "# CR 702.90a: exalted triggers when a creature attacks alone  crpipe: keep\n"
        "# crpipe: keep\n"
        "# 702.78a persist\n"
        "# 702.78 persist\n", encoding="utf-8")
    (tmp_path / "B.java").write_text("// crpipe: keep-file 702.78\n// see 702.78 persist\n// see 702.78a persist\n",
                                     encoding="utf-8")
    rc, data = _audit(str(tmp_path))
    by = {(c["file"], c["line"]): c for c in data["citations"]}
    assert by[("a.py", 1)].get("kept") and by[("a.py", 3)].get("kept")  # its line, the line below a lone keep
    assert not by[("a.py", 4)].get("kept") and by[("a.py", 4)]["status"] == "stale-renumbered"
    assert by[("B.java", 2)].get("kept") and not by[("B.java", 3)].get("kept")
    assert data["kept"] == 3 and rc == 1  # the two citations not kept still fail the run


def test_hook_files_pattern_covers_every_extension_the_audit_reads():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = hooks
    assert hook["id"] == "crpipe-audit-citations" and hook["entry"] == "crpipe audit-citations"
    assert hook["language"] == "python" and hook["require_serial"] is True
    rx = re.compile(hook["files"])
    exts = SLASH | HASH | DASH | PROSE
    assert all(rx.search(f"src/a{e}") for e in exts)
    assert not rx.search("image.png") and not rx.search("data.json")
    assert set(re.search(r"\((.*)\)", hook["files"]).group(1).split("|")) == {e[1:] for e in exts}


# -- the hooks, run from a test repository --------------------------------------------------

def _env(tmp: Path) -> dict:
    env = dict(os.environ)
    # The worktree's code (not an installed crpipe) and pre-commit's own cache in the test folder.
    env["PYTHONPATH"] = os.pathsep.join(x for x in [str(ROOT), os.environ.get("PYTHONPATH", "")] if x)
    env.update(PRE_COMMIT_HOME=str(tmp / "pre-commit-home"), GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org", HOME=str(tmp))
    env.pop("GIT_DIR", None)
    return env


def _git(repo: Path, env: dict, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=check)


def _repo(tmp: Path, env: dict) -> Path:
    repo = _tree(tmp / "repo")
    _git(repo, env, "init", "-q", "-b", "main")
    _git(repo, env, "config", "commit.gpgsign", "false")
    return repo


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_pre_commit_framework_hook_from_a_test_repository(tmp_path):
    """The .pre-commit-hooks.yaml entry, as pre-commit runs it, on commits of a fresh repository.
    The hook's `language: python` would make pre-commit pip-install crpipe into a virtualenv (the
    network); the test runs the same entry, files and options as a local `system` hook instead."""
    pre_commit = pytest.importorskip("pre_commit", reason="pre-commit (the test extra) is not installed")
    del pre_commit
    env = _env(tmp_path)
    # The manifest itself is valid as pre-commit reads a hook repository's.
    check = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
                           env=env, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    repo = _repo(tmp_path, env)
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    local = {**hook, "language": "system", "args": ["--baseline", ".crpipe-audit-baseline.json"],
             "entry": hook["entry"].replace("crpipe", f"{sys.executable} -m pipeline.cli", 1)}
    (repo / ".pre-commit-config.yaml").write_text(
        yaml.safe_dump({"repos": [{"repo": "local", "hooks": [local]}]}), encoding="utf-8")
    assert subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=repo, env=env,
                          capture_output=True, text=True).returncode == 0
    # The first commit: the hook writes the baseline, accepting today's findings.
    _git(repo, env, "add", "-A")
    first = _git(repo, env, "commit", "-q", "-m", "engine", check=False)
    assert first.returncode == 0, first.stdout + first.stderr
    assert (repo / ".crpipe-audit-baseline.json").is_file()
    _git(repo, env, "add", ".crpipe-audit-baseline.json")
    assert _git(repo, env, "commit", "-q", "-m", "baseline", check=False).returncode == 0
    # An unchanged citation in a touched file: the commit goes through.
    java = repo / "src" / "Persist.java"
    java.write_text(java.read_text() + "// a note\n", encoding="utf-8")
    _git(repo, env, "add", "-A")
    again = _git(repo, env, "commit", "-q", "-m", "note", check=False)
    assert again.returncode == 0, again.stdout + again.stderr
    # One citation edited: the commit stops, naming that finding alone.
    py = repo / "src" / "exalted.py"
    py.write_text(py.read_text().replace("attacks alone", "attacks all alone"), encoding="utf-8")
    _git(repo, env, "add", "-A")
    bad = _git(repo, env, "commit", "-q", "-m", "edit", check=False)
    assert bad.returncode != 0
    findings = [x for x in (bad.stdout + bad.stderr).splitlines() if re.match(r"^\S+:\d+:\d+: ", x)]
    assert len(findings) == 1 and findings[0].startswith("src/exalted.py:3:"), bad.stdout + bad.stderr


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_plain_git_hook_from_a_test_repository(tmp_path):
    """The hook script shipped for repositories without the pre-commit framework."""
    env = _env(tmp_path)
    env["CRPIPE"] = f"{sys.executable} -m pipeline.cli"
    repo = _repo(tmp_path, env)
    hook = repo / ".git" / "hooks" / "pre-commit"
    shutil.copy(ROOT / "pipeline" / "data" / "hooks" / "pre-commit-audit-citations", hook)
    hook.chmod(0o755)
    _git(repo, env, "add", "-A")
    first = _git(repo, env, "commit", "-q", "-m", "engine", check=False)
    assert first.returncode == 0, first.stdout + first.stderr
    assert (repo / ".crpipe-audit-baseline.json").is_file()
    _git(repo, env, "add", "-A")
    _git(repo, env, "commit", "-q", "-m", "baseline")
    java = repo / "src" / "Persist.java"
    java.write_text(java.read_text().replace("702.78a: when it dies", "702.78a: when it dies (undying too)"),
                    encoding="utf-8")
    _git(repo, env, "add", "-A")
    bad = _git(repo, env, "commit", "-q", "-m", "edit", check=False)
    assert bad.returncode != 0
    findings = [x for x in (bad.stdout + bad.stderr).splitlines() if re.match(r"^\S+:\d+:\d+: ", x)]
    assert len(findings) == 1 and findings[0].startswith("src/Persist.java:5:"), bad.stdout + bad.stderr

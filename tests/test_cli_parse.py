"""Issue 2, acceptance 3 and 5: `crpipe parse`, `check`, `search` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EDITIONS, needs_shared
from crfixture import CLEAN_RULES, document


def crpipe(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def _bad_inputs(tmp: Path) -> dict[str, Path]:
    (tmp / "empty.txt").write_bytes(b"")
    (tmp / "binary.txt").write_bytes(bytes(range(256)) * 64)
    full = document()
    cut = full[: full.index("101.1a") + 10]  # cut in the middle of a rule
    (tmp / "truncated.txt").write_text(cut, encoding="utf-8")
    (tmp / "koi8.txt").write_bytes(("Правила игры: правило 100.1 и так далее.\n" * 20).encode("koi8_r"))
    (tmp / "folder.txt").mkdir()
    return {p: tmp / p for p in ("empty.txt", "binary.txt", "truncated.txt", "koi8.txt", "folder.txt")}


@pytest.mark.parametrize("name,what", [
    ("empty.txt", "empty"), ("binary.txt", "binary"), ("truncated.txt", "truncated"),
    ("koi8.txt", "encoding"), ("folder.txt", "directory"),
])
def test_bad_input_one_line_no_traceback_no_output(tmp_path, name, what):
    path = _bad_inputs(tmp_path)[name]
    out = tmp_path / "out.json"
    r = crpipe("parse", path, "--json", out)
    assert r.returncode != 0
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("crpipe: error: ") and str(path) in lines[0] and what in lines[0]
    assert "Traceback" not in r.stderr + r.stdout
    assert not out.exists() and not list(tmp_path.glob(".out.json*"))


def test_partial_accepts_a_truncated_document(tmp_path):
    path = _bad_inputs(tmp_path)["truncated.txt"]
    r = crpipe("parse", path, "--partial", "--json", "-")
    assert r.returncode == 0
    doc = json.loads(r.stdout)
    assert any(f["kind"] == "truncated" for f in doc["findings"])


def test_parse_json_to_stdout_has_the_documented_fields(tmp_path):
    src = tmp_path / "cr.txt"
    src.write_text(document(), encoding="utf-8")
    r = crpipe("parse", src, "--json", "-")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["meta"]["language"] == "en" and doc["meta"]["effective_date"] == "2031-03-03"
    rule = next(x for x in doc["rules"] if x["id"] == "100.1a")
    assert rule["text"] == "A two-player game has two players." and rule["examples"] == ["Example: Alice plays Bob."]
    assert rule["parent"] == "100.1"
    assert {"term", "definition"} <= set(doc["glossary"][0])
    import jsonschema

    schema = json.loads((Path(__file__).parents[1] / "pipeline/data/document.schema.json").read_text())
    jsonschema.validate(doc, schema)


def test_check_exit_codes(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text(document(), encoding="utf-8")
    assert crpipe("check", good).returncode == 0
    bad = tmp_path / "bad.txt"
    bad.write_text(document(CLEAN_RULES + ["101.7a Orphan."]), encoding="utf-8")
    r = crpipe("check", bad, "--json")
    assert r.returncode == 1
    assert [f["kind"] for f in json.loads(r.stdout)["findings"]] == ["orphan"]


@needs_shared
def test_search_finds_mana_value_rule(tmp_path):
    r = crpipe("parse", EDITIONS / "2025-11-14.txt", "--export", tmp_path)
    assert r.returncode == 0, r.stderr
    db = tmp_path / "en-2025-11-14.sqlite"
    assert db.is_file() and (tmp_path / "en-2025-11-14.rules.parquet").is_file()
    r = crpipe("search", "mana value", "--db", db, "--json")
    ids = [h["id"] for h in json.loads(r.stdout)]
    assert "202.3" in ids[:5]
    import pandas as pd

    df = pd.read_parquet(tmp_path / "en-2025-11-14.rules.parquet")
    assert len(df) == 3255 and len(pd.read_csv(tmp_path / "en-2025-11-14.rules.csv")) == 3255


def test_search_without_database_is_a_clear_error(tmp_path):
    r = crpipe("search", "mana", "--db", tmp_path / "none.sqlite")
    assert r.returncode == 2 and "none.sqlite" in r.stderr and "Traceback" not in r.stderr


def test_seed_000_base_edition_with_no_mirror_and_no_flags():
    """Issue 26, acceptance 3: the embedded archive alone tells an undated paste's base editions."""
    import os

    seed = next((Path(__file__).resolve().parents[1] / "corpus" / "seeds").glob("000_*.txt"))
    env = {k: v for k, v in os.environ.items() if k != "CRPIPE_MIRROR"}
    r = subprocess.run([sys.executable, "-m", "pipeline.cli", "parse", str(seed), "--json", "-"], capture_output=True,
                       text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    be = json.loads(r.stdout)["meta"]["base_edition"]
    # 702.78 is still "Persistir" and 117.9d exists: 2018-08-10 … 2019-06-12 of the archive.
    assert (be["first"], be["last"]) == ("2018-08-10", "2019-06-12"), be
    r = subprocess.run([sys.executable, "-m", "pipeline.cli", "parse", str(seed)], capture_output=True, text=True,
                       timeout=300, env={**env, "COLUMNS": "200"})
    assert "base edition" in r.stdout and "2018-08-10 … 2019-06-12" in r.stdout

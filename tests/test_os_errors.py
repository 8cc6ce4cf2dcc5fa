"""Issue 14, acceptance 4 and the bounds of 3: the operating system's refusals and hostile
inputs end in one line naming the path and the cause, with the stated exit code."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from conftest import CORPUS, EDITIONS, SEEDS, needs_shared
from pipeline.cli import app


def _run(*args, env=None):
    r = CliRunner().invoke(app, [str(a) for a in args], env={"CRPIPE_MIRROR": "", **(env or {})})
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("crpipe")]
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit), r.output
    return r, errors


@pytest.fixture
def readonly(tmp_path):
    """A read-only folder: a read-only tmpfs as root (root ignores permissions), else chmod 555."""
    where = tmp_path / "ro"
    where.mkdir()
    mounted = False
    if os.geteuid() == 0:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(where)],
                                 capture_output=True).returncode == 0
        if not mounted:
            pytest.skip("running as root without permission to mount a read-only tmpfs")
    else:
        where.chmod(0o555)
    yield where
    if mounted:
        subprocess.run(["umount", str(where)], capture_output=True)
    else:
        where.chmod(0o755)


def test_read_only_output_folder(readonly, tmp_path):
    r, errors = _run("build", "--corpus", CORPUS, "--out", readonly / "aligned", "--cache", tmp_path / "c", "--offline")
    assert r.exit_code == 2 and len(errors) == 1
    assert str(readonly) in errors[0] and ("read-only" in errors[0] or "permission denied" in errors[0])


def test_parse_export_into_read_only_folder(readonly):
    r, errors = _run("parse", CORPUS / "seeds" / "001_b16e69f1b44391e7.txt", "--export", readonly)
    assert r.exit_code == 2 and len(errors) == 1 and str(readonly) in errors[0]


def test_full_disk_on_export(small_disk):
    disk = small_disk
    r, errors = _run("parse", CORPUS / "seeds" / "000_460f8bf0ecd0529f.txt", "--export", disk)
    assert r.exit_code == 2 and len(errors) == 1 and "no space left" in errors[0]
    assert os.listdir(disk) == []  # all formats or none, and no temporary file left


@needs_shared
def test_read_only_cache_is_skipped_with_one_warning(readonly, tmp_path):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    for d in ("2018-08-10", "2019-06-12"):
        (mirror / f"{d}.txt").symlink_to(EDITIONS / f"{d}.txt")
    # A fresh process: this one may hold the inventories in memory already.
    env = {**os.environ, "CRPIPE_CACHE": str(readonly), "CRPIPE_MIRROR": ""}
    r = subprocess.run([sys.executable, "-m", "pipeline.cli", "parse", str(SEEDS / "000_460f8bf0ecd0529f.txt"),
                        "--editions", str(mirror)], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("crpipe")]
    assert "Traceback" not in r.stderr and len(errors) == 1 and errors[0].startswith("crpipe: warning: cache") and str(readonly) in errors[0]


def test_unreadable_cache_entry_is_discarded(tmp_path):
    from pipeline.build import resolve_reference

    cache = tmp_path / "cache"
    (cache / "2025-11-14.txt").mkdir(parents=True)  # a folder where the cached edition should be
    (cache / "2025-11-14.txt" / "x").write_text("x")
    manifest = {"reference": {"mirror_name": "2025-11-14.txt", "sha256": "0" * 64}}
    path, _, notes = resolve_reference(manifest, None, None, cache, allow_download=False)
    assert path is None and any("discarded" in n for n in notes) and not (cache / "2025-11-14.txt").exists()


def test_bad_search_database(tmp_path):
    db = tmp_path / "x.sqlite"
    db.write_text("not a database at all\n" * 100)
    r, errors = _run("search", "mana value", "--db", db)
    assert r.exit_code == 2 and len(errors) == 1 and str(db) in errors[0] and "not a crpipe search database" in errors[0]
    import sqlite3

    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    r, errors = _run("search", "mana value", "--db", other)
    assert r.exit_code == 2 and len(errors) == 1 and "no such table" in errors[0]


def test_search_query_length_is_bounded(tmp_path):
    db = tmp_path / "x.sqlite"
    db.write_bytes(b"")  # never opened: the query is refused first
    t0 = time.perf_counter()
    r, errors = _run("search", " ".join(["mana"] * 2000), "--db", db)
    assert r.exit_code == 2 and len(errors) == 1 and "query too long" in errors[0]
    assert time.perf_counter() - t0 < 5


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("role", ["rulings", "cards"])
def test_json_nested_100000_deep(tmp_path, role):
    from pipeline.errors import InputError
    from pipeline.rulings import load_card_index, read_rulings

    f = tmp_path / "deep.json"
    f.write_text(_nested(100_000))
    with pytest.raises(InputError, match="nested too deeply"):
        (read_rulings if role == "rulings" else load_card_index)(f if role == "rulings" else [f])


@needs_shared
def test_link_on_deep_json_is_one_line(tmp_path):
    f = tmp_path / "deep.json"
    f.write_text(_nested(100_000))
    r, errors = _run("link", f, "--rules", EDITIONS / "2025-11-14.txt")
    assert r.exit_code == 2 and len(errors) == 1 and "nested too deeply" in errors[0] and str(f) in errors[0]


def test_rulings_size_limit_and_special_files(tmp_path, monkeypatch):
    from pipeline.errors import InputError
    from pipeline.rulings import read_rulings
    from pipeline.rulings import reader

    monkeypatch.setattr(reader, "MAX_RULINGS_BYTES", 1 << 20)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(2 << 20)
    with pytest.raises(InputError, match="too large for a rulings file"):
        read_rulings(big)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        read_rulings(fifo)  # never opened: opening a FIFO would wait for a writer


@needs_shared
def test_million_rulings_file_is_refused_by_the_size_limit(tmp_path):
    """1e6 rulings of one card (~100 MB of MTGJSON v5 set JSON) is refused before it is parsed."""
    from pipeline.errors import InputError
    from pipeline.rulings import read_rulings

    f = tmp_path / "million.json"
    ruling = '{"date": "2020-01-01", "text": "If Persistent Petitioners would be countered, it is put onto the battlefield instead."},'
    with open(f, "w") as out:
        out.write('{"data": {"cards": [{"name": "Persistent Petitioners", "rulings": [')
        chunk = ruling * 10_000
        for _ in range(100):
            out.write(chunk)
        out.write('{"date": "2020-01-01", "text": "x"}]}]}}')
    assert f.stat().st_size > 64 << 20
    t0 = time.perf_counter()
    with pytest.raises(InputError, match="too large for a rulings file"):
        read_rulings(f)
    assert time.perf_counter() - t0 < 1


@needs_shared
def test_diff_refuses_oversized_and_truncated_inputs(tmp_path):
    big = tmp_path / "one-line.txt"
    with open(big, "wb") as f:
        f.write(b"100.1 " + b"word " * ((20 << 20) // 5))
    t0 = time.perf_counter()
    r, errors = _run("diff", EDITIONS / "2025-11-14.txt", big)
    assert r.exit_code == 2 and len(errors) == 1 and "too large to diff" in errors[0]
    assert time.perf_counter() - t0 < 5
    truncated = tmp_path / "truncated.txt"
    text = (EDITIONS / "2025-09-19.txt").read_bytes()
    truncated.write_bytes(text[: len(text) // 2])
    r, errors = _run("diff", EDITIONS / "2025-09-19.txt", truncated)
    assert r.exit_code == 2 and len(errors) == 1 and "--partial" in errors[0]


def test_permission_error_is_one_line_with_path_and_cause():
    from pipeline.io import os_failure

    e = os_failure(PermissionError(13, "Permission denied", "/x/y"))
    assert str(e) == "/x/y: permission denied" and e.exit_code == 2
    e = os_failure(OSError(28, "No space left on device", "/x/z"))
    assert str(e) == "/x/z: no space left on the device"


def test_audit_skips_special_and_huge_files(tmp_path):
    """Acceptance 5: a FIFO, a symlink to /dev/zero and a 1 GB file are skipped and reported;
    the run reads none of them (it would hang, never end, or read 1 GB)."""
    from crfixture import document
    from pipeline.audit.report import audit_tree
    from pipeline.segment.official import parse_text

    tree = tmp_path / "src"
    tree.mkdir()
    os.mkfifo(tree / "x.py")
    (tree / "zero.py").symlink_to("/dev/zero")
    with open(tree / "big.py", "wb") as f:
        f.truncate(1 << 30)  # sparse: 1 GB to read, no disk used
    (tree / "ok.py").write_text("# CR 100.1 says so\n")
    t0 = time.perf_counter()
    rep = audit_tree(tree, parse_text(document()))
    elapsed = time.perf_counter() - t0
    assert elapsed < 5
    assert {s["file"]: s["reason"].split(" (")[0] for s in rep.skipped} == {
        "x.py": "not a regular file", "zero.py": "not a regular file", "big.py": "too large for a source file"}
    assert rep.scanned == 1 and [c.cited for c in rep.citations] == ["100.1"]
    assert rep.to_dict()["files_skipped"] == rep.skipped


@needs_shared
def test_audit_cli_reports_skipped_files(tmp_path):
    tree = tmp_path / "src"
    tree.mkdir()
    os.mkfifo(tree / "x.py")
    r, errors = _run("audit-citations", tree, "--rules", EDITIONS / "2025-11-14.txt")
    assert r.exit_code == 0 and "skipped x.py: not a regular file (a pipe)" in r.stderr


def test_download_into_read_only_cache_is_used_with_one_warning(readonly, http_folder, capsys):
    import hashlib

    from pipeline.build import resolve_reference

    root, base = http_folder
    payload = b"Magic: The Gathering Comprehensive Rules\n\nan edition\n"
    (root / "cr.txt").write_bytes(payload)
    manifest = {"reference": {"mirror_name": "2031-03-03.txt", "url": f"{base}/cr.txt",
                              "sha256": hashlib.sha256(payload).hexdigest()}}
    path, how, _ = resolve_reference(manifest, None, None, readonly / "cache",
                                     url_check=lambda u: None if u.startswith(base) else "no")
    assert path.read_bytes() == payload and "not cached" in how
    warnings = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("crpipe")]
    assert len(warnings) == 1 and "warning: cache" in warnings[0]

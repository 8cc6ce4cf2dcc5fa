"""Issue 2, acceptance 8 and the reference lookup: `crpipe build` on the embedded corpus."""

from __future__ import annotations

import functools
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import CORPUS, EDITIONS, needs_shared
from pipeline.build import resolve_reference


def crpipe(*args, env_extra=None, cwd=None):
    import os

    env = {k: v for k, v in os.environ.items() if k != "CRPIPE_MIRROR"}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *map(str, args)], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=600)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@needs_shared
def test_build_twice_is_byte_identical(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    cache = tmp_path / "cache"
    for out in (a, b):
        r = crpipe("build", "--corpus", CORPUS, "--out", out, "--mirror", EDITIONS, "--cache", cache, "--offline")
        assert r.returncode == 0, r.stderr[-2000:]
        # Issue 26, acceptance 6: a summary for people, one line per kind of output, not ~900 files.
        assert len(r.stdout.splitlines()) <= 40, r.stdout
    ta, tb = _tree(a), _tree(b)
    assert ta.keys() == tb.keys() and "en-reference.json" in ta and "build-report.json" in ta
    assert [k for k in ta if ta[k] != tb[k]] == []
    assert "site/" in r.stdout and f"{len(ta) - 1} files" in r.stdout.replace("\n", " ")


def test_build_without_reference_runs_and_says_what_it_skipped(tmp_path):
    # A reference edition that is neither mirrored, cached, embedded nor downloadable.
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    m = yaml.safe_load((corpus / "manifest.yaml").read_text())
    m["reference"].update({"edition": "2031-03-03", "mirror_name": "2031-03-03.txt", "sha256": "0" * 64})
    (corpus / "manifest.yaml").write_text(yaml.safe_dump(m))
    r = crpipe("build", "--corpus", corpus, "--out", tmp_path / "out", "--cache", tmp_path / "cache", "--offline")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "skipped" in r.stdout and "reference" in r.stdout
    report = yaml.safe_load((tmp_path / "out" / "build-report.json").read_text())
    assert any(s["stage"] == "reference" for s in report["skipped"])


def _only(base: str, url: str) -> str | None:
    return None if url.startswith(base + "/") else f"{url} is not the test server"


def test_download_is_checked_against_sha256_and_cached(tmp_path, http_folder):
    root, base = http_folder
    payload = b"Magic: The Gathering Comprehensive Rules\n\nfake edition for the download test\n"
    (root / "MagicCompRules 20310303.txt").write_bytes(payload)
    manifest = {"reference": {"edition": "2031-03-03", "mirror_name": "2031-03-03.txt",
                              "url": f"{base}/MagicCompRules%2020310303.txt",
                              "sha256": hashlib.sha256(payload).hexdigest()}}
    cache = tmp_path / "cache"
    # The local test server is plain http on 127.0.0.1, which a manifest may never name: the
    # URL policy is a parameter, so the test allows exactly its own server.
    local = functools.partial(_only, base)
    path, how, notes = resolve_reference(manifest, None, None, cache, url_check=local)
    assert path == cache / "2031-03-03.txt" and path.read_bytes() == payload and how.startswith("downloaded")
    # Second time: from the cache, no download (the server file is gone).
    (root / "MagicCompRules 20310303.txt").unlink()
    path2, how2, _ = resolve_reference(manifest, None, None, cache, url_check=local)
    assert path2 == path and how2.startswith("cache")
    # A download whose bytes do not match the manifest is refused and not cached.
    (root / "MagicCompRules 20310303.txt").write_bytes(payload + b"tampered")
    shutil.rmtree(cache)
    path3, _, notes3 = resolve_reference(manifest, None, None, cache, url_check=local)
    assert path3 is None and any("sha256" in n for n in notes3) and not cache.exists()


def test_mirror_wins_over_download(tmp_path):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "2031-03-03.txt").write_text("x", encoding="utf-8")
    manifest = {"reference": {"mirror_name": "2031-03-03.txt", "url": "http://127.0.0.1:9/never"}}
    path, how, _ = resolve_reference(manifest, None, mirror, tmp_path / "cache")
    assert path == mirror / "2031-03-03.txt" and how.startswith("mirror")


def test_unreachable_download_is_a_note_not_a_crash(tmp_path):
    manifest = {"reference": {"mirror_name": "x.txt", "url": "http://127.0.0.1:9/unreachable.txt", "sha256": "0" * 64}}
    path, _, notes = resolve_reference(manifest, None, None, tmp_path / "cache", timeout=2,
                                       url_check=lambda u: None)
    assert path is None and any("download" in n for n in notes)

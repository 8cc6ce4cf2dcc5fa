"""Issue 14, acceptance 2: every manifest probe is refused with one line and exit 2; a mirror
file whose sha256 differs is refused; a poisoned cache entry is discarded and rebuilt."""

from __future__ import annotations

import hashlib
import http.server
import os
import shutil
import threading
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from conftest import CORPUS, EDITIONS, needs_shared
from pipeline.build import resolve_reference
from pipeline.cli import app

SHA = "d3a35d82e84890e170e3952c4a1466322e889853e6c9c1bb7ea958c53fff5e85"
GOOD = yaml.safe_load((CORPUS / "manifest.yaml").read_text())
# The project's manifest reads the default edition ('latest'); the probes are of a pinned one,
# whose mirror name, URL and sha256 are what a hostile manifest would abuse.
GOOD["reference"] = {"edition": "2025-11-14", "language": "en", "mirror_name": "2025-11-14.txt",
                     "url": "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt", "sha256": SHA}
PINNED = yaml.safe_dump(GOOD)


def _corpus(tmp_path: Path, manifest) -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    text = manifest if isinstance(manifest, str) else yaml.safe_dump(manifest)
    (corpus / "manifest.yaml").write_text(text)
    return corpus


def _build(tmp_path: Path, corpus: Path, *extra):
    runner = CliRunner()
    env = {"CRPIPE_MIRROR": "", "CRPIPE_CACHE": str(tmp_path / "inv")}
    return runner.invoke(app, ["build", "--corpus", str(corpus), "--out", str(tmp_path / "out"),
                               "--cache", str(tmp_path / "cache"), *extra], env=env)


def _with(**ref):
    m = yaml.safe_load(yaml.safe_dump(GOOD))
    m["reference"].update(ref)
    for k, v in ref.items():
        if v is None:
            del m["reference"][k]
    return m


def _input_path(p):
    m = yaml.safe_load(yaml.safe_dump(GOOD))
    m["inputs"][0]["path"] = p
    return m


PROBES = {
    "path escapes": (_input_path("../../../../etc/passwd"), "leaves the corpus folder"),
    "absolute path": (_input_path("/etc/passwd"), "absolute path"),
    "mirror_name escapes": (_with(mirror_name="../../../../etc/passwd"), "mirror_name"),
    "file url without sha256": (_with(url="file:///etc/passwd", sha256=None), "sha256"),
    "file url": (_with(url="file:///etc/passwd"), "must be https"),
    "http to localhost": (_with(url="http://127.0.0.1/x.txt"), "must be https"),
    "https to another host": (_with(url="https://127.0.0.1/x.txt"), "not one we download from"),
    "https with a port": (_with(url="https://media.wizards.com:8443/x.txt"), "another port"),
    "list at the top": ("- a\n- b\n", "at the top level"),
    "inputs: 5": ({"inputs": 5}, "inputs"),
    "input without role": ({"inputs": [{"path": "seeds/000_460f8bf0ecd0529f.txt"}]}, "role"),
    "unknown role": (_input_path("seeds/000_460f8bf0ecd0529f.txt") | {"inputs": [{"path": "x", "role": "evil"}]}, "role"),
    "bad sha256": (_with(sha256="xyz"), "sha256"),
    "yaml error": ("reference: [unclosed\n  inputs: {\n", "not valid YAML: line"),
}


@pytest.mark.parametrize("probe", sorted(PROBES))
def test_manifest_probe_refused_in_one_line(tmp_path, probe):
    manifest, words = PROBES[probe]
    r = _build(tmp_path, _corpus(tmp_path, manifest), "--offline")
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("crpipe")]
    assert len(lines) == 1 and "Traceback" not in r.output, r.stderr
    assert "manifest.yaml" in lines[0] and words in lines[0], lines[0]
    assert not (tmp_path / "out").exists() and not (tmp_path / "cache").exists()


def test_symlink_out_of_the_corpus_is_refused(tmp_path):
    corpus = _corpus(tmp_path, GOOD)
    (corpus / "seeds" / "000_460f8bf0ecd0529f.txt").unlink()
    (corpus / "seeds" / "000_460f8bf0ecd0529f.txt").symlink_to("/etc/passwd")
    r = _build(tmp_path, corpus, "--offline")
    assert r.exit_code == 2 and "outside the corpus folder" in r.stderr


@needs_shared
def test_mirror_file_with_another_sha256_is_refused(tmp_path):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "2025-11-14.txt").symlink_to(EDITIONS / "2019-06-12.txt")  # a 2019 edition under the 2025 name
    r = _build(tmp_path, _corpus(tmp_path, PINNED), "--offline", "--mirror", str(mirror))
    assert r.exit_code == 2
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("crpipe")]
    assert len(lines) == 1 and "2025-11-14.txt" in lines[0] and "differs from the manifest" in lines[0]
    assert not (tmp_path / "out").exists()


def test_poisoned_cache_entry_is_discarded_and_rebuilt(tmp_path, http_folder):
    root, base = http_folder
    payload = b"Magic: The Gathering Comprehensive Rules\n\nthe real edition\n"
    (root / "cr.txt").write_bytes(payload)
    manifest = {"reference": {"mirror_name": "2031-03-03.txt", "url": f"{base}/cr.txt",
                              "sha256": hashlib.sha256(payload).hexdigest()}}
    local = lambda u: None if u.startswith(base + "/") else "not the test server"  # noqa: E731
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "2031-03-03.txt").write_bytes(Path("/etc/passwd").read_bytes())  # what file:// once cached
    # Offline: the poisoned entry is never used, and it is removed.
    path, _, notes = resolve_reference(manifest, None, None, cache, allow_download=False, url_check=local)
    assert path is None and any("discarded" in n for n in notes) and not (cache / "2031-03-03.txt").exists()
    # Poisoned again, online: discarded and fetched again.
    (cache / "2031-03-03.txt").write_bytes(b"poison")
    path, how, notes = resolve_reference(manifest, None, None, cache, url_check=local)
    assert how.startswith("downloaded") and path.read_bytes() == payload
    assert any("does not match the manifest's sha256; discarded" in n for n in notes)


def test_redirect_to_another_host_is_not_followed(tmp_path):

    class Redirect(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.2:9/elsewhere.txt")
            self.end_headers()

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{srv.server_address[1]}/cr.txt"
        manifest = {"reference": {"mirror_name": "x.txt", "url": url, "sha256": "0" * 64}}
        path, _, notes = resolve_reference(manifest, None, None, tmp_path / "cache",
                                           url_check=lambda u: None if u == url else "not allowed")
        assert path is None and any("redirected" in n for n in notes)
    finally:
        srv.shutdown()


def test_good_manifest_is_accepted():
    from pipeline.manifest import load_manifest

    manifest, inputs = load_manifest(CORPUS)
    assert [i.role for i in inputs] == ["translation", "translation", "rulings", "cards"]
    assert os.path.commonpath([str(i.path) for i in inputs] + [str(CORPUS)]) == str(CORPUS)

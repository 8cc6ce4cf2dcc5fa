"""Issue 26, acceptance 1: no command deletes or overwrites a file it did not write.

Every command that writes a folder — ``build --out``, ``site --out``, ``parse --export`` —
is run on a folder holding a file of the user's (refused with one line, exit 2, the file
kept; the build carries a few notes over instead, as its README promises), on an empty or
new folder and on a folder it wrote before (both work).  A mount point as ``--out`` is
refused up front: the swap could never replace it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS, ROOT

SEED = CORPUS / "seeds" / "001_b16e69f1b44391e7.txt"  # embedded in the repository: no ../shared needed


def crpipe(*args, env=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CRPIPE_MIRROR": "", **(env or {})}
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=600)


def one_error(r: subprocess.CompletedProcess) -> str:
    """The refusal: exit 2 and stderr exactly one line (no progress bar, no traceback)."""
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("crpipe: error: "), r.stderr
    return lines[0]


def tree(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


# -- site --out ---------------------------------------------------------------------------------

def site(out: Path, tmp: Path) -> subprocess.CompletedProcess:
    # --reports: a folder with no reports, so the site is only the editions (seconds, no build needed)
    return crpipe("site", "--out", out, "--reports", tmp / "no-reports")


def test_site_refuses_a_folder_with_a_users_file_and_keeps_it(tmp_path):
    out = tmp_path / "s"
    out.mkdir()
    (out / "notes.txt").write_text("my notes\n")
    err = one_error(site(out, tmp_path))
    assert "'notes.txt'" in err and str(out) in err
    assert tree(out) == {"notes.txt": b"my notes\n"}


def test_site_writes_a_new_or_empty_folder_and_replaces_its_own_but_not_a_file_added_since(tmp_path):
    new = tmp_path / "new"
    r = site(new, tmp_path)
    assert r.returncode == 0, r.stderr
    assert (new / "index.html").is_file() and (new / "crpipe-site.json").is_file()
    first = tree(new)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert site(empty, tmp_path).returncode == 0 and tree(empty) == first
    r = site(new, tmp_path)  # a folder the site wrote before: replaced, byte-identical
    assert r.returncode == 0, r.stderr
    assert tree(new) == first
    edition = next(p for p in new.iterdir() if p.is_dir() and p.name[:1].isdigit())
    (edition / "my-page.html").write_text("mine")  # the user's page inside the site's folder
    (new / "drafts").mkdir()
    err = one_error(site(new, tmp_path))
    assert f"'{edition.name}/my-page.html' and 1 more" in err
    assert (edition / "my-page.html").read_text() == "mine" and (new / "drafts").is_dir()
    assert {k: v for k, v in tree(new).items() if "my-page" not in k and k != "drafts"} == first


def test_site_refuses_a_folder_whose_record_is_not_its_own(tmp_path):
    out = tmp_path / "s"
    out.mkdir()
    (out / "crpipe-site.json").write_text("my own JSON, not a record\n")
    one_error(site(out, tmp_path))
    assert tree(out) == {"crpipe-site.json": b"my own JSON, not a record\n"}


def test_a_builds_folder_is_not_a_site_folder(tmp_path):
    """``site --out aligned`` would have swapped a whole build away."""
    out = tmp_path / "aligned"
    out.mkdir()
    (out / "build-report.json").write_text('{"outputs": [{"file": "en-reference.json"}]}\n')
    (out / "en-reference.json").write_text("{}\n")
    err = one_error(site(out, tmp_path))
    assert "'build-report.json' and 1 more" in err
    assert set(tree(out)) == {"build-report.json", "en-reference.json"}


# -- parse --export -----------------------------------------------------------------------------

EXPORTS = {"es-001_b16e69f1b44391e7" + s for s in (".json", ".rules.parquet", ".rules.csv", ".sqlite")}


def test_export_keeps_a_users_file_of_the_same_name(tmp_path):
    out = tmp_path / "x"
    out.mkdir()
    (out / "es-001_b16e69f1b44391e7.rules.csv").write_text("my table\n")
    err = one_error(crpipe("parse", SEED, "--export", out))
    assert "'es-001_b16e69f1b44391e7.rules.csv'" in err
    assert tree(out) == {"es-001_b16e69f1b44391e7.rules.csv": b"my table\n"}


def test_export_beside_the_users_files_and_again_over_its_own(tmp_path):
    out = tmp_path / "x"
    out.mkdir()
    (out / "notes.txt").write_text("my notes\n")  # another name: the export adds files, deletes none
    r = crpipe("parse", SEED, "--export", out)
    assert r.returncode == 0, r.stderr
    assert set(tree(out)) == EXPORTS | {"notes.txt", "crpipe-export.json"}
    first = tree(out)
    r = crpipe("parse", SEED, "--export", out)
    assert r.returncode == 0, r.stderr
    assert tree(out) == first and first["notes.txt"] == b"my notes\n"
    new = tmp_path / "new" / "folder"
    assert crpipe("parse", SEED, "--export", new).returncode == 0
    assert set(tree(new)) == EXPORTS | {"crpipe-export.json"}


def test_export_refuses_a_record_that_is_not_its_own(tmp_path):
    out = tmp_path / "x"
    out.mkdir()
    (out / "crpipe-export.json").write_text("[1, 2]\n")
    err = one_error(crpipe("parse", SEED, "--export", out))
    assert "crpipe-export.json" in err and tree(out) == {"crpipe-export.json": b"[1, 2]\n"}


def test_export_record_keeps_listing_earlier_exports(tmp_path):
    from pipeline.export import EXPORT_RECORD, export_all
    from pipeline.segment.official import parse_text
    from pipeline.swap import listed_outputs
    from crfixture import document

    doc = parse_text(document())
    export_all(doc, tmp_path, "a", record=EXPORT_RECORD)
    export_all(doc, tmp_path, "b", record=EXPORT_RECORD)
    assert listed_outputs(tmp_path, EXPORT_RECORD) == {f"{s}{x}" for s in "ab"
                                                      for x in (".json", ".rules.parquet", ".rules.csv", ".sqlite")}
    export_all(doc, tmp_path, "a", record=EXPORT_RECORD)  # still its own after the second export
    (tmp_path / "b.json").unlink()
    export_all(doc, tmp_path, "a", record=EXPORT_RECORD)
    assert "b.json" not in listed_outputs(tmp_path, EXPORT_RECORD)  # a record lists what is there
    (tmp_path / "b.json").write_text("mine now")
    with pytest.raises(Exception, match="'b.json' is not a file crpipe wrote"):
        export_all(doc, tmp_path, "b", record=EXPORT_RECORD)
    assert (tmp_path / "b.json").read_text() == "mine now"


# -- build --out --------------------------------------------------------------------------------

def test_build_refusal_is_one_line_without_the_progress_bar(tmp_path):
    out = tmp_path / "home"
    (out / "projects").mkdir(parents=True)
    (out / "mine.txt").write_text("mine")
    err = one_error(crpipe("build", "--corpus", CORPUS, "--out", out, "--cache", tmp_path / "c", "--offline",
                           env={"CRPIPE_SITE": "0"}))
    assert "no crpipe build wrote" in err
    assert tree(out) == {"mine.txt": b"mine", "projects": None}


# -- a mount point as --out ---------------------------------------------------------------------

@pytest.fixture
def mount_point(tmp_path):
    """A folder that is a mount point, holding a file of the user's: a tmpfs when root may mount
    one, else /proc (a mount point everywhere on Linux, never written: the refusal comes first)."""
    where = tmp_path / "mnt"
    where.mkdir()
    if os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)],
                                            capture_output=True).returncode == 0:
        (where / "notes.txt").write_text("mine")
        yield where
        subprocess.run(["umount", str(where)], capture_output=True)
        return
    if not os.path.ismount("/proc"):
        pytest.skip("no tmpfs can be mounted and /proc is not a mount point")
    yield Path("/proc")


@pytest.mark.parametrize("command", ["site", "build"])
def test_a_mount_point_as_out_is_refused_before_any_work(mount_point, tmp_path, command):
    before = sorted(os.listdir(mount_point))
    if command == "site":
        r = site(mount_point, tmp_path)
    else:
        r = crpipe("build", "--corpus", CORPUS, "--out", mount_point, "--cache", tmp_path / "c", "--offline")
    err = one_error(r)
    assert "mount point" in err and str(mount_point) in err
    assert sorted(os.listdir(mount_point)) == before
    assert not list(mount_point.parent.glob(f".{mount_point.name}.*"))  # no lock, no staging beside it

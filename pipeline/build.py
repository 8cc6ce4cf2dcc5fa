"""The main job: read ``corpus/``, run every stage, write everything into ``aligned/``.

Stages are small functions over one :class:`BuildContext`, run in the data's order.  A
stage that cannot run (no reference edition, an input this version cannot read) records
why in ``ctx.skipped`` instead of failing the build; ``aligned/build-report.json`` lists
outputs (with sha256), what was skipped, and why.  Nothing written depends on the clock,
so two builds of the same corpus give byte-identical files.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .report.stage import stage_align
from .diff.stage import stage_diff
from .engine.validate import stage_engine
from .editions.catalog import Catalog, EditionRef, default_edition, embedded_ref
from .diff.context import EditionContext, stage_editions
from .editions.embedded import ArchiveError, embedded
from .errors import CrpipeError, InputError
from .export import export_all, write_sqlite
from .ingest.loader import load_document
from .io import atomic_write, cache_root, cache_write, sha256_file, write_json
from .link.stage import stage_link
from .site.stage import stage_site
from .manifest import Input, check_url, load_manifest, mirror_file
from .model import Document
from .net import DownloadError, fetch
from .qa.integrity import check
from .rulings import load_card_index
from .segment.official import parse_file
from .lexicon import release_lexicons
from .swap import FOREIGN, BuildFolder
from .xref.stage import stage_xref


@dataclass
class BuildContext:
    corpus: Path
    out: Path
    manifest: dict
    inputs: list[Input]
    reference_path: Path | EditionRef | None = None  # an EditionRef when read from the embedded archive
    reference_source: str | None = None
    reference: Document | None = None
    editions_dir: Catalog | None = None  # every English edition known: mirror, cache, embedded archive
    translations: dict[str, Document] = field(default_factory=dict)  # input name -> document
    #: input name -> the English editions it is read against (the editions step), or why not.
    editions: dict[str, EditionContext] = field(default_factory=dict)
    edition_errors: dict[str, str] = field(default_factory=dict)
    #: The current English edition the editions step chose (the newest available), for the summary.
    current_edition: str | None = None
    outputs: list[Path] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    shared: dict = field(default_factory=dict)  # stage -> data for later stages
    stage: str = ""  # the stage running now: every output and skip is filed under it
    output_stage: dict[str, str] = field(default_factory=dict)  # output (relative) -> stage
    skipped_stages: dict[str, list[str]] = field(default_factory=dict)  # stage -> reasons
    kept: list[dict] = field(default_factory=list)  # outputs carried over from the previous build

    def skip(self, stage: str, reason: str) -> None:
        self.skipped.append({"stage": stage, "reason": reason})
        self.skipped_stages.setdefault(self.stage, []).append(reason)

    def write(self, name: str, data: str | bytes) -> Path:
        return self.track(atomic_write(self.out / name, data))

    def write_json(self, name: str, obj) -> Path:
        return self.track(write_json(self.out / name, obj))

    def card_index(self, stage: str):
        """The card-name index over the manifest's ``role: cards`` files, read once per build.

        None (with the reason recorded for ``stage``) when there are none or they are unreadable.
        """
        if "cards" not in self.shared:
            files = [i.path for i in self.inputs if i.role == "cards"]
            index, why = None, "no MTGJSON file in the manifest (role: cards)"
            if files:
                try:
                    index, why = load_card_index(files), None
                except CrpipeError as e:
                    why = e.message
            self.shared["cards"] = (index, why)
        index, why = self.shared["cards"]
        if why:
            self.skip(stage, why)
        return index

    def track(self, path: Path) -> Path:
        path = Path(path)
        self.outputs.append(path)
        self.output_stage[str(path.relative_to(self.out))] = self.stage
        return path


#: The largest reference edition we download (an edition is under 1 MB).
MAX_DOWNLOAD_BYTES = 64 << 20


def _download(url: str, timeout: float, url_check: Callable[[str], str | None]) -> bytes:
    """The bytes at ``url``; a redirect must pass the same URL check as the manifest's URL."""

    class Redirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):
            why = url_check(newurl)
            if why:
                raise urllib.error.URLError(f"redirected to a URL we do not follow ({why})")
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    data = fetch(url, timeout, MAX_DOWNLOAD_BYTES, opener=urllib.request.build_opener(Redirects))
    if len(data) > MAX_DOWNLOAD_BYTES:
        raise DownloadError(f"larger than {MAX_DOWNLOAD_BYTES >> 20} MB")
    return data


def resolve_reference(manifest: dict, reference: Path | None, mirror: Path | None, cache: Path,
                      allow_download: bool = True, timeout: float = 20.0,
                      url_check: Callable[[str], str | None] = check_url) -> tuple[Path | None, str, list[str]]:
    """Find the English reference edition: given path, mirror, cache, then download.

    Every edition found in the mirror or the cache is checked against the manifest's sha256: a
    mirror file that differs is refused (an :class:`InputError`: the mirror holds another
    edition under that name); a cache entry that differs or cannot be read is discarded and
    fetched again.  Returns ``(path or None, how it was found, notes on what was tried)``.
    """
    ref = manifest.get("reference") or {}
    if reference is None and ref.get("edition") == "latest":
        # Unpinned: the build reads the default edition every command reads (the newest known).
        cat = Catalog(mirror=mirror if mirror is not None and mirror.is_dir() else None)
        found = default_edition(cat)
        return found, f"the default edition (the newest of {cat.label})", []
    name = ref.get("mirror_name") or f"{ref.get('edition', 'reference')}.txt"
    want = ref.get("sha256")
    notes: list[str] = []
    if reference is not None:
        if not reference.is_file():
            raise InputError("reference edition not found", reference)
        return reference, "given with --reference", notes
    if mirror is not None:
        cand = mirror_file(mirror, name)
        if cand.is_file():
            got = sha256_file(cand)
            if want and got != want:
                raise InputError(f"sha256 {got[:12]}… differs from the manifest's {want[:12]}… for {name}: "
                                 "the mirror holds another edition under that name", cand)
            return cand, f"mirror {mirror}", notes
        notes.append(f"mirror {mirror} has no {name}")
    cached = mirror_file(cache, name)
    if cached.exists():
        try:
            ok = cached.is_file() and want is not None and sha256_file(cached) == want
            why = "does not match the manifest's sha256" if cached.is_file() else "is not a file"
        except OSError as e:
            ok, why = False, f"cannot be read ({e.strerror})"
        if ok:
            return cached, f"cache {cache}", notes
        if not want:
            why = "cannot be checked (the manifest gives no sha256)"
        try:
            if cached.is_dir() and not cached.is_symlink():
                shutil.rmtree(cached)
            else:
                cached.unlink()
            notes.append(f"cached {cached} {why}; discarded")
        except OSError as e:
            notes.append(f"cached {cached} {why}; ignored (cannot remove it: {e.strerror})")
    packed = _embedded_reference(name, want, notes)
    if packed is not None:
        return packed, "embedded archive", notes
    url = ref.get("url")
    if url and allow_download:
        why = url_check(url)
        if why:
            raise InputError(why, "manifest.yaml")
        if not want:
            raise InputError("reference.url needs the sha256 the download is checked against", "manifest.yaml")
        try:
            data = _download(url, timeout, url_check)
        except DownloadError as e:
            notes.append(f"download of {url} failed: {e}")
            return None, "", notes
        got = hashlib.sha256(data).hexdigest()
        if got != want:
            notes.append(f"download of {url} has sha256 {got[:12]}…, the manifest expects {want[:12]}…; not used")
            return None, "", notes
        if not cache_write(cached, data):
            # An unwritable cache is skipped: keep the checked bytes for this build only.
            spill = Path(tempfile.mkdtemp(prefix="crpipe-reference-")) / name
            atomic_write(spill, data)
            return spill, f"downloaded from {url} (not cached)", notes
        return cached, f"downloaded from {url}", notes
    if not url:
        notes.append("the manifest names no download URL")
    return None, "", notes


def _embedded_reference(name: str, want: str | None, notes: list[str] | None = None) -> EditionRef | None:
    """The manifest's reference edition from the package's archive (last offline source; its
    bytes are checked against the archive's index when read, and against the manifest here)."""
    try:
        e = embedded().entry(name)
    except ArchiveError:
        return None
    if want and e["sha256"] != want:
        if notes is not None:
            notes.append(f"the embedded {name} does not match the manifest's sha256; not used")
        return None
    return embedded_ref(e)


# -- stages ---------------------------------------------------------------------------

def stage_reference(ctx: BuildContext) -> None:
    if ctx.reference_path is None:
        ctx.skip("reference", "no English reference edition: give --reference FILE or --mirror DIR "
                 "(or set CRPIPE_MIRROR), or allow the download named in corpus/manifest.yaml")
        return
    doc = parse_file(ctx.reference_path) if isinstance(ctx.reference_path, Path) else ctx.reference_path.parse()
    # The output must not depend on where the file was found.
    doc.meta.source_file = doc.meta.source_name
    ctx.reference = doc
    for p in export_all(doc, ctx.out, "en-reference"):
        ctx.track(p)
    ctx.write_json("en-reference.findings.json", [f.to_dict() for f in check(doc)])


def stage_translations(ctx: BuildContext) -> None:
    for inp in ctx.inputs:
        if inp.role != "translation":
            continue
        try:
            # With a folder of editions, meta.base_edition is the inferred base-edition range.
            doc = load_document(inp.path, lang=inp.language, editions_dir=ctx.editions_dir)
        except CrpipeError as e:
            ctx.skip("translations", f"{inp.path.name}: {e.message}")
            continue
        doc.meta.source_file = str(inp.path.relative_to(ctx.corpus))
        ctx.translations[inp.name] = doc
        ctx.write_json(f"{inp.language}-{inp.name}.json", doc.to_dict())
        # Search in the translation's own language (crpipe search --lang pt).
        ctx.track(write_sqlite(doc, ctx.out / f"{inp.language}-{inp.name}.sqlite"))
    # Every translation is read: the spelling lexicons that repaired their spacing would stay
    # in memory through the later stages (the build's peak).
    release_lexicons()


Stage = Callable[[BuildContext], None]

#: Stages in the data's order: the one list of them.  Each stage lives with its stage's code and
#: imports nothing from this module (it receives the context), so the imports stay one-way.
STAGES: list[tuple[str, Stage]] = [
    ("reference edition", stage_reference),
    ("translations", stage_translations),
    ("editions", stage_editions),
    ("cross-references", stage_xref),
    ("edition diff", stage_diff),
    ("align translations", stage_align),
    ("link rulings", stage_link),
    ("engine validation", stage_engine),
    ("rules site", stage_site),
]


def run_build(corpus: Path, out: Path, reference: Path | None = None, mirror: Path | None = None,
              cache: Path | None = None, allow_download: bool = True, progress=None,
              wait: float | None = None, url_check: Callable[[str], str | None] = check_url) -> BuildContext:
    """Run every stage into a staging folder beside ``out`` and swap it in only when complete.

    ``out`` is always either the previous complete build or this one: a failure, a kill or a
    full disk leaves it untouched.  One build per ``out`` at a time: a second one waits for
    the lock (``wait`` seconds, None = as long as it takes; 0 refuses at once).
    """
    corpus = Path(corpus)
    manifest, inputs = load_manifest(corpus)
    for inp in inputs:
        if not inp.path.is_file():
            raise InputError("input named in the manifest is missing", inp.path)
    if mirror is None and os.environ.get("CRPIPE_MIRROR"):
        mirror = Path(os.environ["CRPIPE_MIRROR"])
    with BuildFolder(Path(out), wait=wait) as folder:
        ref_path, how, notes = resolve_reference(manifest, reference, mirror, cache or cache_root(),
                                                 allow_download, url_check=url_check)
        ctx = BuildContext(corpus=corpus, out=folder.staging, manifest=manifest, inputs=inputs,
                           reference_path=ref_path, reference_source=how, notes=notes)
        ctx.editions_dir = Catalog(mirror=mirror if mirror is not None and mirror.is_dir() else None)
        for name, stage in STAGES:
            if progress:
                progress(name)
            ctx.stage = name
            stage(ctx)
        ctx.stage = ""
        previous = folder.previous_report()
        _keep_unbuilt(ctx, folder.final, previous)
        write_json(ctx.out / "build-report.json", _report(ctx, previous))
        folder.commit()
    ctx.outputs = [folder.final / p.relative_to(ctx.out) for p in ctx.outputs]
    ctx.out = folder.final
    return ctx


def _report(ctx: BuildContext, previous: dict | None) -> dict:
    files = sorted({str(p.relative_to(ctx.out)) for p in ctx.outputs if p.exists()})
    return {
        "reference": {"edition": (ctx.reference.meta.effective_date if ctx.reference else None),
                      "found": bool(ctx.reference), "sha256": ctx.reference.meta.sha256 if ctx.reference else None},
        # One definition of "current" (pipeline.diff.context.newest_edition: the Catalog's latest), as every report prints it.
        "current_edition": ctx.current_edition,
        "inputs": [{"path": str(i.path.relative_to(ctx.corpus)), "language": i.language, "role": i.role}
                   for i in ctx.inputs],
        "outputs": [{"file": f, "sha256": sha256_file(ctx.out / f), "stage": ctx.output_stage.get(f, "")} for f in files],
        "kept": sorted(ctx.kept, key=lambda k: k["file"]),
        "skipped": ctx.skipped,
    }


def _keep_unbuilt(ctx: BuildContext, final: Path, previous: dict | None) -> None:
    """Carry over what the previous build wrote and this one could not rebuild.

    An output of the previous build that this build did not write, from a stage that skipped
    something this time, is linked into the new build unchanged (its sha256 checked against the
    previous report) and listed under ``kept`` with the reason: a build without the reference
    edition never deletes what a full build made.
    """
    if not previous:
        return
    made = {str(p.relative_to(ctx.out)) for p in ctx.outputs}
    # A file kept once keeps the edition it was built from, so keeping it again says the same.
    built_from = {k.get("file"): k.get("edition") for k in previous.get("kept", []) if isinstance(k, dict)}
    for item in previous.get("outputs", []):
        rel, stage = item.get("file", ""), item.get("stage", "")
        if rel in made or (stage not in ctx.skipped_stages and stage != FOREIGN):
            continue
        src = final / rel
        if not src.is_file() or src.is_symlink() or sha256_file(src) != item.get("sha256"):
            continue
        dst = ctx.out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dst)  # outputs are only ever replaced, never edited in place
        except OSError:
            shutil.copy2(src, dst)
        ctx.track(dst)
        ctx.output_stage[rel] = stage
        edition = built_from[rel] if rel in built_from else (previous.get("reference") or {}).get("edition")
        if stage == FOREIGN:
            reason = "found in the output folder, not written by a build; kept as found"
        else:
            reason = (f"{stage} skipped ({ctx.skipped_stages[stage][0]}); kept from the previous build"
                      + (f" (reference edition {edition})" if edition else ""))
        ctx.kept.append({"file": rel, "stage": stage, "sha256": item["sha256"], "edition": edition,
                         "reason": reason})

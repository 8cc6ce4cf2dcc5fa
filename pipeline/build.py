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
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import yaml

from .errors import CrpipeError, InputError
from .io import atomic_write, cache_root, write_json
from .model import Document
from .xref.stage import stage_xref

if TYPE_CHECKING:
    from .editions import Catalog, EditionRef



@dataclass
class Input:
    path: Path
    language: str
    role: str
    name: str
    extra: dict = field(default_factory=dict)


@dataclass
class BuildContext:
    corpus: Path
    out: Path
    manifest: dict
    inputs: list[Input]
    reference_path: "Path | EditionRef | None" = None  # an EditionRef when read from the embedded archive
    reference_source: str | None = None
    reference: Document | None = None
    editions_dir: "Catalog | None" = None  # every English edition known: mirror, cache, embedded archive
    translations: dict[str, Document] = field(default_factory=dict)  # input name -> document
    outputs: list[Path] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    shared: dict = field(default_factory=dict)  # stage -> data for later stages

    def skip(self, stage: str, reason: str) -> None:
        self.skipped.append({"stage": stage, "reason": reason})

    def write(self, name: str, data: str | bytes) -> Path:
        p = atomic_write(self.out / name, data)
        self.outputs.append(p)
        return p

    def write_json(self, name: str, obj) -> Path:
        p = write_json(self.out / name, obj)
        self.outputs.append(p)
        return p

    def card_index(self, stage: str):
        """The card-name index over the manifest's ``role: cards`` files, read once per build.

        None (with the reason recorded for ``stage``) when there are none or they are unreadable.
        """
        if "cards" not in self.shared:
            files = [i.path for i in self.inputs if i.role == "cards"]
            index, why = None, "no MTGJSON file in the manifest (role: cards)"
            if files:
                from .rulings import load_card_index

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
        self.outputs.append(Path(path))
        return Path(path)


def load_manifest(corpus: Path) -> tuple[dict, list[Input]]:
    mpath = corpus / "manifest.yaml"
    if not mpath.is_file():
        raise InputError("no manifest.yaml in the corpus folder", corpus)
    try:
        manifest = yaml.safe_load(mpath.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        raise InputError(f"manifest is not valid YAML: {e}", mpath) from None
    inputs = []
    for i, item in enumerate(manifest.get("inputs", [])):
        if "path" not in item or "role" not in item:
            raise InputError(f"input #{i + 1} needs 'path' and 'role'", mpath)
        p = corpus / item["path"]
        inputs.append(Input(p, item.get("language", "en"), item["role"], Path(item["path"]).stem,
                            {k: v for k, v in item.items() if k not in ("path", "language", "role")}))
    return manifest, inputs


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def resolve_reference(manifest: dict, reference: Path | None, mirror: Path | None, cache: Path,
                      allow_download: bool = True, timeout: float = 20.0) -> tuple[Path | None, str, list[str]]:
    """Find the English reference edition: given path, mirror, cache, then download.

    Returns ``(path or None, how it was found, notes on what was tried)``.
    """
    ref = manifest.get("reference") or {}
    name = ref.get("mirror_name") or f"{ref.get('edition', 'reference')}.txt"
    want = ref.get("sha256")
    notes: list[str] = []
    if reference is not None:
        if not reference.is_file():
            raise InputError("reference edition not found", reference)
        return reference, "given with --reference", notes
    if mirror is not None:
        cand = mirror / name
        if cand.is_file():
            return cand, f"mirror {mirror}", notes
        notes.append(f"mirror {mirror} has no {name}")
    cached = cache / name
    if cached.is_file():
        if not want or _sha256(cached) == want:
            return cached, f"cache {cache}", notes
        notes.append(f"cached {cached} does not match the manifest's sha256; ignored")
    embedded = _embedded_reference(name, want)
    if embedded is not None:
        return embedded, "embedded archive", notes
    url = ref.get("url")
    if url and allow_download:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310 - URL from the manifest
                data = resp.read(64 << 20)
        except (urllib.error.URLError, OSError, ValueError) as e:
            notes.append(f"download of {url} failed: {getattr(e, 'reason', e)}")
            return None, "", notes
        got = hashlib.sha256(data).hexdigest()
        if want and got != want:
            notes.append(f"download of {url} has sha256 {got[:12]}…, the manifest expects {want[:12]}…; not used")
            return None, "", notes
        cache.mkdir(parents=True, exist_ok=True)
        atomic_write(cached, data)
        return cached, f"downloaded from {url}", notes
    if not url:
        notes.append("the manifest names no download URL")
    return None, "", notes


def _embedded_reference(name: str, want: str | None):
    """The manifest's reference edition from the package's archive (last offline source)."""
    from .editions import EditionRef
    from .editions.embedded import ArchiveError, embedded

    try:
        e = embedded().entry(name)
    except ArchiveError:
        return None
    if want and e["sha256"] != want:
        return None
    return EditionRef(e["name"], e["date"], "embedded", e["sha256"], None, e["truncated"])


# -- stages ---------------------------------------------------------------------------

def stage_reference(ctx: BuildContext) -> None:
    from .export import export_all
    from .qa.integrity import check
    from .segment.official import parse_file

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
    from .ingest.loader import load_document

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
        from .export import write_sqlite

        # Search in the translation's own language (crpipe search --lang pt).
        ctx.track(write_sqlite(doc, ctx.out / f"{inp.language}-{inp.name}.sqlite"))


from .align.stage import stage_align  # noqa: E402 - the stage lives with its issue's code
from .link.stage import stage_link  # noqa: E402 - the stage lives with its issue's code
from .diff.stage import stage_diff  # noqa: E402 - the stage lives with its issue's code
from .engine.validate import stage_engine  # noqa: E402 - the stage lives with its issue's code
from .site.stage import stage_site  # noqa: E402 - the stage lives with its issue's code

Stage = Callable[[BuildContext], None]

#: Stages in the data's order.  Later issues append theirs here.
STAGES: list[tuple[str, Stage]] = [
    ("reference edition", stage_reference),
    ("translations", stage_translations),
    ("cross-references", stage_xref),
    ("edition diff", stage_diff),
    ("align translations", stage_align),
    ("link rulings", stage_link),
    ("engine validation", stage_engine),
    ("rules site", stage_site),
]


def run_build(corpus: Path, out: Path, reference: Path | None = None, mirror: Path | None = None,
              cache: Path | None = None, allow_download: bool = True, progress=None) -> BuildContext:
    corpus = Path(corpus)
    manifest, inputs = load_manifest(corpus)
    for inp in inputs:
        if not inp.path.is_file():
            raise InputError("input named in the manifest is missing", inp.path)
    if mirror is None and os.environ.get("CRPIPE_MIRROR"):
        mirror = Path(os.environ["CRPIPE_MIRROR"])
    ref_path, how, notes = resolve_reference(manifest, reference, mirror, cache or cache_root(), allow_download)
    ctx = BuildContext(corpus=corpus, out=Path(out), manifest=manifest, inputs=inputs,
                       reference_path=ref_path, reference_source=how, notes=notes)
    from .editions import Catalog

    ctx.editions_dir = Catalog(mirror=mirror if mirror is not None and mirror.is_dir() else None)
    ctx.out.mkdir(parents=True, exist_ok=True)
    for name, stage in STAGES:
        if progress:
            progress(name)
        stage(ctx)
    report = {
        "reference": {"edition": (ctx.reference.meta.effective_date if ctx.reference else None),
                      "found": bool(ctx.reference), "sha256": ctx.reference.meta.sha256 if ctx.reference else None},
        "inputs": [{"path": str(i.path.relative_to(corpus)), "language": i.language, "role": i.role} for i in inputs],
        "outputs": sorted({str(p.relative_to(ctx.out)): _sha256(p) for p in ctx.outputs if p.exists()}.items()),
        "skipped": ctx.skipped,
    }
    report["outputs"] = [{"file": f, "sha256": h} for f, h in report["outputs"]]
    write_json(ctx.out / "build-report.json", report)
    return ctx


def clean_outputs(out: Path) -> None:
    """Remove what an earlier build wrote (only files it listed), so stale outputs never linger."""
    import json

    rep = out / "build-report.json"
    if not rep.is_file():
        return
    try:
        listed = json.loads(rep.read_text(encoding="utf-8")).get("outputs", [])
    except (ValueError, OSError):
        return
    for item in listed:
        p = out / item["file"]
        if p.is_file():
            p.unlink()
        elif p.is_dir():
            shutil.rmtree(p)

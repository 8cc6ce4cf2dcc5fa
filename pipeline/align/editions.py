"""Which English editions a translation is compared with, and how numbers move between them.

The *base* edition is the one the translation was made from: ingestion infers the range
of consistent editions (:func:`pipeline.edition.infer_base_edition`); we take the current
edition when it is in that range (the translation is up to date), else the range's last
edition (the latest English the translation still agrees with).  The *current* edition
is ``--current``, else the newest of the folder.  Numbers travel from base to current
through :meth:`pipeline.diff.EditionArchive.map_number` (composed consecutive diffs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import InputError
from ..model import Document


@dataclass
class Editions:
    base: Document
    base_label: str | None
    current: Document
    current_label: str | None
    map_number: Callable[[str], str | None] | None
    info: dict = field(default_factory=dict)


def newest_edition(labels) -> str | None:
    """The one definition of *current*: the newest English edition available to the command
    (the folder of editions it was given, or the one edition file).  Every report and the
    build summary print it; keep it here so a resolver of "latest"/dates can replace it."""
    labels = sorted(labels)
    return labels[-1] if labels else None


def _label(doc: Document, path: Path | None) -> str | None:
    return path.stem if path is not None else doc.meta.effective_date


def resolve_editions(target: Document, reference: str | Path, current: str | Path | Document | None = None) -> Editions:
    """Base and current English editions for ``target``.

    ``reference``: a folder of editions (``YYYY-MM-DD.txt``) or one edition file.  With a
    single file it is both base and current, and numbers map to themselves.
    """
    from ..segment.official import parse_file

    ref = Path(reference)
    cur_doc: Document | None = current if isinstance(current, Document) else None
    cur_path = Path(current) if current is not None and not isinstance(current, Document) else None
    if cur_path is not None and not cur_path.is_file():
        raise InputError("current English edition not found", cur_path)
    if ref.is_file():
        base = parse_file(ref)
        if cur_doc is None:
            cur_doc = parse_file(cur_path) if cur_path else base
        same = cur_doc is base
        info = {"label": ref.stem, "how": "the given reference file", "range": None}
        return Editions(base, ref.stem, cur_doc, _label(cur_doc, cur_path) if not same else ref.stem,
                        (lambda n: n) if same else None, info)
    if not ref.is_dir():
        raise InputError("reference is neither an edition file nor a folder of editions", ref)
    from ..diff import EditionArchive

    archive = EditionArchive(ref)
    labels = archive.dates()
    if cur_doc is not None:
        cur_label = next((l for l in labels if l == cur_doc.meta.effective_date
                          or archive.editions[archive.index(l)].effective_date == cur_doc.meta.effective_date), None)
    elif cur_path is not None:
        cur_doc = parse_file(cur_path)
        cur_label = cur_path.stem if cur_path.stem in labels else None
        if cur_label is None:
            cur_label = next((e.label for e in archive.editions if e.effective_date == cur_doc.meta.effective_date), None)
    else:
        cur_label = newest_edition(labels)
        cur_doc = archive.load(cur_label)
    be = target.meta.base_edition
    if not be or not be.get("first"):
        from ..edition import infer_base_edition

        be = infer_base_edition(target, ref)
        target.meta.base_edition = be
    rng = {"first": be.get("first"), "last": be.get("last"), "confidence": be.get("confidence")}
    candidates = be.get("editions") or [x for x in (be.get("first"), be.get("last")) if x]
    if not candidates:
        base_label, how = cur_label, "no base edition could be inferred; the current edition is used"
    elif cur_label in candidates:
        base_label, how = cur_label, "the current edition is consistent with the translation"
    else:
        base_label, how = candidates[-1], "the latest edition consistent with the translation"
    if base_label is None:
        raise InputError("the current edition is not in the folder of editions, and no base edition was found", ref)
    base_doc = cur_doc if base_label == cur_label else archive.load(base_label)
    mapper = None
    if cur_label is not None:
        def mapper(n: str, _a=archive, _b=base_label, _c=cur_label) -> str | None:
            return _a.map_number(n, _b, _c)
    info = {"label": base_label, "how": how, "range": rng, "evidence": list(be.get("evidence", []))[:12]}
    return Editions(base_doc, base_label, cur_doc, cur_label, mapper, info)

"""Which English editions a translation is compared with, and how numbers move between them.

The *base* edition is the one the translation was made from: ingestion infers the range
of consistent editions (:func:`pipeline.editions.base.infer_base_edition`); we take the current
edition when it is in that range (the translation is up to date), else the range's last
edition (the latest English the translation still agrees with).  The *current* edition
is ``--current``, else the newest of the folder (:func:`newest_edition`, the one definition
of *current*, in the build as in the CLI).  Numbers travel from base to current
through :meth:`pipeline.diff.EditionArchive.map_number` (composed consecutive diffs).

A build resolves this once per translation (:func:`stage_editions`) into an
:class:`EditionContext` that the diff, alignment and linking stages all read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .history import EditionArchive
from ..editions.base import infer_base_edition
from ..errors import CrpipeError, InputError
from ..model import BaseEdition, Document
from ..segment.official import parse_file
from ..editions.catalog import Catalog, EditionRef, default_edition


@dataclass(kw_only=True)
class EditionContext:
    """The English editions one translation is read against, resolved once."""

    base: Document
    base_label: str | None
    current: Document
    current_label: str | None
    #: base-edition number -> current number (None: the rule is gone); None when unknown.
    map_number: Callable[[str], str | None] | None
    #: How the base edition was chosen, as the reports show it.
    info: BaseEdition
    #: The folder of editions the numbers travel through (None: a single edition file).
    archive: EditionArchive | None = field(default=None, repr=False)

    def mapper_to(self, edition: str | None) -> Callable[[str], str | None] | None:
        """Base-edition number -> its number in ``edition`` (a label or an effective date), for
        a stage pinned to an edition other than *current* (the linker's reference edition)."""
        if edition is None or edition == self.current_label:
            return self.map_number
        if self.archive is None or edition == self.base_label:
            return (lambda n: n) if edition == self.base_label else None
        try:
            target = self.archive.editions[self.archive.index(edition)].label
        except CrpipeError:
            return None

        def mapper(n: str, _a=self.archive, _b=self.base_label, _t=target) -> str | None:
            return _a.map_number(n, _b, _t)
        return mapper


def reference_only(reference: Document) -> EditionContext:
    """Without a folder of editions the reference is both base and current: numbers hold as they are."""
    label = reference.meta.effective_date
    return EditionContext(base=reference, base_label=label, current=reference, current_label=label,
                          map_number=lambda n: n,
                          info=BaseEdition(label, "only the reference edition is available (no mirror of editions)"))


def editions_of(reference) -> Catalog | Path | None:
    """The editions behind ``reference``: a Catalog or a folder as they are; None for one
    edition (a file or an :class:`EditionRef`)."""
    if isinstance(reference, Catalog):
        return reference
    if isinstance(reference, EditionRef):
        return None
    p = Path(reference)
    return p if p.is_dir() else None


def newest_edition(catalog: Catalog) -> str:
    """The one definition of *current*: the newest complete English edition available to the
    command, i.e. the catalog's ``latest`` (the folder of editions it was given, or the mirror,
    cache and embedded archive), named by its label.  Every report and the build summary print it."""
    return default_edition(catalog).stem


def _label(doc: Document, path: Path | None) -> str | None:
    return path.stem if path is not None else doc.meta.effective_date


def resolve_editions(target: Document, reference: str | Path,
                     current: str | Path | Document | None = None) -> EditionContext:
    """Base and current English editions for ``target``.

    ``reference``: a folder of editions (``YYYY-MM-DD.txt``) or one edition file.  With a
    single file it is both base and current, and numbers map to themselves.
    """
    if isinstance(reference, EditionRef):  # one edition named by its date
        reference = reference.path or reference
    if isinstance(reference, EditionRef):  # ... from the embedded archive
        base = reference.parse()
        same = current is None
        cur_doc = base if same else (current if isinstance(current, Document) else parse_file(current))
        info = BaseEdition(reference.stem, "the given reference edition")
        return EditionContext(base=base, base_label=reference.stem, current=cur_doc,
                              current_label=reference.stem if same else cur_doc.meta.effective_date,
                              map_number=(lambda n: n) if same else None, info=info)
    # A Catalog (mirror + cache + embedded archive) works as a folder of editions.
    ref = reference if isinstance(reference, Catalog) else Path(reference)
    cur_doc: Document | None = current if isinstance(current, Document) else None
    cur_path = Path(current) if current is not None and not isinstance(current, Document) else None
    if cur_path is not None and not cur_path.is_file():
        raise InputError("current English edition not found", cur_path)
    if isinstance(ref, Path) and ref.is_file():
        base = parse_file(ref)
        if cur_doc is None:
            cur_doc = parse_file(cur_path) if cur_path else base
        same = cur_doc is base
        info = BaseEdition(ref.stem, "the given reference file")
        return EditionContext(base=base, base_label=ref.stem, current=cur_doc,
                              current_label=_label(cur_doc, cur_path) if not same else ref.stem,
                              map_number=(lambda n: n) if same else None, info=info)
    if isinstance(ref, Path) and not ref.is_dir():
        raise InputError("reference is neither an edition file nor a folder of editions", ref)

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
        cur_label = newest_edition(archive.catalog)
        cur_doc = archive.load(cur_label)
    be = target.meta.base_edition
    if be is None or not be.first:
        be = infer_base_edition(target, ref)
        target.meta.base_edition = be
    candidates = be.editions or [x for x in (be.first, be.last) if x]
    if not candidates:
        base_label, how = cur_label, "no base edition could be inferred; the current edition is used"
    elif cur_label in candidates:
        base_label, how = cur_label, "the current edition is consistent with the translation"
    else:
        base_label, how = candidates[-1], "the latest edition consistent with the translation"
    if base_label is None:
        raise InputError("the current edition is not in the folder of editions, and no base edition was found", str(ref))
    base_doc = cur_doc if base_label == cur_label else archive.load(base_label)
    mapper = None
    if cur_label is not None:
        def mapper(n: str, _a=archive, _b=base_label, _c=cur_label) -> str | None:
            return _a.map_number(n, _b, _c)
    info = BaseEdition(base_label, how, range=be)
    return EditionContext(base=base_doc, base_label=base_label, current=cur_doc, current_label=cur_label,
                          map_number=mapper, info=info, archive=archive)


def editions_for(ctx, name: str) -> EditionContext | None:
    """Translation ``name``'s :class:`EditionContext`, computed once per build and kept in
    ``ctx.editions``; None when it cannot be (why: ``ctx.edition_errors[name]``, reported by
    each stage that needed it) or when there is no reference edition."""
    if name in ctx.editions:
        return ctx.editions[name]
    if name in ctx.edition_errors or ctx.reference is None:
        return None
    if ctx.editions_dir is None:
        ed = reference_only(ctx.reference)
    else:
        try:
            # "current" is the newest edition available (newest_edition), as in the CLI; the
            # linker, pinned to the reference edition, maps numbers with EditionContext.mapper_to.
            ed = resolve_editions(ctx.translations[name], ctx.editions_dir, None)
        except CrpipeError as e:
            ctx.edition_errors[name] = e.message
            return None
    ctx.editions[name] = ed
    ctx.current_edition = ed.current_label
    return ed


def stage_editions(ctx) -> None:
    """The build's editions step: every translation's editions, resolved once for the diff,
    alignment and linking stages."""
    for name in sorted(ctx.translations):
        editions_for(ctx, name)

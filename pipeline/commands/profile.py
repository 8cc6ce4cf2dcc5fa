"""``crpipe profile draft``: a language profile proposed from a translation, for review."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from ..errors import InputError
from ..io import read_bounded
from .common import console, err_console, emit_json, json_option, user_errors

MAX_BYTES = 64 << 20


def _pairs(path: Path, editions: Optional[Path]) -> tuple[list[tuple[str, str]], str]:
    """(English, translation) pairs of ``path``, and what they were aligned by."""
    from ..ingest.bilingual import read_bilingual, sniff  # lazy: translate-toolkit only for a bilingual file

    if not path.is_file():
        raise InputError("no such file", path)
    data = read_bounded(path, MAX_BYTES, what="translation")
    if sniff(data, path.name):
        units = read_bilingual(data, path).units
        return [(u.source, u.target) for u in units if u.target], "the file's own units"
    from ..diff.context import resolve_editions  # lazy: the editions only for a document
    from ..editions.catalog import as_catalog  # lazy: as above
    from ..ingest.loader import load_document  # lazy: as above

    doc = load_document(path)
    with err_console.status("aligning by rule number with the English base edition…"):
        ctx = resolve_editions(doc, as_catalog(editions))
    base = {r.id: r for r in ctx.base.rules}
    out = []
    for r in doc.rules:
        b = base.get(r.id)
        if b is None:
            continue
        out.append((b.text, r.text))
        out.extend((be.text, te.text) for be, te in zip(b.examples, r.examples))
    return out, f"rule numbers against {ctx.base_label}"


def register(app: typer.Typer) -> None:
    pr = typer.Typer(help="Language profiles: draft one from a translation.", no_args_is_help=True)

    @pr.command("draft")
    @user_errors
    def draft_cmd(
        file: Path = typer.Argument(..., help="A translation: a PO/XLIFF file, or a translated CR in any format "
                                   "the ingestion reads (aligned by rule number with its English base edition)."),
        json_out: Optional[str] = json_option("the proposals"),
        editions: Optional[Path] = typer.Option(None, "--editions", envvar="CRPIPE_MIRROR", file_okay=False,
                                                help="Folder of English editions (default: every known edition)."),
    ):
        """Propose a language profile's words from a translation, for a person to review.

        Reads what the translation puts where its English has them: the word before a rule
        number ("rule" / "regra"), the verb of "See rule 601.2" ("consulte"), the example
        marker, the glossary and subrules headings; each with the number of aligned places
        that show it.  Nothing is written to the profiles: copy what you accept into a
        Profile (pipeline/profiles/__init__.py; the README's "Adding a language").

        Exit codes: 0 drafted; 2 unreadable input.
        """
        from ..profiles.draft import draft  # lazy: a command loads its stage only when it runs

        pairs, how = _pairs(file, editions)
        if not pairs:
            raise InputError("no translated unit to learn from", file)
        props = draft(pairs)
        doc = {"file": str(file), "aligned_by": how, "pairs": len(pairs), "proposals": [p.to_dict() for p in props]}
        if emit_json(json_out, doc):
            return
        t = Table(title=f"profile draft from {file.name} ({len(pairs)} pairs, aligned by {how})")
        for col in ("field", "proposed", "evidence"):
            t.add_column(col)
        for p in props:
            ev = ", ".join(f"{v} {n}" for v, n in sorted(p.evidence.items(), key=lambda kv: (-kv[1], kv[0]))[:4])
            t.add_row(p.field, ", ".join(p.values) or "—", f"{ev} (of {p.places})" if p.places else "no aligned place")
        console.print(t)

    app.add_typer(pr, name="profile")

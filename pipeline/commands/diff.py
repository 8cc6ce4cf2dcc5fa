"""``crpipe diff`` (what changed between two editions) and ``crpipe history`` (one rule through
a folder of editions)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape
from rich.table import Table

from .common import EDITION_HELP, console, editions_source, err_console, is_edition_name, load_rules, emit_json, json_option, user_errors


class DiffFormat(str, Enum):
    json = "json"
    md = "md"
    html = "html"


def _render(res, fmt: DiffFormat, expand: bool) -> str:
    if fmt is DiffFormat.json:
        from ..io import dumps  # lazy: a command loads its stage only when it runs (CLI start-up time)

        return dumps(res.to_dict(expand_moves=expand))
    if fmt is DiffFormat.md:
        from ..diff.report_md import render_markdown  # lazy: a command loads its stage only when it runs (CLI start-up time)

        return render_markdown(res, expand_moves=expand)
    from ..diff.report_html import render_html  # lazy: a command loads its stage only when it runs (CLI start-up time)

    return render_html(res, expand_moves=expand)


def _rich_diff(runs, plain: bool = False) -> str:
    """A word diff as rich markup; without colour, deletions read [-old-] and insertions {+new+}."""
    if plain:
        return "".join(escape(t) if op == "=" else (escape(f"[-{t}-]") if op == "-" else escape(f"{{+{t}+}}"))
                       for op, t in runs)
    return "".join(escape(t) if op == "=" else (f"[red strike]{escape(t)}[/]" if op == "-" else f"[green]{escape(t)}[/]")
                   for op, t in runs)


# One string per paragraph: Typer keeps a docstring's hard line breaks in --help.
DIFF_HELP = (
    "What changed between two editions: rules are matched by content and structure, not by number, "
    "so renumbered rules are moves (old → new), not deletions plus additions.\n\n"
    "Reports added, removed, modified (word-level diff), moved and moved-and-modified rules, examples, "
    "glossary entries and titles; flags changes that only update references to renumbered rules; "
    "summarises each renumbering cascade in one line plus its map; lists the references in NEW that "
    "still use an old number; and counts what a plain line diff would report, for contrast.\n\n"
    "Exit codes: 0 done; 2 unreadable, truncated (without --partial) or oversized input (over 16 MB, "
    "20,000 rules or 4 million characters of rule text), or two texts that are not editions of the same rules."
)
HISTORY_HELP = (
    "The lineage of one rule through every edition in a folder: the numbers it had, when its text "
    "changed (with a word diff), when it appeared or disappeared.\n\n"
    "Editions are ordered by the date stated inside them (file names can lie); truncated files are "
    "left out.  Matches between consecutive editions are computed once and cached, keyed by the two "
    "files' sha256, so the first query over the 110-edition archive takes seconds and later ones "
    "well under a second."
)


def _diffable(spec: str, lang: str | None, partial: bool):
    """An edition named by its date or ``latest``, or a file; either way within the diff's
    bounds (size, rules, text) and complete unless ``partial``."""
    from ..diff.bounds import check_diffable, load_diffable, load_edition_diffable  # lazy: a command loads its stage only when it runs (CLI start-up time)

    p = Path(spec).expanduser()
    if is_edition_name(spec):
        from ..editions.catalog import resolve_edition  # lazy: a command loads its stage only when it runs (CLI start-up time)

        return load_edition_diffable(resolve_edition(spec), partial)
    if not p.exists():
        doc = load_rules(spec, lang=lang)  # the one message for a missing file
        check_diffable(doc, p, partial)
        return doc
    return load_diffable(p, lang, partial)


def register(app: typer.Typer) -> None:
    @app.command(help=DIFF_HELP)
    @user_errors
    def diff(
        old: str = typer.Argument(..., help="The older edition: " + EDITION_HELP + " (any format the parser reads)."),
        new: str = typer.Argument("latest", help="The newer edition (default: latest)."),
        fmt: Optional[DiffFormat] = typer.Option(None, "--format", "-f", help="json (machines), md (a release bulletin) "
                                                 "or html (side by side). Default: from --out's suffix, else a table."),
        out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the report here (atomically) instead of stdout."),
        expand_moves: bool = typer.Option(False, "--expand-moves", help="List every move of a renumbering cascade "
                                          "as its own change (normally one summary line plus the map)."),
        lang: Optional[str] = typer.Option(None, "--lang", help="Language of both files (detected when omitted)."),
        partial: bool = typer.Option(False, "--partial", help="Diff a truncated edition anyway (its missing "
                                     "end would otherwise read as thousands of removals)."),
    ):
        from ..diff import diff_documents  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..io import atomic_write  # lazy: a command loads its stage only when it runs (CLI start-up time)

        a = _diffable(old, lang, partial)
        b = _diffable(new, lang, partial)
        da, db_ = a.meta.effective_date, b.meta.effective_date
        if da and db_ and da > db_:
            err_console.print(f"[yellow]warning[/]: OLD is the {da} edition and NEW the {db_} edition: "
                              f"the arguments look reversed (OLD NEW), so additions show as removals")
        res = diff_documents(a, b)
        if fmt is None and out is not None:
            fmt = {".json": DiffFormat.json, ".md": DiffFormat.md, ".html": DiffFormat.html,
                   ".htm": DiffFormat.html}.get(out.suffix.lower(), DiffFormat.json)
        if fmt is not None:
            text = _render(res, fmt, expand_moves)
            if out is None:
                typer.echo(text, nl=False)
            else:
                atomic_write(out, text)
                err_console.print(f"wrote {out} ({res.summary['changes']} changes)")
            return
        s = res.summary
        t = Table(title=f"{res.old.effective_date or Path(old).name} → {res.new.effective_date or Path(new).name}")
        t.add_column("kind")
        for p in ("rule", "title", "example", "glossary"):
            t.add_column(p, justify="right")
        for k in ("added", "removed", "modified", "moved", "moved_modified"):
            t.add_row(k, *[str(s["by_part"][p][k]) for p in ("rule", "title", "example", "glossary")])
        console.print(t)
        for line in s["cascades"]:
            console.print(f"renumbering: {escape(line)}")
        console.print(f"{s['changes']} changes ({s['refs_only']} only update references), {s['renumbered']} numbers "
                      f"changed, {s['numbers_without_successor']} without successor, "
                      f"{s['stale_references']} stale references in NEW; a plain line diff reports "
                      f"{s['line_diff']['lines_changed']} changed lines.  Use --format md|html|json for the details.")

    @app.command(help=HISTORY_HELP)
    @user_errors
    def history(
        rule: str = typer.Argument(..., help="A rule number as numbered in --date (default: the latest edition), e.g. 702.79a."),
        editions: Optional[Path] = typer.Option(None, "--editions", help="A folder of official editions (*.txt); "
                                                "default: every known edition (CRPIPE_MIRROR, cache, embedded archive)."),
        date: Optional[str] = typer.Option(None, "--date", help="The edition RULE is numbered in (file date or effective date)."),
        cache: Optional[Path] = typer.Option(None, "--cache", help="Cache folder (default $XDG_CACHE_HOME/crpipe)."),
        json_out: Optional[str] = json_option("the lineage"),
    ):
        from rich.progress import BarColumn, Progress, TextColumn  # heavy: rich loads only when a progress bar is shown

        from ..diff import EditionArchive  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..rulenum import RuleNumber  # lazy: a command loads its stage only when it runs (CLI start-up time)

        rule = rule.strip().rstrip(".")  # "120.4." as the rules print it
        if RuleNumber.try_parse(rule) is None:
            from ..errors import InputError  # lazy: a command loads its stage only when it runs (CLI start-up time)
            raise InputError(f"not a rule number: {rule!r}")
        arch = EditionArchive(editions_source(editions), cache_dir=cache)
        with Progress(TextColumn("matching editions"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                      console=err_console, transient=True) as prog:
            task = prog.add_task("pairs", total=max(1, len(arch.editions) - 1))
            arch.precompute(progress=lambda i, n: prog.update(task, completed=i))
        lin = arch.lineage(rule, date)
        d = lin.to_dict() if json_out else None
        if d is not None:
            d["skipped"] = arch.skipped
        if emit_json(json_out, d):
            return
        here = arch.editions[arch.index(lin.edition)]
        t = Table(title=f"{rule} ({here.effective_date or lin.edition}): numbers through {len(arch.editions)} editions")
        for col in ("number", "from", "to"):
            t.add_column(col)
        for s in lin.spans:  # editions are named by the date stated inside them
            t.add_row(s["number"], s.get("first_effective") or s["first"], s.get("last_effective") or s["last"])
        console.print(t)
        console.print(f"appeared: {lin.appeared or 'before ' + arch.editions[0].label + ' (present in the first edition)'}; "
                      f"disappeared: {lin.disappeared or 'no (still present)'}")
        plain = console.no_color or not console.is_terminal or console.color_system is None
        if lin.text_changes:
            c = Table(title="text changes" + (" ([-removed-] {+added+})" if plain else ""))
            c.add_column("edition")
            c.add_column("number")
            c.add_column("change")
            for x in lin.text_changes:
                c.add_row(x.get("effective_date") or x["edition"], x["number"], _rich_diff(x["word_diff"], plain))
            console.print(c)
        else:
            console.print("its text never changed")
        for s in arch.skipped:
            err_console.print(f"[yellow]skipped[/] {s['file']}: {s['reason']}")

"""``crpipe show``: one rule by its number, its name or a glossary term."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from .common import EDITION_HELP, console, emit_json, json_option, user_errors


def _print(view) -> None:
    if view.title_path:
        console.print(" › ".join(f"[dim]{escape(i)}[/] {escape(t)}" for i, t in view.title_path))
    for n in view.notes:
        console.print(f"[yellow]note[/]: {escape(n)}")
    console.print(f"[bold]{escape(view.rule)}[/] {escape(view.text)}  [dim](edition {view.edition})[/]")
    for ex in view.examples:
        console.print(f"    [italic]{escape(ex)}[/]")
    for s in view.subrules:
        pad = "  " * s["depth"]
        console.print(f"{pad}[bold]{escape(s['id'])}[/] {escape(s['text'])}")
        for ex in s["examples"]:
            console.print(f"{pad}    [italic]{escape(ex)}[/]")
    if view.translation:
        tr = view.translation
        if tr.get("rule"):
            console.print(f"\n[bold]{tr['language']}[/] ({escape(tr.get('source') or '')}):")
            console.print(f"[bold]{escape(tr['rule'])}[/] {escape(tr['text'])}")
            for ex in tr["examples"]:
                console.print(f"    [italic]{escape(ex)}[/]")
            for s in tr["subrules"]:
                console.print(f"{'  ' * s['depth']}[bold]{escape(s['id'])}[/] {escape(s['text'])}")
        else:
            console.print(f"[yellow]note[/]: {escape(tr.get('note', ''))}")
    for g in view.glossary:
        console.print(f"\n[bold]glossary[/] {escape(g['term'])}: {escape(' '.join(g['definition'].split()))}")
    console.print()
    console.print(f"[bold]cites[/]: {escape(', '.join(view.cites)) or '—'}")
    console.print(f"[bold]cited by[/]: {escape(', '.join(view.cited_by)) or '—'}")
    if view.history:
        console.print(f"[bold]history[/]: {escape(view.history)}")


def register(app: typer.Typer) -> None:
    @app.command()
    @user_errors
    def show(
        rule: str = typer.Argument(..., help="A rule number (601.2f, 120.4.), a keyword or heading (persist), "
                                             "or a glossary term (mana value)."),
        edition: Optional[str] = typer.Option(None, "--edition", "-e", help="The English edition: " + EDITION_HELP +
                                              "; default: latest."),
        lang: Optional[str] = typer.Option(None, "--lang", help="Language of --doc (pt, es)."),
        doc: Optional[Path] = typer.Option(None, "--doc", help="A translation (any format ingestion reads): its "
                                           "rule is shown beside the English."),
        no_history: bool = typer.Option(False, "--no-history", help="Skip the one-line history (it needs every "
                                        "edition matched once: seconds the first time, cached after)."),
        json_out: Optional[str] = json_option("the rule view"),
    ):
        """Read one rule: its title path, text, examples and subrules, what it cites and what
        cites it, and its history in one line.  A number from an older numbering is followed
        to today's (with a note); a keyword name or glossary term finds its rule.

        Exit codes: 0 shown; 2 no such rule, term or edition."""
        from ..show import show_rule  # lazy: a command loads its stage only when it runs (CLI start-up time)

        tr = None
        if doc is not None:
            from ..ingest.loader import load_document  # lazy: a command loads its stage only when it runs (CLI start-up time)

            tr = load_document(doc, lang=lang)
        view = show_rule(rule, edition, translation=tr, history=not no_history)
        if not emit_json(json_out, view.to_dict() if json_out else None):
            _print(view)

"""``crpipe align``: a translation against its English base edition and the current edition."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from ..findings import Severity
from .common import EDITION_HELP, console, is_edition_name, json_option, load_rules, print_json, user_errors


def _reference(spec: Optional[str]):
    """A folder or file as given; a date names one edition of the known ones; None: all of them."""
    from ..editions.catalog import default_catalog, resolve_edition  # lazy: a command loads its stage only when it runs (CLI start-up time)

    if spec is None:
        return default_catalog()
    if is_edition_name(spec):
        ref = resolve_edition(spec)
        if ref.path is not None:
            return ref.path
        return ref  # embedded: align_file reads it as one edition file
    p = Path(spec).expanduser()
    if not p.exists():
        from ..errors import InputError  # lazy: a command loads its stage only when it runs (CLI start-up time)

        raise InputError("no such folder or edition file", p.resolve())
    return p


def register(app: typer.Typer) -> None:
    @app.command()
    @user_errors
    def align(
        translation: Path = typer.Argument(..., help="A translated rules document (any format ingestion reads: "
                                           "TXT, PDF, DOCX, HTML, a paste, a web-viewer card) or a bilingual "
                                           "translator file (gettext PO/POT, XLIFF 1.2/2.0)."),
        reference: Optional[str] = typer.Option(None, "--reference", help="A folder of English editions (YYYY-MM-DD.txt), "
                                                "one English edition file, or a date; default: every known edition "
                                                "(CRPIPE_MIRROR, cache, embedded archive)."),
        current: Optional[str] = typer.Option(None, "--current", help="The current English edition: " + EDITION_HELP +
                                              " (default: the newest of the --reference editions)."),
        json_out: Optional[str] = json_option("rows and findings"),
        html_out: Optional[Path] = typer.Option(None, "--html", help="Write the side-by-side HTML report here."),
        xliff_out: Optional[Path] = typer.Option(None, "--xliff", help="Write XLIFF 2.0 (one unit per rule, findings as notes; "
                                              "for a PO/XLIFF input: its own units updated to the current edition)."),
        csv_out: Optional[Path] = typer.Option(None, "--csv", help="Write the findings as CSV."),
        po_out: Optional[Path] = typer.Option(None, "--po", help="Write the update as a gettext PO (msgid = current "
                                              "English, msgstr = the translation, fuzzy where the English changed; for a "
                                              "PO/XLIFF input: the team's own units, header and comments kept)."),
        cards: List[Path] = typer.Option([], "--cards", help="MTGJSON file(s) (v3 set/AllSets, v5 set/AllPrintings/"
                                         "AtomicCards) for the card-name check; repeat the option for several."),
        termbase: Optional[Path] = typer.Option(None, "--termbase", help="A term base YAML file "
                                                "(default: the shipped pipeline/data/termbase.yaml)."),
        lang: Optional[str] = typer.Option(None, "--lang", help="Language of the translation (pt, es, or any code such as ru, ko: a language without a profile is aligned with the checks that need none, the others listed as not run); detected when omitted."),
        fmt: Optional[str] = typer.Option(None, "--format", help="Input format (txt, paste, webcard, pdf, docx, html, "
                                          "po, xliff); detected when omitted."),
        fail_on: str = typer.Option("error", "--fail-on", help="Exit 1 when a finding has this severity or worse "
                                    "(error, warning, info, never)."),
        rows: bool = typer.Option(False, "--rows", help="Print one table row per rule or unit instead of the summary."),
    ):
        """Align every rule of a translation with the English rule of its base edition (by number
        where numbering holds, by content anchors where it does not) and with the current
        edition through the renumbering maps; run the translator's checks (structure,
        references, anchors, card names, terminology, consistency, text damage).

        Prints a summary for people (the editions, coverage, findings by kind of defect and the
        first findings); --rows prints one table row per rule or unit; --json/--html/--csv hold
        everything.  Exit codes: 0 no finding at --fail-on severity or worse; 1 there are such
        findings; 2 bad input (nothing written).
        """
        from ..align.run import align_file  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..errors import InputError  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..report import write_reports  # lazy: a command loads its stage only when it runs (CLI start-up time)

        if fail_on not in ("error", "warning", "info", "never"):
            raise InputError(f"--fail-on must be error, warning, info or never, not {fail_on!r}")
        ref = _reference(reference)
        cur = load_rules(current) if current is not None else None
        res = align_file(translation, ref, cur, lang=lang, fmt=fmt, termbase=termbase, cards=cards or None)
        write_reports(res, json_path=json_out if json_out not in (None, "-") else None, html_path=html_out,
                      csv_path=csv_out, xliff_path=xliff_out, po_path=po_out)
        if json_out == "-":
            print_json(res.to_dict())
        else:
            be = res.base_edition
            span = f"range {be.range.first} … {be.range.last}" if be.range and be.range.first else (be.how or "no range")
            title = (f"{translation.name}: base {be.label} ({span}), current {res.current_edition}; "
                     f"score {res.score.per_thousand_words:.1f}/1000 words")
            console.print(_rows_table(res, title) if rows else _summary(res, title))
        order = {"info": 0, "warning": 1, "error": 2}
        if fail_on != "never" and any(order[i.severity] >= order[fail_on] for i in res.issues):
            raise typer.Exit(1)


def _rows_table(res, title: str) -> Table:
    t = Table(title=title)
    for col in ("rule", "base", "current", "status", "findings"):
        t.add_column(col)
    for r in res.rows:
        t.add_row(r.id or "—", r.base_id or "—", r.current_id or "—", r.status,
                  "; ".join(f"{i.check}" + (f" {i.excerpt!r}" if i.excerpt else "")
                            + (f" → {i.suggestion}" if i.suggestion else "") for i in r.issues))
    return t


#: How many findings the summary lists (errors first); the reports hold them all.
TOP = 15


def _summary(res, title: str):
    """What a reviewer reads first: coverage, findings by kind of defect, the first findings."""
    from rich.console import Group  # lazy: a command loads its stage only when it runs (CLI start-up time)
    from rich.text import Text  # lazy: as above

    parts = [Text(title, style="bold")]
    cov = res.coverage
    if cov:
        parts.append(Text(f"{cov['translated']:,} of {cov['units']:,} {cov.get('unit', 'unit')}s translated "
                          f"({100 * cov['share']:.0f} %); {len(cov.get('untranslated_rules') or []):,} rules untranslated"))
    of = {c.id: str(c.defect or c.category) for c in res.checks}
    by: dict[str, list[int]] = {}
    for i in res.issues:
        n = by.setdefault(of.get(i.check, str(i.category)), [0, 0])
        n[0 if i.severity != Severity.INFO else 1] += 1
    t = Table(title="findings by kind of defect")
    for col in ("kind", "errors and warnings", "info"):
        t.add_column(col, justify="left" if col == "kind" else "right")
    for k, (ew, info) in sorted(by.items(), key=lambda kv: (-kv[1][0], kv[0])):
        t.add_row(k, str(ew), str(info))
    parts.append(t)
    rank = {"error": 0, "warning": 1, "info": 2}
    first = sorted((i for i in res.issues if i.severity != Severity.INFO), key=lambda i: rank[i.severity])[:TOP]
    if first:
        parts.append(Text(f"first {len(first)} of {sum(v[0] for v in by.values())} errors and warnings "
                          "(--rows, --html or --json for all):", style="bold"))
        for i in first:
            # One line each: the rule (or glossary entry) and the unit's line in the file.
            line = (i.unit or "").rsplit(":", 1)[-1] if (i.unit or "").rsplit(":", 1)[-1].isdigit() else ""
            where = (i.rule or "—") + (f" (line {line})" if line else "")
            parts.append(Text(f"  {where} {i.check}: {i.message}"[:160], no_wrap=True, overflow="ellipsis"))
    if res.not_run:
        # A language without a profile: say what was not looked at, not only what was found.
        reason = res.not_run[0]["reason"]
        parts.append(Text(f"{len(res.not_run)} checks not run: {reason} (--json lists them)", style="yellow"))
        parts.extend(Text(n) for n in res.notes if n.startswith("references read with"))
    return Group(*parts)

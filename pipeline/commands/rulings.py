"""``crpipe link`` and ``crpipe link-eval``: rulings linked to the rules that govern them."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from ..errors import InputError
from ..io import write_json
from ..profiles import OFFICIAL_LANG
from .common import EDITION_HELP, console, load_rules, print_json, user_errors


def _edition(spec: Optional[str]):
    """--rules: a date, 'latest' (the default) or a file; an English edition with rules."""
    doc = load_rules(spec)
    if doc.meta.language != OFFICIAL_LANG:
        raise InputError("the rules to link against must be an English edition", spec)
    if not doc.rules:
        raise InputError("no rules found in this edition", spec)
    return doc


def _linker(doc):
    from ..link.index import build_index  # lazy: a command loads its stage only when it runs (CLI start-up time)
    from ..link.linker import Linker  # lazy: a command loads its stage only when it runs (CLI start-up time)

    return Linker(build_index(doc))


def register(app: typer.Typer) -> None:
    @app.command()
    @user_errors
    def link(
        rulings: Path = typer.Argument(..., help="A rulings file: a rulings-page paste, an MTGJSON v3 set file / "
                                                 "v5 AllPrintings or AtomicCards, or Scryfall rulings (API list or bulk file)."),
        rules: Optional[str] = typer.Option(None, "--rules", help="The English Comprehensive Rules edition to link to: " + EDITION_HELP + " (TXT, PDF or DOCX); default: latest."),
        cards: List[Path] = typer.Option([], "--cards", help="MTGJSON file(s) whose foreign names resolve a localized card "
                                                              "name to English (and whose oracle ids name Scryfall rulings). Repeatable."),
        top: int = typer.Option(5, "--top", min=1, max=50, help="How many candidate rules to keep per ruling."),
        json_out: Optional[str] = typer.Option(None, "--json", help="Write the links (candidates, scores, evidence) as JSON to this file, or '-' for stdout."),
        html_out: Optional[Path] = typer.Option(None, "--html", help="Write a self-contained HTML page: each ruling with its ranked rules and their text."),
        translation: List[Path] = typer.Option([], "--translation", help="A translated rules document: each linked rule also shows its text there. Repeatable."),
        card_lang: Optional[str] = typer.Option(None, "--card-lang", help="Language of a paste's card name (pt, es, …); it also settles DD/MM vs MM/DD when no date does."),
    ):
        """Rank the rules of an English edition for each ruling, with a score and the evidence
        (matched terms, keyword, heading topic, glossary term, renamed term, card layout,
        explicit reference, similar rule sentence).

        Exit codes: 0 linked; 2 unreadable rules or rulings file (nothing written).
        """
        from ..ingest.loader import load_document  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..link.run import link_set, links_to_dict  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..link.translations import translation_maps  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..rulings import load_card_index, read_rulings  # lazy: a command loads its stage only when it runs (CLI start-up time)

        idx = load_card_index(cards) if cards else None
        rs = read_rulings(rulings, cards=idx, card_lang=card_lang)
        doc = _edition(rules)
        maps = translation_maps({p.stem: load_document(p) for p in translation}, doc) if translation else []
        links = link_set(_linker(doc), rs, top=top)
        data = links_to_dict(rs, links, doc, maps)
        if json_out == "-":
            print_json(data)
            return
        if json_out:
            write_json(json_out, data)
        if html_out:
            from ..io import atomic_write  # lazy: a command loads its stage only when it runs (CLI start-up time)
            from ..link.report_html import render_links_html  # lazy: a command loads its stage only when it runs (CLI start-up time)

            atomic_write(html_out, render_links_html(data))
        t = Table(title=f"{rulings.name}: {len(rs.rulings)} rulings ({rs.format}) → {doc.meta.effective_date}")
        for col in ("card", "date", "ruling", "rules (best first)", "best rule's text", "evidence"):
            t.add_column(col, overflow="fold")
        for lr in links[:200]:
            best = lr.candidates[0] if lr.candidates else None
            text = lr.ruling.text if len(lr.ruling.text) < 90 else lr.ruling.text[:87] + "…"
            rule = doc.rule(best.rule) if best else None
            rtext = "" if rule is None else (rule.text if len(rule.text) < 120 else rule.text[:117] + "…")
            t.add_row(lr.ruling.card.name if lr.ruling.card else "", lr.ruling.date or "", text,
                      ", ".join(f"{c.rule} ({c.score:.2f})" for c in lr.candidates[:3]), rtext,
                      ", ".join(sorted({e.kind for e in best.evidence})) if best else "")
        console.print(t)
        if len(links) > 200:
            console.print(f"… {len(links) - 200} more rulings (use --json for all)")
        for n in rs.notes:
            console.print(f"note: {n}")

    @app.command("link-eval")
    @user_errors
    def link_eval(
        gold: Path = typer.Argument(..., help="Gold links: JSON with a 'rulings' list of {text, primary, acceptable} "
                                              "(optional card, layout), as in rulings-dev/seed-rulings-gold.json."),
        rules: Optional[str] = typer.Option(None, "--rules", help="The English edition the gold numbers refer to: " + EDITION_HELP + "; default: latest."),
        cards: List[Path] = typer.Option([], "--cards", help="MTGJSON file(s): the cards' rules text and layout become context."),
        baseline: bool = typer.Option(False, "--baseline", help="Also score a plain BM25 baseline over rule texts (needs bm25s, the 'test' extra)."),
        json_out: bool = typer.Option(False, "--json", help='Print {"n", "p_at_1", "r_at_5", "mrr"} (and "baseline" with --baseline).'),
    ):
        """Measure the linker on gold links: precision at 1, recall at 5 and mean reciprocal
        rank (a hit is the primary rule or any acceptable one)."""
        from ..link.evaluate import gold_inputs, load_gold, metrics  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..rulings import load_card_index  # lazy: a command loads its stage only when it runs (CLI start-up time)

        items = load_gold(gold)
        doc = _edition(rules)
        idx = load_card_index(cards) if cards else None
        ranked = _linker(doc).link_texts([g.text for g in items], top=20, **gold_inputs(items, idx))
        ours = metrics([[c.rule for c in r] for r in ranked], items)
        result = dict(ours)
        if baseline:
            from ..link.baseline import BM25Baseline  # lazy: a command loads its stage only when it runs (CLI start-up time)

            try:  # bm25s is imported when the baseline is built
                bl = BM25Baseline(doc)
            except ImportError:
                raise InputError("--baseline needs bm25s (pip install bm25s, or the 'test' extra); "
                                 "run without --baseline") from None
            result["baseline"] = metrics(bl.rank([g.text for g in items]), items)
        if json_out:
            print_json(result)
            return
        t = Table(title=f"{gold.name}: {ours['n']} rulings against {doc.meta.effective_date}")
        for col in ("method", "P@1", "R@5", "MRR"):
            t.add_column(col)
        t.add_row("crpipe linker", f"{ours['p_at_1']:.3f}", f"{ours['r_at_5']:.3f}", f"{ours['mrr']:.3f}")
        if baseline:
            b = result["baseline"]
            t.add_row("BM25 baseline (bm25s)", f"{b['p_at_1']:.3f}", f"{b['r_at_5']:.3f}", f"{b['mrr']:.3f}")
        console.print(t)

"""``crpipe link`` and ``crpipe link-eval``: rulings linked to the rules that govern them."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..errors import CrpipeError, InputError
from ..profiles import OFFICIAL_LANG
from ..model import RankerModel
from .common import EDITION_HELP, console, err_console, load_rules, emit_json, json_option, user_errors


def _edition(spec: Optional[str]):
    """--rules: a date, 'latest' (the default) or a file; an English edition with rules."""
    doc = load_rules(spec)
    if doc.meta.language != OFFICIAL_LANG:
        raise InputError("the rules to link against must be an English edition", spec)
    if not doc.rules:
        raise InputError("no rules found in this edition", spec)
    return doc


def _linker(doc, semantic: bool = False, model: Path | None = None, ix=None, ranker: RankerModel = RankerModel.SHIPPED):
    """The learned linker; with ``semantic`` (or a ``model`` folder), its semantic view too when
    the extra is installed (else one message, and the lexical ranker links)."""
    from ..link.index import build_index  # lazy: a command loads its stage only when it runs (CLI start-up time)
    from ..link.linker import Linker  # lazy: a command loads its stage only when it runs (CLI start-up time)

    ix = ix or build_index(doc)
    view = None
    if semantic or model is not None:
        from ..link.semantic import SemanticUnavailable, SemanticView, load_encoder  # optional: the semantic extra

        try:
            view = SemanticView(ix, load_encoder(str(model) if model is not None else None))
        except SemanticUnavailable as e:
            err_console.print(f"semantic view unavailable: {escape(str(e))}; linking with the lexical ranker")
    return Linker(ix, ranker=ranker, semantic=view)


_SEMANTIC_HELP = ("Add the semantic view (the 'semantic' extra: pip install 'crpipe[semantic]'): sentence "
                  "embeddings of all-MiniLM-L6-v2, shipped in the extra's packages, as features and candidates of "
                  "the ranker trained with them.  Nothing is downloaded.")
_SEMANTIC_MODEL_HELP = ("With --semantic: another ONNX sentence-embedding model, a folder holding model.onnx and "
                        "tokenizer.json (the shipped ranker was trained on the packaged model's cosines).")


def _rule_text(doc, rule_id: str) -> str:
    rule = doc.rule(rule_id)
    if rule is None:
        return ""
    return rule.text if len(rule.text) < 120 else rule.text[:117] + "…"


def _confidence_line(c) -> str:
    """How far a judge can trust the first answer (its calibrated confidence)."""
    if c.confident:
        return f"confident ({c.confidence:.2f}): {c.rule}"
    return f"weak ({c.confidence:.2f}): {c.rule} may not be it; read the candidates' rules"


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
        json_out: Optional[str] = json_option("the links (candidates, scores, evidence)"),
        html_out: Optional[Path] = typer.Option(None, "--html", help="Write a self-contained HTML page: each ruling with its ranked rules and their text."),
        translation: List[Path] = typer.Option([], "--translation", help="A translated rules document: each linked rule also shows its text there. Repeatable."),
        card_lang: Optional[str] = typer.Option(None, "--card-lang", help="Language of a paste's card name (pt, es, …); it also settles DD/MM vs MM/DD when no date does."),
        semantic: bool = typer.Option(False, "--semantic", help=_SEMANTIC_HELP),
        semantic_model: Optional[Path] = typer.Option(None, "--semantic-model", metavar="DIR", help=_SEMANTIC_MODEL_HELP),
    ):
        """Rank the rules of an English edition for each ruling, with a score and what carried
        each link: the views that found it (matched terms, keyword, heading topic, glossary
        term or definition, renamed term, card layout and context, explicit reference,
        similar rule sentence, similar labelled ruling) and, for the first answers, the
        learned ranker's largest feature contributions.  The table shows the top candidates
        (``--top``) with the title each rule sits under.

        Exit codes: 0 linked; 2 unreadable rules or rulings file (nothing written).
        """
        from ..ingest.loader import load_document  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..link.run import link_set, links_to_dict, rule_heading  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..link.results import EvidenceKind  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..link.translations import translation_maps  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..rulings import load_card_index, read_rulings  # lazy: a command loads its stage only when it runs (CLI start-up time)

        idx = load_card_index(cards) if cards else None
        rs = read_rulings(rulings, cards=idx, card_lang=card_lang)
        doc = _edition(rules)
        maps = translation_maps({p.stem: load_document(p) for p in translation}, doc) if translation else []
        # Linked before against this edition (same rulings, same card context): not ranked again.
        # The semantic view links afresh (see pipeline/link/memo.py).
        links, carried = link_set(lambda: _linker(doc, semantic, semantic_model), rs, doc, top=top,
                                  explain=min(top, 5), remember=not (semantic or semantic_model is not None))
        data = links_to_dict(rs, links, doc, maps)
        if carried:  # linked off the training edition: say how the prior and memory got here
            data["notes"].append(carried)
        if emit_json(json_out, data):
            return
        if html_out:
            from ..io import atomic_write  # lazy: a command loads its stage only when it runs (CLI start-up time)
            from ..link.report_html import render_links_html  # lazy: a command loads its stage only when it runs (CLI start-up time)

            atomic_write(html_out, render_links_html(data))
        # One block per ruling: its words on a line of their own, then its candidates.  A
        # single table with the ruling as a column left a few words a line at 80 columns.
        console.print(f"{rulings.name}: {len(rs.rulings)} rulings ({rs.format}) → {doc.meta.effective_date}",
                      style="bold", markup=False, highlight=False)
        shown = 50
        for lr in links[:shown]:
            card = f"{lr.ruling.card.name} — " if lr.ruling.card else ""
            console.print()
            console.print(f"{card}{lr.ruling.text}", markup=False, highlight=False)
            first = lr.candidates[0] if lr.candidates else None
            if first is not None and first.confidence is not None:
                console.print(_confidence_line(first), markup=False, highlight=False,
                              style=None if first.confident else "yellow")
            t = Table(box=None, padding=(0, 1), pad_edge=False)
            for col in ("#", "rule", "under", "score", "why"):
                t.add_column(col, overflow="fold", style="dim" if col == "why" else None)
            for rank, c in enumerate(lr.candidates, 1):
                model = next((e.detail for e in c.evidence if e.kind == EvidenceKind.MODEL), "")
                views = ", ".join(sorted({e.kind for e in c.evidence if e.kind != EvidenceKind.MODEL}))
                why = f"{model.removeprefix('learned ranker: ')} — views: {views}" if model else views
                t.add_row(str(rank), c.rule, rule_heading(doc, c.rule), f"{c.score:.2f}", why)
            console.print(t)
        console.print()
        # The best rules' own words, one line each: a reader checks a link without opening the CR.
        best = list(dict.fromkeys(lr.candidates[0].rule for lr in links[:shown] if lr.candidates))
        if best:
            console.print("best rules:", style="bold")
            for rid in best:
                console.print(f"  {rid}  {_rule_text(doc, rid)}", markup=False, highlight=False,
                              overflow="ellipsis", no_wrap=True)
        if len(links) > shown:
            console.print(f"… {len(links) - shown} more rulings (use --json for all)")
        for n in data["notes"]:
            console.print(f"note: {n}")

    @app.command("link-eval")
    @user_errors
    def link_eval(
        gold: Path = typer.Argument(..., help="Gold links: JSON with a 'rulings' list of {text, primary, acceptable} "
                                              "(optional card, layout, card_text, split, governed), as in "
                                              "rulings-dev/seed-rulings-gold.json or tests/data/linking/labels.json."),
        rules: Optional[str] = typer.Option(None, "--rules", help="The English edition to link against: " + EDITION_HELP + "; default: latest. The gold labels are renumbered from their cr_edition to it."),
        cards: List[Path] = typer.Option([], "--cards", help="MTGJSON file(s): the cards' rules text and layout become context; "
                                                              "the rulings they hold become each card's other rulings, as "
                                                              "`crpipe link` on that file would see them."),
        split: Optional[str] = typer.Option(None, "--split", help="Only the gold rulings of this split (train or test)."),
        baseline: bool = typer.Option(False, "--baseline", help="Also score a plain BM25 baseline over rule texts (needs bm25s, the 'test' extra)."),
        compare: bool = typer.Option(False, "--compare", help="Also score the hand-weighted linker (the views summed, no learned ranker)."),
        semantic: bool = typer.Option(False, "--semantic", help=_SEMANTIC_HELP),
        semantic_model: Optional[Path] = typer.Option(None, "--semantic-model", metavar="DIR", help=_SEMANTIC_MODEL_HELP),
        ranker: RankerModel = typer.Option(RankerModel.AUTO, "--ranker",
                                           help="Which shipped ranker: 'shipped' learned from every labelled ruling of "
                                                "the project (train and test split); 'train-split' is the same recipe on "
                                                "the train split only, the one whose test-split figures are unfitted; "
                                                "'auto' takes 'train-split' when a gold ruling is one 'shipped' learned "
                                                "from (its figures would be fitted), else 'shipped'."),
        json_out: Optional[str] = json_option('{"n", "p_at_1", "r_at_5", "mrr", "breakdown", "ranker"} (and "baseline" / '
                                              '"hand_weighted"; "by_draw" when the gold items name the draw they '
                                              'came from)'),
    ):
        """Measure the linker on gold links: precision at 1, recall at 5 and mean reciprocal
        rank (a hit is the primary rule or any acceptable one), recall per section, and how
        wrong first answers relate to the gold rule (too general, too specific, a sibling…).
        Rulings labelled ``governed: false`` are left out."""
        from ..link.evaluate import breakdown, by_draw, gold_edition, gold_inputs, load_gold, map_gold, metrics  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..link.index import build_index  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..link.linker import Linker  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..rulings import load_card_index, read_rulings  # lazy: a command loads its stage only when it runs (CLI start-up time)

        items = load_gold(gold, split=split)
        doc = _edition(rules)
        # Labels name rules as numbered in the gold's cr_edition: carried to the edition linked against.
        labelled_on = gold_edition(gold)
        items, left_out = map_gold(items, labelled_on, doc.meta.effective_date)
        if not items:
            raise InputError(f"no gold ruling's rules exist in the {doc.meta.effective_date} edition", gold)
        idx = load_card_index(cards) if cards else None
        ctx_rulings = []
        for p in cards:
            try:
                ctx_rulings.extend(read_rulings(p).rulings)
            except CrpipeError:
                pass  # a card file without rulings still gives card text
        kw = gold_inputs(items, idx, ctx_rulings or None)
        ix = build_index(doc)
        texts = [g.text for g in items]
        if ranker == RankerModel.AUTO:
            from ..link.rerank import ranker_for  # lazy: a command loads its stage only when it runs (CLI start-up time)

            ranker = ranker_for(texts)
        linker = _linker(doc, semantic, semantic_model, ix, ranker)
        linked = linker.link_texts(texts, top=20, **kw)
        ranked = [[c.rule for c in r] for r in linked]
        result = dict(metrics(ranked, items))
        conf = [bool(r and r[0].confident) for r in linked]
        if any(r and r[0].confidence is not None for r in linked):
            # Of the first answers shown as confident, how many are right (issue 27.3).
            right = [bool(r) and r[0] in g.hits for r, g in zip(ranked, items)]
            n_conf = sum(conf)
            result["confidence"] = {
                "share_confident": round(n_conf / len(items), 4), "confident": n_conf,
                "precision_confident": round(sum(a and b for a, b in zip(conf, right)) / n_conf, 4) if n_conf else None,
                "precision_rest": (round(sum((not a) and b for a, b in zip(conf, right)) / (len(items) - n_conf), 4)
                                   if n_conf < len(items) else None)}
        result["breakdown"] = breakdown(ranked, items, {str(sec.number): sec.title for sec in doc.sections})
        result["semantic"] = linker.semantic is not None
        result["ranker"] = str(ranker)
        result["edition"] = doc.meta.effective_date
        result["labelled_on"] = labelled_on
        result["left_out_gone_rules"] = left_out
        rows = [("crpipe linker" + (" + semantic view" if linker.semantic is not None else "")
                 + (" (train-split ranker)" if ranker == RankerModel.TRAIN_SPLIT else ""), result)]
        per_method = {"linker": ranked}
        if compare:
            hand = [[c.rule for c in r] for r in Linker(ix, ranker=None).link_texts(texts, top=20, **kw)]
            result["hand_weighted"] = metrics(hand, items)
            rows.append(("hand-weighted views (no learning)", result["hand_weighted"]))
            per_method["hand_weighted"] = hand
        if baseline:
            from ..link.baseline import BM25Baseline  # lazy: a command loads its stage only when it runs (CLI start-up time)

            try:  # bm25s is imported when the baseline is built
                bl = BM25Baseline(doc)
            except ImportError:
                raise InputError("--baseline needs bm25s (pip install bm25s, or the 'test' extra); "
                                 "run without --baseline") from None
            per_method["baseline"] = bl.rank(texts)
            result["baseline"] = metrics(per_method["baseline"], items)
            rows.append(("BM25 baseline (bm25s)", result["baseline"]))
        draws = by_draw(per_method, items)
        if draws:  # a set labelled in several draws: each draw apart too
            result["by_draw"] = draws
        if emit_json(json_out, result):
            return
        renum = (f" (labels renumbered from {labelled_on}; {left_out} left out, their rules gone)"
                 if labelled_on and labelled_on != doc.meta.effective_date else "")
        t = Table(title=f"{gold.name}{f' ({split})' if split else ''}: {result['n']} rulings against "
                        f"{doc.meta.effective_date}{renum}")
        for col in ("method", "P@1", "R@5", "MRR"):
            t.add_column(col)
        for name, m in rows:
            t.add_row(name, f"{m['p_at_1']:.3f}", f"{m['r_at_5']:.3f}", f"{m['mrr']:.3f}")
        console.print(t)
        if "confidence" in result:
            c = result["confidence"]
            console.print(f"first answers shown as confident: {c['confident']} of {result['n']} "
                          f"({c['share_confident']:.1%}), right {c['precision_confident'] or 0:.3f}; "
                          f"the rest right {c['precision_rest'] or 0:.3f}")
        if draws:
            names = {"linker": rows[0][0], "hand_weighted": "hand-weighted views", "baseline": "BM25 baseline"}
            t = Table(title="each draw of the gold set apart")
            for col in ("draw", "method", "n", "P@1", "R@5", "MRR"):
                t.add_column(col)
            for d, per in draws.items():
                for name, m in per.items():
                    t.add_row(d, names[name], str(m["n"]), f"{m['p_at_1']:.3f}", f"{m['r_at_5']:.3f}", f"{m['mrr']:.3f}")
            console.print(t)
        t = Table(title="crpipe linker by section of the gold rule")
        for col in ("section", "n", "P@1", "R@5"):
            t.add_column(col)
        for sec, m in result["breakdown"]["sections"].items():
            t.add_row(f"{sec} {m['title']}", str(m["n"]), f"{m['p_at_1']:.3f}", f"{m['r_at_5']:.3f}")
        console.print(t)
        miss = result["breakdown"]["first_answer_misses"]
        console.print("wrong first answers vs the gold rule: " + ", ".join(f"{k} {v}" for k, v in miss.items())
                      + "  (general: an ancestor of it; specific: a subrule of it)")

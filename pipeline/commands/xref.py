"""``crpipe xref``: what a rule cites and what cites it; dangling references; the edge list."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from ..errors import CrpipeError
from .common import EDITION_HELP, console, is_edition_name, load_rules, emit_json, json_option, user_errors

_SNIPPET = 70


def _snippet(text: str, span: tuple[int, int]) -> str:
    a, b = span
    left = text[max(0, a - _SNIPPET):a]
    right = text[b:b + _SNIPPET // 2]
    return ("…" if a > _SNIPPET else "") + left + "[" + text[a:b] + "]" + right + ("…" if b + _SNIPPET // 2 < len(text) else "")


def _citing_text(doc, ref) -> str:
    from ..xref.model import GLOSSARY_PREFIX, RefPart  # lazy: a command loads its stage only when it runs (CLI start-up time)

    if ref.part == RefPart.GLOSSARY:
        entry = doc.glossary_term(ref.source[len(GLOSSARY_PREFIX):])
        text = entry.definition if entry else ""
    else:
        rule = doc.rule(ref.source)
        text = "" if rule is None else (rule.text if ref.part == RefPart.RULE else rule.examples[ref.example].text)
    return " ".join(_snippet(text, ref.span).split())


def _edge_text(doc, g, source: str, target: str) -> str:
    """The citing text of the first reference from ``source`` to ``target``."""
    ref = g.first(source, target)
    return "" if ref is None else _citing_text(doc, ref)


def _node_id(doc, rule: str) -> str:
    from ..xref.model import GLOSSARY_PREFIX, SECTION_PREFIX, glossary_node  # lazy: a command loads its stage only when it runs (CLI start-up time)

    r = rule.strip().rstrip(".")
    if r.startswith((GLOSSARY_PREFIX, SECTION_PREFIX)) or doc.rule(r) is not None:
        return r
    if r.isdigit() and len(r) == 1:
        return f"{SECTION_PREFIX}{r}"
    entry = doc.glossary_term(rule.strip())
    if entry is not None:
        return glossary_node(entry.term)
    return r


def register(app: typer.Typer) -> None:
    @app.command()
    @user_errors
    def xref(
        rule: Optional[str] = typer.Argument(None, help="A rule number (601.2f), a section (6) or a glossary term (Persist)."),
        doc_file: Optional[str] = typer.Option(None, "--doc", help="The rules document: " + EDITION_HELP + " (any format `crpipe parse` reads); default: latest."),
        depth: int = typer.Option(1, "--depth", min=1, max=10, help="Also follow citations up to N steps away (1 = direct only)."),
        json_out: Optional[str] = json_option("the references (with RULE or --dangling)"),
        dangling: bool = typer.Option(False, "--dangling", help="List every reference whose target does not exist (and every title mismatch)."),
        edges: bool = typer.Option(False, "--edges", help="Print the whole edge list as CSV (source,target,kind,raw), ranges expanded."),
        lang: Optional[str] = typer.Option(None, "--lang", help="Language code (en, pt, es); detected when omitted."),
        fmt: Optional[str] = typer.Option(None, "--format", help="Input format; detected when omitted."),
        reference: Optional[str] = typer.Option(None, "--reference", help="A full edition to resolve against what a fragment (a paste, a web card) lacks: such references become 'external' instead of dangling."),
    ):
        """Cross-references of a rules document.

        `crpipe xref 601.2f --doc FILE` shows what 601.2f cites and which rules, examples and
        glossary entries cite it, with the citing text.  `--dangling` lists broken references;
        `--edges` prints the graph's edge list as CSV.  Exit codes: 0 ok; 1 `--dangling` found
        dangling references; 2 unreadable input or unknown rule.
        """
        from ..xref import extract_references  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..xref.adjacency import Adjacency, within  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..xref.model import NodeKind, RefStatus  # lazy: a command loads its stage only when it runs (CLI start-up time)

        if sum(bool(x) for x in (rule, dangling, edges)) != 1:
            raise CrpipeError("give exactly one of RULE, --dangling or --edges")
        if (doc_file is None or is_edition_name(doc_file)) and reference is None:
            # an edition: its inventory and references from the cache after the first run
            from ..editions.catalog import resolve_edition  # lazy: a command loads its stage only when it runs (CLI start-up time)
            from ..xref.cached import edition_references  # lazy: a command loads its stage only when it runs (CLI start-up time)

            doc, refs = edition_references(resolve_edition(doc_file or "latest"))
        else:
            doc = load_rules(doc_file, lang=lang, fmt=fmt)
            refs = extract_references(doc, load_rules(reference) if reference else None)
        doc_name = Path(doc_file).name if doc_file and not is_edition_name(doc_file) else f"edition {doc.meta.effective_date}"

        if edges:
            from ..xref import build_graph, edges_csv  # lazy: networkx, only for the whole edge list

            sys.stdout.write(edges_csv(build_graph(doc, refs)))
            return

        if dangling:
            bad = [r for r in refs if r.status in (RefStatus.DANGLING, RefStatus.TITLE_MISMATCH)]
            data = {"file": str(doc_file or doc_name), "references": len(refs),
                    "dangling": sum(r.status == RefStatus.DANGLING for r in bad),
                    "title_mismatch": sum(r.status == RefStatus.TITLE_MISMATCH for r in bad),
                    "problems": [dict(r.to_dict(), text=_citing_text(doc, r)) for r in bad]} if json_out else None
            if not emit_json(json_out, data):
                t = Table(title=f"{doc_name}: {len(refs)} references, "
                                f"{sum(r.status == RefStatus.DANGLING for r in bad)} dangling, "
                                f"{sum(r.status == RefStatus.TITLE_MISMATCH for r in bad)} title mismatches")
                for col in ("status", "source", "part", "cites", "detail", "text"):
                    t.add_column(col, overflow="fold")
                for r in bad:
                    t.add_row(r.status, r.source, r.part, r.raw, r.detail or "", _citing_text(doc, r))
                console.print(t)
            if any(r.status == RefStatus.DANGLING for r in bad):
                raise typer.Exit(1)
            return

        g = Adjacency(doc, refs)
        node = _node_id(doc, rule)
        if node not in g or g.kind(node) is NodeKind.MISSING and g.in_degree(node) == 0:
            raise CrpipeError(f"no rule, section or glossary term {rule!r} in this document", doc_file or doc_name)
        out_refs = [r for r in refs if r.source == node]
        in_refs = [r for r in refs if node in r.targets]
        cites, cited_by = within(g, node, depth), within(g, node, depth, reverse=True)
        result = {
            "node": node, "kind": g.kind(node), "depth": depth, "edition": doc.meta.effective_date,
            "cites": [dict(r.to_dict(), text=_citing_text(doc, r)) for r in out_refs],
            "cited_by": [dict(r.to_dict(), text=_citing_text(doc, r)) for r in in_refs],
            "cites_within_depth": [{"node": n, "distance": d, "via": via, "text": _edge_text(doc, g, via, n)}
                                   for n, (d, via) in cites.items()],
            "cited_by_within_depth": [{"node": n, "distance": d, "via": via, "text": _edge_text(doc, g, n, via)}
                                      for n, (d, via) in cited_by.items()],
        }
        if emit_json(json_out, result):
            return
        t = Table(title=f"{node} cites ({len(out_refs)} references) · {doc_name}")
        for col in ("part", "cites", "targets", "status", "text"):
            t.add_column(col, overflow="fold")
        for r in out_refs:
            t.add_row(r.part, r.raw, ", ".join(r.targets), r.status, _citing_text(doc, r))
        console.print(t)
        t = Table(title=f"cited by ({len(in_refs)} references)")
        for col in ("source", "part", "as", "text"):
            t.add_column(col, overflow="fold")
        for r in in_refs:
            t.add_row(r.source, r.part, r.raw, _citing_text(doc, r))
        console.print(t)
        if depth > 1:
            t = Table(title=f"within {depth} steps")
            for col in ("direction", "distance", "nodes"):
                t.add_column(col, overflow="fold")
            for label, found in (("cites", cites), ("cited by", cited_by)):
                for dist in range(1, depth + 1):
                    nodes = [n for n, (d, _) in found.items() if d == dist]
                    if nodes:
                        t.add_row(label, str(dist), ", ".join(nodes))
            console.print(t)

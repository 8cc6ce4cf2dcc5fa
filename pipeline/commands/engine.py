"""``crpipe validate-engine`` and ``crpipe audit-citations``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..errors import InputError
from ..io import write_json
from ..profiles import OFFICIAL_LANG
from .common import EDITION_HELP, console, editions_source, err_console, load_rules, print_json, user_errors


def _load(spec: Optional[str]):
    """--rules (a date, 'latest' or a file), else the engine's own edition from any source."""
    from ..engine.registry import ENGINE_EDITION  # lazy: a command loads its stage only when it runs (CLI start-up time)

    return load_rules(spec, default=ENGINE_EDITION, lang=OFFICIAL_LANG, english=True)


def register(app: typer.Typer) -> None:
    @app.command("validate-engine")
    @user_errors
    def validate_engine(
        rules: Optional[str] = typer.Option(None, "--rules", help="English CR edition to validate against: " + EDITION_HELP + " (default: the engine's own edition, 2025-11-14)."),
        editions: Optional[Path] = typer.Option(None, "--editions", help="Folder of editions to map renumbered rules through when --rules is another edition (default: every known edition: CRPIPE_MIRROR, cache, embedded archive)."),
        json_out: bool = typer.Option(False, "--json", help="Print the full report as JSON."),
        # Help text is rich markup: "[phase]" must be escaped or it vanishes as a style tag.
        phase: Optional[bool] = typer.Option(None, "--phase/--no-phase", help="Run the CR-example conformance suite and "
                                             "the adapted scenarios on phase.rs through phase-python (the phase extra: "
                                             "pip install 'crpipe\\[phase]', or pip install -e '.\\[phase]' in a checkout). "
                                             "Default: when phase-python is installed; otherwise the "
                                             "phase part is skipped and the report says why."),
        conformance: bool = typer.Option(True, "--conformance/--no-conformance", help="Run the CR-example "
                                         "conformance suite (verdict per example and per rule, mutation check)."),
    ):
        """Check the rules engine against an edition of the rules.

        Every rule the engine declares must exist (renumbered through the diffs when the
        edition differs from the one the declarations were written against), declared key
        terms must still be in the rule text (else flagged for review), every rule a
        scenario cites must be declared, and every scenario must pass.  Prints the coverage
        of the targeted sections (107.3, 118, 202.3, 601.2, 614, 616, 707, 709, 702.79).

        The conformance suite runs the CR's own examples (pipeline/engine/conformance) on
        phase.rs and on our kernel: a verdict per example and per rule (agrees, disagrees,
        unsupported; recheck when the example's text changed in this edition), and the
        mutation check (every scenario must fail under some perturbation).

        Every runnable example has a control (the same board and actions without what the
        example is about); an example whose control shows the same observations is a
        tautology.  The JSON's conformance.summary gives the suite in figures: examples,
        examples_listed, runnable, control_differs, tautologies, phase {agrees, disagrees,
        driver, unimplemented} and mutation_score (mutmut's score on the kernel, recorded in
        pipeline/engine/conformance/kernel-mutation.json).

        Exit codes: 0 valid (review flags and phase.rs disagreements are warnings); 1 a
        missing or undeclared rule, a failed scenario, a kernel disagreement with a CR
        example, or a tautology; 2 unreadable input.
        """
        from ..engine.conformance.phase_driver import skip_reason  # lazy: loaded only when the command runs
        from ..engine.validate import validate  # lazy: a command loads its stage only when it runs (CLI start-up time)

        if phase and skip_reason():
            raise InputError(f"{skip_reason()}; run without --phase", "--phase")
        use_phase = phase is not False
        from ..engine.registry import ENGINE_EDITION  # lazy: a command loads its stage only when it runs (CLI start-up time)

        doc = _load(rules)
        arch = editions_source(editions) if doc.meta.effective_date != ENGINE_EDITION else None
        label = None
        if arch is not None:
            ref = arch.find(doc.meta.effective_date or "")
            label = ref.stem if ref is not None else None
        rep = validate(doc, arch, target_label=label, conformance=conformance, use_phase=use_phase)
        rows = _phase_rows() if use_phase and not skip_reason() else None
        if json_out:
            print_json({**rep.to_dict(), **({"phase": [r.to_dict() for r in rows]} if rows is not None else {})})
        else:
            _print_validation(rep)
            if rep.conformance is not None:
                _print_conformance(rep.conformance)
            if rows is not None:
                _print_phase(rows)
        if not rep.ok:
            raise typer.Exit(1)

    @app.command("audit-citations")
    @user_errors
    def audit_citations(
        path: Path = typer.Argument(..., help="A source tree (or one file) in any language: Python, Java, Rust, C#, TypeScript, Lua, …"),
        rules: Optional[str] = typer.Option(None, "--rules", help="The English CR edition the code should cite: " + EDITION_HELP + " (default: the engine's own edition, 2025-11-14)."),
        editions: Optional[Path] = typer.Option(None, "--editions", help="Folder of editions to resolve citations against history (removed, stale-renumbered, newer-than-model); default: every known edition (CRPIPE_MIRROR, cache, embedded archive)."),
        json_out: bool = typer.Option(False, "--json", help="Print the citations as JSON ({citations: [{file, line, cited, status, suggested, evidence}], files: …})."),
        sarif: Optional[Path] = typer.Option(None, "--sarif", help="Also write SARIF 2.1.0 to this file, for code hosts to show findings inline."),
        show_ok: bool = typer.Option(False, "--all", help="List citations that are ok in the table too."),
    ):
        """Find rule citations in comments, doc comments, strings and identifiers and check
        each against the rules: ok, missing, removed, stale-renumbered, wrong-topic,
        newer-than-model, outdated-quote.  Also reports, per file, which editions'
        numbering the file mixes.

        Exit codes: 0 every citation ok; 1 some citation needs attention; 2 unreadable input.
        """
        from ..audit.report import audit_tree  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..audit.sarif import to_sarif  # lazy: a command loads its stage only when it runs (CLI start-up time)

        if not path.exists():
            raise InputError("no such file or folder", path)
        rep = audit_tree(path, _load(rules), editions_source(editions))
        if sarif:
            write_json(sarif, to_sarif(rep))
        if json_out:
            print_json(rep.to_dict())
        else:
            _print_audit(rep, show_ok)
        for s in rep.skipped:
            err_console.print(f"[yellow]skipped[/] {escape(s['file'])}: {escape(s['reason'])}", highlight=False)
        if rep.problems:
            raise typer.Exit(1)


def _phase_rows():
    from ..engine import phase_adapter  # lazy: a command loads its stage only when it runs (CLI start-up time)
    from ..errors import CrpipeError  # lazy: a command loads its stage only when it runs (CLI start-up time)

    if not phase_adapter.available():
        raise CrpipeError("phase-python is not installed (pip install 'crpipe[phase]', or pip install -e '.[phase]' "
                          "in a checkout); run without --phase")
    return phase_adapter.compare()


def _print_phase(rows) -> None:
    t = Table(title="phase.rs next to ours (same scenarios)")
    for col in ("scenario", "check", "ours", "phase.rs", "agree", "note"):
        t.add_column(col)
    for r in rows:
        t.add_row(r.scenario, r.check, escape(str(r.ours)), escape(str(r.phase)), "yes" if r.agree else "NO", r.note)
    console.print(t)


def _print_validation(rep) -> None:
    s = Table(title=f"engine vs CR {rep.edition} (declarations written against {rep.declarations_edition})", show_header=False)
    s.add_row("numbers mapped by", rep.mapping)
    s.add_row("declarations", f"{len(rep.checks)} on {len({c.declaration.rule for c in rep.checks})} rules")
    s.add_row("missing rule ids", ", ".join(rep.missing) or "0")
    s.add_row("undeclared rule ids (cited by scenarios)", ", ".join(rep.undeclared) or "0")
    s.add_row("scenario rule ids missing", ", ".join(rep.scenario_missing) or "0")
    s.add_row("renumbered", str(len(rep.renumbered)))
    s.add_row("flagged for review", str(len(rep.review)))
    s.add_row("scenarios", f"{sum(r.passed for r in rep.results)}/{len(rep.results)} passed")
    console.print(s)
    if rep.renumbered:
        t = Table(title=f"declarations renumbered in {rep.edition}")
        t.add_column("declared")
        t.add_column(f"in {rep.edition}")
        t.add_column("behaviour")
        for c in rep.checks:
            if c.target_number and c.target_number != c.declaration.rule:
                t.add_row(c.declaration.rule, c.target_number, c.declaration.function)
        console.print(t)
    if rep.review or rep.missing:
        t = Table(title="declarations to review")
        for col in ("rule", "number here", "status", "behaviour", "terms no longer in the text"):
            t.add_column(col)
        for c in rep.checks:
            if c.status in ("review", "missing"):
                t.add_row(c.declaration.rule, c.target_number or "—", c.status, c.declaration.function,
                          "; ".join(c.missing_terms))
        console.print(t)
    if rep.failed:
        t = Table(title="failed scenarios")
        for col in ("scenario", "rules", "why"):
            t.add_column(col)
        for r in rep.failed:
            t.add_row(r.scenario.id, ", ".join(r.scenario.rules), escape(r.error or "; ".join(r.mismatches)))
        console.print(t)
    t = Table(title="coverage of the targeted sections")
    for col in ("section", "declared as", "rules", "implemented", "with scenario", "neither"):
        t.add_column(col, justify="right" if col in ("rules", "implemented", "with scenario", "neither") else "left")
    for row in rep.coverage:
        d = row.to_dict()
        t.add_row(row.section, row.declared_as, str(d["rules"]), str(d["implemented"]), str(d["with_scenario"]),
                  str(len(d["uncovered"])))
    console.print(t)


def _print_conformance(conf) -> None:
    tot = conf.totals()
    s = Table(title=f"the CR's own examples ({conf.suite_edition}) against CR {conf.edition}", show_header=False)
    s.add_row("examples", str(tot["examples"]))
    s.add_row("example text in this edition", ", ".join(f"{k} {v}" for k, v in tot["text"].items()))
    s.add_row("phase.rs", ", ".join(f"{k} {v}" for k, v in tot["phase"].items())
              + (f" ({conf.phase_skipped})" if conf.phase_skipped else ""))
    s.add_row("kernel", ", ".join(f"{k} {v}" for k, v in tot["kernel"].items()))
    if conf.summary is not None:
        su = conf.summary
        s.add_row("encoded / encoded or listed with a reason", f"{su['examples']} / {su['examples_listed']}")
        s.add_row("runnable (an engine ran it)", str(su["runnable"]))
        s.add_row("controls told apart / tautologies", f"{su['control_differs']} / {su['tautologies']}")
        if not conf.phase_skipped:
            s.add_row("phase.rs by cause", ", ".join(f"{k} {v}" for k, v in su["phase"].items()))
        s.add_row("kernel mutation score (mutmut)", "not recorded" if su["mutation_score"] is None
                  else f"{su['mutation_score']:.3f}")
    if conf.mutation is not None:
        mu = conf.mutation
        s.add_row("comparator self-check (not a mutation score)",
                  f"{mu['killed']}/{mu['perturbations']} perturbed values noticed; survivors: {len(mu['survivors'])}")
    console.print(s)
    bad = [v for v in conf.verdicts if "disagrees" in (v.phase, v.kernel) or "recheck" in (v.phase, v.kernel)]
    if bad:
        t = Table(title="examples to look at")
        for col in ("example", "here", "phase.rs", "kernel", "what differs"):
            t.add_column(col)
        for v in bad:
            t.add_row(v.example, v.target_rule or "—", v.phase, v.kernel,
                      escape("; ".join((v.phase_detail if v.phase == "disagrees" else []) +
                                       (v.kernel_detail if v.kernel == "disagrees" else []))[:200]))
        console.print(t)


def _print_audit(rep, show_ok: bool) -> None:
    t = Table(title=f"rule citations in {rep.root}: {len(rep.citations)} found, {len(rep.problems)} need attention")
    for col in ("file", "line", "cited", "status", "suggested", "evidence"):
        t.add_column(col)
    for c in rep.citations:
        if c.status != "ok" or show_ok:
            t.add_row(escape(c.file), str(c.line), c.cited, c.status, c.suggested or "", escape(c.evidence))
    console.print(t)
    mixed = [f for f in rep.files if len(f.numberings) > 1]
    if mixed:
        m = Table(title="files mixing the numbering of several editions")
        m.add_column("file")
        m.add_column("numberings")
        for f in mixed:
            m.add_row(f.file, "\n".join(f.describe_numberings()))
        console.print(m)

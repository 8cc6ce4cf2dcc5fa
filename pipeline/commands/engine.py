"""``crpipe validate-engine`` and ``crpipe audit-citations``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..errors import InputError
from ..profiles import OFFICIAL_LANG
from .common import EDITION_HELP, console, editions_source, err_console, load_rules, emit_json, json_option, user_errors


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
        json_out: Optional[str] = json_option("the full report"),
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
        data = {**rep.to_dict(), **({"phase": [r.to_dict() for r in rows]} if rows is not None else {})} if json_out else None
        if not emit_json(json_out, data):
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
        paths: list[Path] = typer.Argument(..., help="Source trees or files in any language: Python, Java, Rust, C#, TypeScript, Go, Lua, … (a pre-commit hook passes the changed files)."),
        rules: Optional[str] = typer.Option(None, "--rules", help="The English CR edition the code should cite: " + EDITION_HELP + " (default: the engine's own edition, 2025-11-14)."),
        editions: Optional[Path] = typer.Option(None, "--editions", help="Folder of editions to resolve citations against history (removed, stale-renumbered, newer-than-model); default: every known edition (CRPIPE_MIRROR, cache, embedded archive)."),
        json_out: Optional[str] = json_option("the citations, streamed", " ({citations: [{file, line, cited, status, suggested, evidence, new}], counts, files, baseline})"),
        sarif: Optional[Path] = typer.Option(None, "--sarif", help="Also write SARIF 2.1.0 to this file, for code hosts to show findings inline (with --baseline: only the new ones)."),
        show_ok: bool = typer.Option(False, "--all", help="List citations that are ok (and those the baseline accepts) too."),
        baseline: Optional[Path] = typer.Option(None, "--baseline", help="Accept today's findings and hear only about new ones: the first run writes them to this file; later runs report only findings that are not in it (an edited citation is new). Commit the file."),
        update_baseline: bool = typer.Option(False, "--update-baseline", help="With --baseline: write this run's findings into the baseline (for the files audited), accepting them."),
    ):
        """Find rule citations in comments, doc comments, strings and identifiers and check
        each against the rules: ok, missing, removed, stale-renumbered, wrong-topic,
        newer-than-model, outdated-quote.  Also reports, per file, which editions'
        numbering the file mixes.

        Citations are read in the forms engine code uses: "CR 702.19b", "Rule 704.5f",
        "see 702.7", "Deathtouch (702.2)", "// 702.90a: exalted …", a number wrapped after a
        line's "CR", quoted rule text, numbers in identifiers (test_104_3b_…) and in test
        string literals, with the enclosing class, function or file (Persist.java) as evidence.

        A citation kept on purpose: "crpipe: keep" in a comment on its line (or alone on the
        line above); "crpipe: keep-file 702.78a" anywhere in a file keeps that number there.

        Findings are printed one per line (file:line:column: status number -> suggestion:
        evidence) as files are read, then a summary.

        Exit codes: 0 every citation ok (or accepted by the baseline); 1 some citation needs
        attention; 2 unreadable input.
        """
        from ..audit.report import Audit  # lazy: a command loads its stage only when it runs (CLI start-up time)

        for p in paths:
            if not p.exists():
                raise InputError("no such file or folder", p)
        if update_baseline and baseline is None:
            raise InputError("--update-baseline needs --baseline FILE", "--update-baseline")
        base = _open_baseline(baseline)
        if update_baseline:
            _can_write(baseline)
        run = Audit(paths, _load(rules), editions_source(editions))
        _stream_audit(run, base, json_out, sarif, show_ok, update_baseline)


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
    from ..engine.validate import DeclarationStatus  # lazy: a command loads its stage only when it runs (CLI start-up time)

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
            if c.status in (DeclarationStatus.REVIEW, DeclarationStatus.MISSING):
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
    from ..engine.conformance.model import Verdict  # lazy: a command loads its stage only when it runs (CLI start-up time)

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
    bad = [v for v in conf.verdicts if {v.phase, v.kernel} & {Verdict.DISAGREES, Verdict.RECHECK}]
    if bad:
        t = Table(title="examples to look at")
        for col in ("example", "here", "phase.rs", "kernel", "what differs"):
            t.add_column(col)
        for v in bad:
            t.add_row(v.example, v.target_rule or "—", v.phase, v.kernel,
                      escape("; ".join((v.phase_detail if v.phase == Verdict.DISAGREES else []) +
                                       (v.kernel_detail if v.kernel == Verdict.DISAGREES else []))[:200]))
        console.print(t)


def _open_baseline(path: Optional[Path]):
    """The baseline to compare with: read (one line, exit 2, if it is not one), or a new one."""
    if path is None:
        return None
    from ..audit.baseline import Baseline  # lazy: a command loads its stage only when it runs (CLI start-up time)

    if path.exists():
        return Baseline.read(path)
    _can_write(path)  # before the run: a baseline that cannot be written fails at once, not after
    return Baseline.empty(path)


def _can_write(path: Path) -> None:
    """Refuse (one line, exit 2) a file that could not be created where it is named."""
    import os  # noqa: PLC0415 - lazy, as every import of a command
    import tempfile  # noqa: PLC0415 - lazy, as every import of a command

    folder = path.parent if str(path.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise InputError(f"cannot write the baseline here: {e.strerror or e}", path) from None


def _stream_audit(run, base, json_out: Optional[str], sarif: Optional[Path], show_ok: bool,
                  update_baseline: bool) -> None:
    """Each file's citations written out as it is read (JSON, SARIF and the finding lines are
    streamed: memory does not grow with the tree), then the summary; exit 1 on a finding.
    ``json_out``: a file (written atomically; the lines and summary are printed too) or ``-``
    (the JSON alone on standard output)."""
    import contextlib  # noqa: PLC0415 - lazy, as every import of a command
    import tempfile  # noqa: PLC0415 - lazy, as every import of a command

    from ..audit.baseline import Matcher, finding_key, row, write  # lazy: only this command
    from ..audit.resolve import CitationStatus  # lazy: only this command
    from ..audit.sarif import SarifStream  # lazy: only this command
    from ..audit.stream import ListStream, dump  # lazy: only this command
    from ..io import atomic_text_writer  # lazy: only this command

    fresh = base is not None and not base.path.exists()  # the first run: accept everything found
    matcher = Matcher(base) if base is not None else None
    rows: list = []  # this run's findings, for a baseline being written
    counts: dict[str, int] = {}
    kept = reported = found = 0
    mixed: list[tuple[str, list[str]]] = []  # the first files that mix editions' numbering, for the table
    n_mixed = 0
    audited: set[str] = set()
    with contextlib.ExitStack() as stack:
        sarif_out = None
        if sarif is not None:
            sarif_out = SarifStream(stack.enter_context(atomic_text_writer(sarif)))
        to_stdout = json_out == "-"
        js_out = (sys.stdout if to_stdout else stack.enter_context(atomic_text_writer(json_out))) if json_out else None
        js = ListStream(js_out, {"root": " ".join(str(p) for p in run.paths), "edition": run.edition,
                                 "history": list(run.span) if run.span else None}, "citations") if json_out else None
        # The per-file summaries come after the citations: spooled to a temporary file meanwhile.
        files = stack.enter_context(tempfile.TemporaryFile("w+", encoding="utf-8")) if json_out else None
        for summary, cs in run.files():
            if base is not None:
                audited.add(_baseline_name(base, run, summary.file))
            if summary.citations:
                if files is not None:
                    files.write(dump(summary.to_dict()) + "\n")
                if len(summary.numberings) > 1:
                    n_mixed += 1
                    if len(mixed) < MIXED_SHOWN:
                        mixed.append((summary.file, summary.describe_numberings()))
            for c in cs:
                found += 1
                counts[c.status] = counts.get(c.status, 0) + 1
                new = None
                if c.kept:
                    kept += 1
                elif c.status != CitationStatus.OK and matcher is not None:
                    name = _baseline_name(base, run, c.file)
                    fp = finding_key(name, c)
                    new = not fresh and matcher.is_new(fp)
                    if fresh or update_baseline:
                        rows.append(row(name, c, fp))
                report = c.is_problem and new is not False
                reported += report
                if js is not None:
                    d = c.to_dict()
                    if new is not None:
                        d["new"] = new
                    js.add(d)
                if not to_stdout and (report or show_ok):
                    sys.stdout.write(_finding_line(c, new) + "\n")
                if report and sarif_out is not None:
                    sarif_out.add(c, "new" if new else None)
        summary_b = None
        if base is not None:
            summary_b = {"file": str(base.path), "written": fresh or update_baseline,
                         "new": 0 if fresh else matcher.new,
                         "accepted": len(rows) if fresh else matcher.known,
                         "fixed": 0 if fresh else matcher.fixed(base, audited)}
        if sarif_out is not None:
            sarif_out.close(run.edition, run.span)
        if js is not None:
            files.seek(0)
            js.close({"counts": dict(sorted(counts.items())), "files_scanned": run.scanned,
                      "files_skipped": run.skipped, "kept": kept, "baseline": summary_b}, {"files": files})
    if base is not None and (fresh or update_baseline):
        write(base, rows, audited, run.edition)
    if not to_stdout:
        _print_audit_summary(run, counts, found, reported, kept, summary_b, mixed, n_mixed)
    for s in run.skipped:
        err_console.print(f"[yellow]skipped[/] {escape(s['file'])}: {escape(s['reason'])}", highlight=False)
    if reported and not (fresh or update_baseline):
        raise typer.Exit(1)


def _baseline_name(base, run, file: str) -> str:
    """A file's name as a baseline records it: relative to the baseline's folder."""
    import os  # noqa: PLC0415 - lazy, as every import of a command

    return Path(os.path.relpath(os.path.abspath(run.base / file), base.folder)).as_posix()


def _finding_line(c, new) -> str:
    """One finding as compilers and linters print them: file:line:column: what, then why."""
    to = f" -> {c.suggested}" if c.suggested else ""
    tag = "" if new is None else (" (new)" if new else " (in the baseline)")
    kept = f" [kept: {c.kept}]" if c.kept else ""
    return f"{c.file}:{c.line}:{c.column}: {c.status} {c.cited}{to}{tag}{kept}: {' '.join(c.evidence.split())}"


#: Files mixing editions' numbering listed in the summary (--json lists every one).
MIXED_SHOWN = 20


def _print_audit_summary(run, counts, found, reported, kept, baseline, mixed, n_mixed) -> None:
    console.print(f"rule citations in {escape(' '.join(str(p) for p in run.paths))} (CR {run.edition}): {found} found "
                  f"in {run.scanned} files, {reported} need attention", highlight=False)
    t = Table(show_header=False)
    for status, n in sorted(counts.items()):
        t.add_row(status, str(n))
    if kept:
        t.add_row("kept on purpose (crpipe: keep)", str(kept))
    if baseline is not None:
        if baseline["written"]:
            t.add_row("baseline written", f"{baseline['file']}: {baseline['accepted']} findings accepted")
        else:
            t.add_row("baseline", f"{baseline['file']}: {baseline['new']} new, {baseline['accepted']} accepted, "
                                  f"{baseline['fixed']} fixed since")
    console.print(t)
    if mixed:
        more = f" (the first {len(mixed)} of {n_mixed}; --json lists them all)" if n_mixed > len(mixed) else ""
        m = Table(title="files mixing the numbering of several editions" + more)
        m.add_column("file")
        m.add_column("numberings")
        for name, numberings in mixed:
            m.add_row(escape(name), escape("\n".join(numberings)))
        console.print(m)

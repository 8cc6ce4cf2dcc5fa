"""``crpipe build``: the main job over ``corpus/``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .common import console, err_console, user_errors


def register(app: typer.Typer) -> None:
    @app.command()
    @user_errors
    def build(
        corpus: Optional[Path] = typer.Option(None, "--corpus", help="Folder with manifest.yaml and the inputs it names "
                                              "(default: the project's corpus/, wherever you run from)."),
        out: Optional[Path] = typer.Option(None, "--out", help="Where every output is written (default: the project's aligned/)."),
        reference: Optional[Path] = typer.Option(None, "--reference", help="The English reference edition (TXT)."),
        mirror: Optional[Path] = typer.Option(None, "--mirror", envvar="CRPIPE_MIRROR",
                                              help="A local folder of English editions named YYYY-MM-DD.txt."),
        cache: Optional[Path] = typer.Option(None, "--cache", help="Cache folder for a downloaded reference edition."),
        offline: bool = typer.Option(False, "--offline", help="Never try the download."),
        wait: bool = typer.Option(True, "--wait/--no-wait", help="When another build is writing the same "
                                  "--out folder: wait for it (default) or refuse at once (exit 75)."),
        verbose: bool = typer.Option(False, "--verbose", "-v", help="List every output file, not one line per group."),
    ):
        """Run every stage on the corpus and write all outputs into aligned/.

        The reference edition is taken from --reference, else the mirror (--mirror or
        CRPIPE_MIRROR), else the cache, else the archive of English editions embedded in
        crpipe, else downloaded from the manifest's URL and checked against its sha256.  The
        editions a translation's base edition is inferred from are the mirror's, the cache's
        and the embedded ones, so a fresh machine without network runs every stage.  Without
        a reference the build still runs what it can and says what it skipped; what a skipped
        stage wrote in the previous build is kept (and listed under "kept" in build-report.json).

        Outputs are assembled beside --out and swapped in only when complete: a failed,
        killed or out-of-space build leaves the previous build untouched.
        """
        from ..build import STAGES, run_build  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..paths import default_corpus, default_out  # lazy: a command loads its stage only when it runs (CLI start-up time)

        corpus = corpus or default_corpus()
        out = out or default_out()
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                      TimeElapsedColumn(), console=err_console, transient=False) as prog:
            task = prog.add_task("build", total=len(STAGES))
            seen = []

            def step(name: str) -> None:
                if seen:
                    prog.advance(task)
                seen.append(name)
                prog.update(task, description=name)

            try:
                ctx = run_build(corpus, out, reference=reference, mirror=mirror, cache=cache,
                                allow_download=not offline and not os.environ.get("CRPIPE_OFFLINE"), progress=step,
                                wait=None if wait else 0)
            except BaseException:
                # A refusal is one line: the bar is cleared from a terminal and never printed
                # into a file or pipe (nor Progress.stop's newline after it), so the error is
                # all stderr holds.
                prog.live.transient = True
                prog.live.stop()
                prog.disable = True
                raise
            prog.update(task, completed=len(STAGES), description="done")
        files = sorted({str(p.relative_to(ctx.out)) for p in ctx.outputs})
        t = Table(title=f"crpipe build → {out}/")
        t.add_column("output")
        if verbose:
            for p in files:
                t.add_row(p)
        else:
            t.add_column("files", justify="right")
            for label, n in _groups(files):
                t.add_row(label, str(n))
        console.print(t)
        if not verbose:
            console.print(f"{len(files)} files; every one listed with --verbose and in {out}/build-report.json")
        if ctx.reference_path:
            console.print(f"reference edition {ctx.reference.meta.effective_date if ctx.reference else '?'}: {ctx.reference_source}")
        if ctx.editions_dir is not None:
            eds = ctx.editions_dir.editions
            console.print(f"English editions known: {len(eds)} ({eds[0].date} … {eds[-1].date}) from {ctx.editions_dir.label}")
        for n in ctx.notes:
            console.print(f"[yellow]note[/]: {n}")
        for s in ctx.skipped:
            console.print(f"[yellow]skipped[/] {s['stage']}: {s['reason']}")
        by_stage: dict[str, list[dict]] = {}
        for k in ctx.kept:
            by_stage.setdefault(k["stage"], []).append(k)
        for stage, items in by_stage.items():
            made_with = f" (reference edition {items[0]['edition']})" if items[0].get("edition") else ""
            console.print(f"[yellow]kept[/] {len(items)} output(s) of '{stage}' from the previous build{made_with}, "
                          "as it was skipped; listed under 'kept' in build-report.json")


def _groups(files: list[str]) -> list[tuple[str, int]]:
    """One line per kind of output: a file's formats together ("align-pt-000.{csv,html,json,xlf}"),
    a folder's files as the folder ("site/2019-06-12/ … 130 pages")."""
    groups: dict[str, list[str]] = {}
    for f in files:
        parts = f.split("/")
        if len(parts) > 1:
            key = "/".join(parts[:2 if parts[0] == "site" and len(parts) > 2 else 1]) + "/"
            groups.setdefault(key, []).append(f)
        else:
            stem, _, ext = f.partition(".")
            groups.setdefault(stem + ".", []).append(ext)
    out = []
    for key, items in groups.items():
        if key.endswith("/"):
            out.append((key, len(items)))
        else:
            exts = [e for e in items if e]
            label = key[:-1] if not exts else key + (exts[0] if len(exts) == 1 else "{" + ",".join(exts) + "}")
            out.append((label, len(items)))
    return out

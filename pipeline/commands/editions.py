"""``crpipe editions``: the English editions crpipe knows, and adding one to the user cache."""

from __future__ import annotations

import hashlib
from typing import Optional
from pathlib import Path

import typer
from rich.table import Table

from ..errors import InputError
from ..io import atomic_write, read_bounded
from .common import console, err_console, emit_json, json_option, user_errors

MAX_BYTES = 64 << 20


def _fetch(source: str, timeout: float) -> tuple[bytes, str]:
    """The bytes of a file or an http(s) URL (bounded), and a name for messages."""
    if source.startswith(("http://", "https://")):
        from ..net import DownloadError, fetch  # noqa: PLC0415 - lazy: http.client and ssl cost every command's start-up

        try:
            data = fetch(source, timeout, MAX_BYTES)  # --timeout is the whole download's deadline
        except DownloadError as e:
            raise InputError(f"download failed: {e}", source) from None
    else:
        p = Path(source).expanduser()
        if not p.exists():
            raise InputError("no such file", p.resolve())
        data = read_bounded(p, MAX_BYTES, what="rules edition", env=None)
    if len(data) > MAX_BYTES:
        raise InputError(f"larger than {MAX_BYTES >> 20} MB: not a rules edition", source)
    return data, source


def add_edition(source: str, timeout: float = 30.0) -> tuple[str, str]:
    """Store an official English edition (file or URL) in the user cache, named by the date
    stated inside it.  Returns ``(date, what happened)``."""
    from ..editions.catalog import default_catalog, user_editions_dir  # lazy: a command loads its stage only when it runs (CLI start-up time)
    from ..editions.meta import quick_meta  # lazy: a command loads its stage only when it runs (CLI start-up time)

    data, name = _fetch(source, timeout)
    meta = quick_meta(data)
    if meta.get("error"):
        raise InputError(meta["error"], name)
    date = meta.get("effective_date")
    if not date:
        raise InputError("no effective date stated in this edition", name)
    if meta.get("truncated"):
        raise InputError("truncated edition (no Glossary and Credits after the rules); not added", name)
    sha = hashlib.sha256(data).hexdigest()
    known = default_catalog()
    same = next((r for r in known.editions + known.shadowed if r.sha256 == sha), None)
    if same is not None:
        return date, f"already known ({same.source}: {same.where})"
    target = user_editions_dir() / f"{date}.txt"
    atomic_write(target, data)
    return date, f"added as {target}"


def register(app: typer.Typer) -> None:
    ed = typer.Typer(help="The English editions crpipe knows (mirror, cache, embedded archive), and adding one.",
                     no_args_is_help=False, invoke_without_command=True)

    @ed.callback()
    @user_errors
    def editions(
        ctx: typer.Context,
        json_out: Optional[str] = json_option("the list"),
    ):
        """List every known English edition: the date stated inside it, where it comes from
        (mirror = CRPIPE_MIRROR, cache = editions you added or the build downloaded, embedded
        = shipped inside crpipe), its file name and whether it is complete.  An edition known
        from several sources is listed once, from the first of mirror, cache, embedded."""
        if ctx.invoked_subcommand is not None:
            return
        from ..editions.catalog import default_catalog  # lazy: a command loads its stage only when it runs (CLI start-up time)

        cat = default_catalog()
        rows = [{"date": r.date, "source": r.source, "file": r.name, "sha256": r.sha256,
                 "truncated": r.truncated, "where": r.where} for r in cat.editions]
        if emit_json(json_out, {"editions": rows, "skipped": cat.skipped, "latest": cat.latest().date}):
            return
        t = Table(title=f"{len(rows)} English editions ({cat.label}); latest {cat.latest().date}")
        for col in ("date", "source", "file", "note"):
            t.add_column(col)
        for r in cat.editions:
            note = "truncated: left out of history" if r.truncated else (
                f"file name says {r.stem}" if r.date and r.stem != r.date else "")
            t.add_row(r.date or "?", r.source, r.name, note)
        console.print(t)
        for s in cat.skipped:
            err_console.print(f"[yellow]skipped[/] {s['file']}: {s['reason']}")

    @ed.command("add")
    @user_errors
    def add(
        source: str = typer.Argument(..., help="An official English edition: a file or an http(s) URL (TXT)."),
        timeout: float = typer.Option(30.0, "--timeout", help="Seconds a download may take in all (connecting and reading)."),
    ):
        """Add an edition to the user cache ($CRPIPE_CACHE/editions, named by the date stated
        inside it), so every command knows it.  Exit codes: 0 added or already known; 2 not
        an official, complete English edition, or unreadable."""
        date, what = add_edition(source, timeout)
        console.print(f"{date}: {what}")

    app.add_typer(ed, name="editions")

"""Helpers shared by the CLI commands: error reporting, consoles, JSON output."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Callable

import typer
from rich.console import Console

from ..errors import CrpipeError, InputError
from ..io import dumps, os_failure
from ..profiles import OFFICIAL_LANG

console = Console(stderr=False)
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"crpipe: error: {message}", err=True)
    raise typer.Exit(code)


def user_errors(fn: Callable) -> Callable:
    """Turn a :class:`CrpipeError` into one line on stderr and exit code 2 (no traceback).

    The operating system's refusals (permission, read-only or full disk) take the same path:
    they are the machine's state, not a bug, so the user gets the path and the cause."""
    @functools.wraps(fn)
    def wrapper(*a, **kw):
        try:
            return fn(*a, **kw)
        except CrpipeError as e:
            typer.echo(f"crpipe: error: {e}", err=True)
            raise typer.Exit(e.exit_code)
        except OSError as e:
            err = os_failure(e)
            typer.echo(f"crpipe: error: {err}", err=True)
            raise typer.Exit(err.exit_code)
        except KeyboardInterrupt:
            typer.echo("crpipe: interrupted", err=True)
            raise typer.Exit(130)
    return wrapper


def print_json(obj) -> None:
    sys.stdout.write(dumps(obj))


def json_option(what: str, extra: str = ""):
    """The one ``--json`` option (:mod:`pipeline.cli_options`): ``what`` the command writes."""
    return typer.Option(None, "--json", metavar="PATH|-",
                        help=f"Write {what} as JSON to PATH; '-' (or --json alone) prints it instead of the table.{extra}")


def emit_json(target: str | None, obj) -> bool:
    """Write ``obj`` where ``--json`` says; True when it went to standard output (the command
    then prints nothing else there)."""
    if target is None:
        return False
    if target == "-":
        print_json(obj)
        return True
    from ..io import write_json  # noqa: PLC0415 - lazy: only a file target writes

    write_json(target, obj)
    return False


# -- naming editions: one way for every command ----------------------------------------------

EDITION_HELP = "a date (2025-11-14; the date stated inside the edition), 'latest', or a file"


def is_edition_name(spec: str) -> bool:
    """A date or 'latest' (and no file of that name in the cwd)."""
    from ..editions.catalog import DATE_RE  # lazy: a command loads its stage only when it runs (CLI start-up time)

    s = str(spec).removesuffix(".txt")
    return (s == "latest" or bool(DATE_RE.match(s))) and not Path(str(spec)).is_file()


def load_rules(spec, *, default: str = "latest", lang: str | None = None, fmt: str | None = None,
               english: bool = False):
    """The rules document a command works on: ``spec`` names an edition (see EDITION_HELP)
    found in the mirror, the cache or the embedded archive, or any file ingestion reads."""
    spec = default if spec is None else str(spec)
    if is_edition_name(spec):
        from ..editions.catalog import load_edition  # lazy: a command loads its stage only when it runs (CLI start-up time)

        doc = load_edition(spec)
    else:
        from ..ingest.loader import load_document  # lazy: a command loads its stage only when it runs (CLI start-up time)

        p = Path(spec).expanduser()
        if not p.exists():
            raise InputError(f"no such file (give {EDITION_HELP})", p.resolve())
        doc = load_document(p, lang=lang, fmt=fmt)
    if english and doc.meta.language != OFFICIAL_LANG:
        raise InputError("the rules must be an English Comprehensive Rules edition", spec)
    return doc


def editions_source(editions):
    """``--editions DIR`` (that folder only), else every known edition (mirror, cache, embedded)."""
    from ..editions.catalog import as_catalog  # lazy: a command loads its stage only when it runs (CLI start-up time)

    return as_catalog(editions)

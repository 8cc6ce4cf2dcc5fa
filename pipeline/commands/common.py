"""Helpers shared by the CLI commands: error reporting, consoles, JSON output."""

from __future__ import annotations

import functools
import sys
from typing import Callable

import typer
from rich.console import Console

from ..errors import CrpipeError
from ..io import dumps, os_failure

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

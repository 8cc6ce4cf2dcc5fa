"""The ``crpipe`` command line.

Each command lives in ``pipeline/commands/<name>.py`` with a ``register(app)`` function;
this module only assembles them and turns project errors into one line and an exit code.
"""

from __future__ import annotations

import importlib
import sys

import typer

from .errors import CrpipeError
from .io import os_failure

app = typer.Typer(
    name="crpipe",
    help="Process the Magic: The Gathering Comprehensive Rules: parse any edition or translation, "
         "check it, cross-reference it, diff editions, align translations, link rulings, "
         "and validate the rules engine.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Command modules, in the order of the data's path through the pipeline.
COMMAND_MODULES = [
    "parse",
    "xref",
    "diff",
    "align",
    "rulings",
    "engine",
    "build",
    "editions",
    "show",
    "site",
]

for _name in COMMAND_MODULES:
    importlib.import_module(f"pipeline.commands.{_name}").register(app)


def main() -> None:  # pragma: no cover - thin wrapper
    try:
        app()
    except CrpipeError as e:
        typer.echo(f"crpipe: error: {e}", err=True)
        sys.exit(e.exit_code)
    except OSError as e:  # e.g. stdout on a full disk, outside any command's own handler
        typer.echo(f"crpipe: error: {os_failure(e)}", err=True)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()

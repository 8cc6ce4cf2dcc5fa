"""The ``crpipe`` command line.

Each command lives in ``pipeline/commands/<name>.py`` with a ``register(app)`` function;
this module only assembles them and turns project errors into one line and an exit code.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from typing import TYPE_CHECKING

from .errors import CrpipeError
from .io import os_failure

if TYPE_CHECKING:
    import typer

HELP = ("Process the Magic: The Gathering Comprehensive Rules: parse any edition or translation, "
        "check it, cross-reference it, diff editions, align translations, link rulings, "
        "and validate the rules engine.")

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
    "profile",
]

#: The module that registers each command (tests/test_cli_imports.py checks it against the
#: modules themselves): ``crpipe show ...`` imports only ``commands/show.py``.
COMMANDS = {
    "parse": "parse", "check": "parse", "search": "parse", "xref": "xref", "diff": "diff", "history": "diff",
    "align": "align", "link": "rulings", "link-eval": "rulings", "validate-engine": "engine",
    "audit-citations": "engine", "build": "build", "editions": "editions", "show": "show", "site": "site",
    "profile": "profile",
}


def build_app(modules: list[str] | None = None) -> "typer.Typer":
    """The Typer app with the commands of ``modules`` (default: all of them)."""
    import typer  # noqa: PLC0415 - lazy: a replayed --help never loads it (see help_cache)

    from .cli_options import CrpipeCommand, CrpipeGroup  # noqa: PLC0415 - lazy: it subclasses Typer's classes

    new = typer.Typer(name="crpipe", help=HELP, no_args_is_help=True, add_completion=False,
                      pretty_exceptions_enable=False, cls=CrpipeGroup,
                      context_settings={"help_option_names": HELP_OPTIONS})
    for name in COMMAND_MODULES if modules is None else modules:
        importlib.import_module(f"pipeline.commands.{name}").register(new)
    _reflow_commands(new)
    _own_classes(new, CrpipeCommand, CrpipeGroup)

    # Also keeps a one-command app a group: one command and no callback would make Typer run
    # it as the whole program (``crpipe show`` would read "show" as the rule).
    @new.callback()
    def _main(version: bool = typer.Option(False, "--version", "-V", help="Print crpipe's version and exit.")):
        if version:  # reached only as ``crpipe --version ...``; a lone --version is answered in _run
            _print_version()
            raise typer.Exit(0)

    return new


#: ``-h`` as well as ``--help``, on every command (Click passes it down to subcommands).
HELP_OPTIONS = ["-h", "--help"]


def _print_version() -> None:
    from . import __version__  # noqa: PLC0415 - the package's own, no metadata lookup

    print(f"crpipe {__version__}")


def _own_classes(app: "typer.Typer", command_cls, group_cls) -> None:
    """Every command and group of ``app`` built with crpipe's classes (:mod:`.cli_options`:
    ``--json`` alone for standard output, no ``<bool>`` beside a flag in ``--help``)."""
    for info in app.registered_commands:
        if info.cls is None or info.cls is command_cls.__base__:  # Typer's default, not a command's own
            info.cls = command_cls
    for group in app.registered_groups:
        # Typer merges the two; a class nobody chose is a DefaultPlaceholder around TyperGroup.
        for info in (group, group.typer_instance.info):
            if getattr(info.cls, "value", info.cls) in (None, group_cls.__base__):
                info.cls = group_cls
        _own_classes(group.typer_instance, command_cls, group_cls)


#: A paragraph whose lines start like these is a list or a command line: its breaks stay.
_KEEP_BREAKS = re.compile(r"(?m)^(?:\s|[-*•] |\d+[.)] |crpipe |python |\$ )")


def reflow(doc: str) -> str:
    """A docstring as help text: each prose paragraph on one line, so the terminal wraps it.

    Typer keeps the single line breaks of every paragraph after the first, and rich then
    wraps those lines again at the terminal's width: a docstring's source wrapping showed
    as ragged half-lines ("embedded in" / "crpipe, else ...")."""
    paras = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(p if _KEEP_BREAKS.search(p) else " ".join(p.split("\n")) for p in paras)


def _reflow_commands(app: "typer.Typer") -> None:
    for info in app.registered_commands:
        text = info.help or inspect.getdoc(info.callback)
        if text:
            info.help = reflow(text)
    for group in app.registered_groups:
        _reflow_commands(group.typer_instance)


def __getattr__(name: str):
    """``app``: every command, built on first use (tests, ``typer.testing``); the ``crpipe``
    entry point builds only the app it needs."""
    if name == "app":
        full = globals()["app"] = build_app()
        return full
    raise AttributeError(name)


def _app_for(argv: list[str]) -> "typer.Typer":
    """The app that can run ``argv``: only the named command's module when the first
    argument is a command (start-up time), else every command (help, a typo's suggestions)."""
    module = COMMANDS.get(argv[0]) if argv else None
    return build_app([module]) if module else __getattr__("app")


def _error(message: str) -> None:
    print(f"crpipe: error: {message}", file=sys.stderr, flush=True)


def _run(argv: list[str]) -> None:
    if argv in (["--version"], ["-V"]):  # answered before Typer loads: a script asks this often
        _print_version()
        return
    if argv not in ([h] for h in HELP_OPTIONS):
        _app_for(argv)()
        return
    from .help_cache import cached_help, help_key, recording  # noqa: PLC0415 - lazy: only --help replays

    key = help_key()
    text = cached_help(key)
    if text is not None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    with recording(key):
        _app_for(argv)()


def main() -> None:  # pragma: no cover - thin wrapper
    try:
        _run(sys.argv[1:])
    except CrpipeError as e:
        _error(str(e))
        sys.exit(e.exit_code)
    except OSError as e:  # e.g. stdout on a full disk, outside any command's own handler
        _error(str(os_failure(e)))
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()

"""How crpipe's commands read and show their options: one ``--json`` for every command, and
``--help`` without a flag's type.

``--json PATH|-`` is the one JSON option: every command writes its JSON to PATH (atomically:
a temporary file renamed when complete) or, with ``-``, prints it instead of its table.
``--json`` written alone -- last, or before another option -- means ``-``: what the commands
that printed JSON with a flag always accepted.  Click has no option with an optional value in
the Click that Typer vendors, so the commands' classes below supply the ``-`` before parsing.

Typer prints a type column for every option, ``<bool>`` beside each flag: noise, since a flag
takes no value; an option that takes a value keeps its type or metavar.

The classes are Typer's own command and group classes, changed only in those two things:
``build_app`` gives them to every command.
"""

from __future__ import annotations

from typer.core import TyperCommand, TyperGroup, TyperOption

JSON = "--json"
STDOUT = "-"
JSON_METAVAR = "PATH|-"


def json_alone(args: list[str]) -> list[str]:
    """``args`` with ``-`` after each ``--json`` that has no value: the last argument, or followed
    by another option (``--json --edition X``).  Nothing after ``--`` is touched (positional)."""
    out: list[str] = []
    for i, a in enumerate(args):
        if a == "--":
            return out + args[i:]
        out.append(a)
        if a == JSON:
            nxt = args[i + 1] if i + 1 < len(args) else None
            if nxt is None or (nxt.startswith("-") and nxt != STDOUT):
                out.append(STDOUT)
    return out


class _Flag(TyperOption):
    """A flag (``is_flag``): no type in the help's type column."""

    def display_type_rich(self, ctx):
        return None


def _quiet(params: list) -> list:
    for p in params:
        # Swapping the class of an option Typer built keeps everything it set on it; only how
        # its type is displayed differs.
        if type(p) is TyperOption and p.is_flag:
            p.__class__ = _Flag
    return params


class CrpipeCommand(TyperCommand):
    def get_params(self, ctx):
        return _quiet(super().get_params(ctx))

    def parse_args(self, ctx, args):
        return super().parse_args(ctx, json_alone(args))


class CrpipeGroup(TyperGroup):
    def get_params(self, ctx):
        return _quiet(super().get_params(ctx))

    def parse_args(self, ctx, args):
        return super().parse_args(ctx, json_alone(args))

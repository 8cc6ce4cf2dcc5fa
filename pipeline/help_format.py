"""How ``--help`` shows options: a flag's type left out.

Typer 0.29 prints a type column for every option, ``<bool>`` beside each flag (``--json``,
``--help``): noise, since a flag takes no value.  An option that takes a value keeps its
type or metavar (``<path>``, ``DATE|FILE``).  The classes here are Typer's own command and
group classes, changed only in that: ``build_app`` gives them to every command.
"""

from __future__ import annotations

from typer.core import TyperCommand, TyperGroup, TyperOption


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


class FlagsWithoutTypes(TyperCommand):
    def get_params(self, ctx):
        return _quiet(super().get_params(ctx))


class QuietGroup(TyperGroup):
    def get_params(self, ctx):
        return _quiet(super().get_params(ctx))

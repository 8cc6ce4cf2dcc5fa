"""One serializer from the typed model to JSON data: dataclasses become dicts (field order,
optional fields left out as each field's metadata says), enums their values, tuples lists.

A field's metadata (:func:`json_field`) says how it goes into the JSON: left out when None,
when equal to its default, or always (a field the program keeps for itself); under another
key; rounded; or converted (a card by its name, a list by its length).  A class whose JSON
form truly differs from its fields (computed figures, a flattened member) defines
``__json__``, usually as :func:`fields_data` plus what it adds.

``io.dumps`` then writes that data deterministically (sorted keys).  A leaf module: the
model, the findings and every stage's result types use it without importing one another.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, fields, is_dataclass
from enum import Enum
from functools import cache
from typing import Any, Callable


def json_field(*, omit: str | None = None, name: str | None = None, digits: int | None = None,
               convert: Callable[[Any], Any] | None = None) -> dict:
    """Field metadata: ``omit`` "none" / "default" / "always"; ``name`` the JSON key;
    ``digits`` to round a float to (None stays None); ``convert`` the value's JSON form."""
    out: dict[str, Any] = {}
    if omit is not None:
        assert omit in ("none", "default", "always"), omit
        out["omit"] = omit
    if name is not None:
        out["name"] = name
    if digits is not None:
        out["digits"] = digits
    if convert is not None:
        out["convert"] = convert
    return out


#: Field metadata: leave the field out of the JSON when it is None / equal to its default.
OMIT_NONE = json_field(omit="none")
OMIT_DEFAULT = json_field(omit="default")
#: Field metadata: a field the program keeps that is no part of the JSON form.
INTERNAL = json_field(omit="always")


def _default(f: Field) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return MISSING


@cache
def _plan(cls: type) -> tuple[tuple[str, str, str | None, Any, Any, int | None], ...]:
    """Per class, once: (attribute, JSON key, omit, default, convert, digits) for each field
    in the JSON (the audit serialises 100,000s of citations)."""
    out = []
    for f in fields(cls):
        md = f.metadata
        if md.get("omit") == "always":
            continue
        out.append((f.name, md.get("name", f.name), md.get("omit"),
                    _default(f) if md.get("omit") == "default" else None, md.get("convert"), md.get("digits")))
    return tuple(out)


#: Values that are JSON data as they are (the common case, checked first: the audit writes
#: 100,000s of citations).
_PLAIN = frozenset({str, int, float, bool, type(None)})


def fields_data(obj: Any) -> dict:
    """A dataclass instance's fields as JSON data, as their metadata says (no ``__json__``)."""
    out = {}
    for attr, key, omit, default, convert, digits in _plan(type(obj)):
        v = getattr(obj, attr)
        if (omit == "none" and v is None) or (omit == "default" and v == default):
            continue
        if convert is not None:
            v = convert(v)
        if digits is not None and v is not None:
            v = round(v, digits)
        out[key] = v if type(v) in _PLAIN else to_data(v)
    return out


def to_data(obj: Any) -> Any:
    """``obj`` as JSON data (dicts, lists, str, numbers, bools, None)."""
    if type(obj) in _PLAIN:
        return obj
    if isinstance(obj, Enum):
        return obj._value_  # the .value property costs about five times as much (measured)
    if hasattr(type(obj), "__json__"):
        return obj.__json__()
    if is_dataclass(obj) and not isinstance(obj, type):
        return fields_data(obj)
    if isinstance(obj, (list, tuple)):
        return [to_data(v) for v in obj]
    if isinstance(obj, dict):
        return {(k.value if isinstance(k, Enum) else k): to_data(v) for k, v in obj.items()}
    return obj

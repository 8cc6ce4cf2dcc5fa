"""One serializer from the typed model to JSON data: dataclasses become dicts (field order,
optional fields left out as each field's metadata says), enums their values, tuples lists.

``io.dumps`` then writes that data deterministically (sorted keys).  A leaf module: the
model, the findings and every stage's result types use it without importing one another.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, fields, is_dataclass
from enum import Enum
from typing import Any

#: Field metadata: leave the field out of the JSON when it is None / equal to its default.
OMIT_NONE = {"omit": "none"}
OMIT_DEFAULT = {"omit": "default"}
#: Field metadata: a field the program keeps that is no part of the JSON form.
INTERNAL = {"omit": "always"}


def _default(f: Field) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return MISSING


def to_data(obj: Any) -> Any:
    """``obj`` as JSON data (dicts, lists, str, numbers, bools, None)."""
    if isinstance(obj, Enum):
        return obj.value
    if is_dataclass(obj) and not isinstance(obj, type):
        out = {}
        for f in fields(obj):
            v = getattr(obj, f.name)
            omit = f.metadata.get("omit")
            if omit == "always" or (omit == "none" and v is None) or (omit == "default" and v == _default(f)):
                continue
            out[f.name] = to_data(v)
        return out
    if isinstance(obj, (list, tuple)):
        return [to_data(v) for v in obj]
    if isinstance(obj, dict):
        return {(k.value if isinstance(k, Enum) else k): to_data(v) for k, v in obj.items()}
    return obj

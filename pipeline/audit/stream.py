"""Write a JSON document whose one big list arrives item by item (an audit's citations, a
SARIF run's results), so no more than one item is held: ``{…head…, "key": [items…], …tail…}``.
The output is deterministic (keys sorted within each part, items in the order given)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)


class ListStream:
    """``{head fields, key: [ … ], tail fields}`` written to ``out`` as items come; ``wrap``
    is the text around the object when it is nested (SARIF's ``{"runs": [ … ]}``)."""

    def __init__(self, out: TextIO, head: dict, key: str, wrap: tuple[str, str] = ("", "")):
        self.out, self.n, self.wrap = out, 0, wrap
        out.write(wrap[0] + "{")
        for k in sorted(head):
            out.write(f"\n {_dump(k)}: {_dump(head[k])},")
        out.write(f"\n {_dump(key)}: [")

    def add(self, item: Any) -> None:
        self.out.write(("," if self.n else "") + "\n  " + _dump(item))
        self.n += 1

    def close(self, tail: dict, lists: dict[str, Iterable[str]] | None = None) -> None:
        """Finish with the ``tail`` fields and further lists (``lists``: name -> items already
        dumped as JSON text, read as they are written: a spooled file's lines)."""
        self.out.write("\n ]" if self.n else "]")
        for k in sorted(tail):
            self.out.write(f",\n {_dump(k)}: {_dump(tail[k])}")
        for k in sorted(lists or {}):
            self.out.write(f",\n {_dump(k)}: [")
            first = True
            for item in lists[k]:
                self.out.write(("\n  " if first else ",\n  ") + item.rstrip("\n"))
                first = False
            self.out.write("]" if first else "\n ]")
        self.out.write("\n}" + self.wrap[1] + "\n")


def dump(obj: Any) -> str:
    """One item as the stream writes it (for lists spooled to a file first)."""
    return _dump(obj)

"""Word-level diff: which words of a rule were deleted, inserted or kept.

The result is a list of ``[op, text]`` runs (``=`` kept, ``-`` only in the old text, ``+``
only in the new text); joining the ``=``/``-`` runs gives the old text back and the
``=``/``+`` runs the new one, so renderers never have to re-tokenise.  Tokens are rule
numbers, words or punctuation marks, each with its trailing spaces, aligned by rapidfuzz's ``Indel``
(longest common subsequence) opcodes in C; within one changed stretch all deletions come
before all insertions, the way people read a redline.
"""

from __future__ import annotations

import re

from rapidfuzz.distance import Indel

from ..text import NUMBER

# A rule number is one token, so an updated citation reads "~~702.142~~ 702.143".
_TOKEN = re.compile(rf"{NUMBER}(?!\w)\s*|[\w'’]+\s*|[^\w\s]\s*|\s+")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def word_diff(old: str, new: str) -> list[list[str]]:
    a, b = tokens(old), tokens(new)
    runs: list[list[str]] = []
    dels: list[str] = []
    ins: list[str] = []

    def flush() -> None:
        if dels:
            runs.append(["-", "".join(dels)])
        if ins:
            runs.append(["+", "".join(ins)])
        dels.clear()
        ins.clear()

    for op in Indel.opcodes(a, b):
        if op.tag == "equal":
            flush()
            text = "".join(a[op.src_start:op.src_end])
            if runs and runs[-1][0] == "=":
                runs[-1][1] += text
            else:
                runs.append(["=", text])
        else:
            dels.extend(a[op.src_start:op.src_end])
            ins.extend(b[op.dest_start:op.dest_end])
    flush()
    return runs


def side(runs: list[list[str]], which: str) -> str:
    """Rebuild the old (``which="-"``) or new (``"+"``) text from the runs."""
    return "".join(t for op, t in runs if op in ("=", which))


def changed_words(runs: list[list[str]]) -> int:
    return sum(len(t.split()) for op, t in runs if op != "=")

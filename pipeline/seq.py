"""Sequence helpers shared by the stages that order rules."""

from __future__ import annotations

from bisect import bisect_left
from typing import Sequence


def longest_increasing(seq: Sequence) -> list[int]:
    """Indexes (ascending) of one longest strictly increasing subsequence of ``seq``.

    Patience sorting, O(n log n).  The diff uses it to find the backbone of anchors kept
    in order between editions; the integrity check to tell the one mistyped number from
    the rules that are in sequence around it.
    """
    tails: list = []
    tails_at: list[int] = []
    back = [-1] * len(seq)
    for i, v in enumerate(seq):
        k = bisect_left(tails, v)
        if k == len(tails):
            tails.append(v)
            tails_at.append(i)
        else:
            tails[k] = v
            tails_at[k] = i
        back[i] = tails_at[k - 1] if k else -1
    out: list[int] = []
    i = tails_at[-1] if tails_at else -1
    while i >= 0:
        out.append(i)
        i = back[i]
    return out[::-1]

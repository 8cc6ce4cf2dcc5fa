"""Match the rules of two editions by content and structure, not by number.

1. *Exact anchors*: same number and same text, then any text that occurs exactly once in
   each edition (citations masked, so a rule whose only edit is an updated reference
   still anchors).  A renumbered rule with unchanged text is found here wherever it went.
2. *Backbone*: the longest run of anchors in the same order in both editions.  Rules
   between two consecutive backbone anchors can only correspond to each other (an
   inserted keyword shifts numbers, not order), so each gap is aligned on its own with a
   monotone dynamic programme over ``rapidfuzz`` ``ratio`` scores plus structural
   evidence (same number, parents matched to each other, a one-to-one gap).
3. *Children*: the unmatched subrules of two matched rules are aligned the same way
   (a rule that moved and was edited brings its subrules along).
4. *Leftovers*: whatever is still unmatched is paired across the whole document only on
   a high ``ratio`` -- a rule moved far away keeps most of its characters.  Never
   ``token_set_ratio``: it scores 100 whenever one text's words are a subset of another's.

Scores are only computed for candidate pairs (a gap, a family, the leftovers), never for
all pairs: that keeps a diff of two ~3,000-rule editions to tens of milliseconds.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from ..rulenum import Level
from ..seq import longest_increasing
from .cache import MATCHER_VERSION  # noqa: F401 - re-exported: the version lives with the cache keys
from .text import mask_refs, normalize

if TYPE_CHECKING:
    import numpy as np
    from ..model import Document

#: Minimum adjusted score (0-100) for a pair inside a gap or a family.
GAP_THRESHOLD = 55.0
#: Minimum plain ``ratio`` for any pair whatever its structural evidence: two unrelated
#: CR sentences of similar length score 42 (median), 46 (90th percentile), 51 (99th): below
#: this even the same number is not the same rule.
RATIO_FLOOR = 50.0
#: Minimum plain ``ratio`` for a pair found outside any structural context.
LEFTOVER_THRESHOLD = 82.0
#: Above this many cells a gap is aligned greedily instead of by the quadratic programme.
DP_MAX_CELLS = 40_000


@dataclass(frozen=True)
class Item:
    """One rule as the matcher sees it."""

    id: str
    key: str  # normalised text, citations masked
    heading: bool  # a three-digit rule (its text is a title)
    parent: str | None = None
    suffix: str = ""  # the last component of the number ("a", "12") relative to the parent


@dataclass
class Matching:
    pairs: dict[int, int] = field(default_factory=dict)  # old index -> new index
    score: dict[int, float] = field(default_factory=dict)  # old index -> similarity 0-100
    how: dict[int, str] = field(default_factory=dict)  # old index -> anchor | gap | family | leftover


class _Matcher:
    def __init__(self, old: list[Item], new: list[Item]):
        self.old, self.new = old, new
        self.m = Matching()
        self.new_taken: set[int] = set()
        self.old_index = {it.id: i for i, it in enumerate(old)}
        self.new_index = {it.id: i for i, it in enumerate(new)}

    # -- bookkeeping ----------------------------------------------------------------
    def pair(self, i: int, j: int, score: float, how: str) -> None:
        self.m.pairs[i] = j
        self.m.score[i] = score
        self.m.how[i] = how
        self.new_taken.add(j)

    def free_old(self, i: int) -> bool:
        return i not in self.m.pairs

    def free_new(self, j: int) -> bool:
        return j not in self.new_taken

    # -- 1. anchors -------------------------------------------------------------------
    def anchors(self) -> None:
        # The bookkeeping of pair() inlined: this runs for every rule of both editions.
        old, new = self.old, self.new
        pairs, score, how, taken = self.m.pairs, self.m.score, self.m.how, self.new_taken
        new_index = self.new_index
        for i, it in enumerate(old):
            j = new_index.get(it.id)
            if j is not None and new[j].key == it.key:
                pairs[i], score[i], how[i] = j, 100.0, "anchor"
                taken.add(j)
        old_c = Counter(it.key for i, it in enumerate(old) if i not in pairs)
        new_c = Counter(it.key for j, it in enumerate(new) if j not in taken)
        new_at = {it.key: j for j, it in enumerate(new) if j not in taken and new_c[it.key] == 1}
        for i, it in enumerate(old):
            if i not in pairs and old_c[it.key] == 1 and it.key in new_at:
                j = new_at[it.key]
                if new[j].heading == it.heading:
                    pairs[i], score[i], how[i] = j, 100.0, "anchor"
                    taken.add(j)

    # -- scoring ------------------------------------------------------------------------
    def _structural(self, i: int, j: int, one_to_one: bool) -> float:
        a, b = self.old[i], self.new[j]
        bonus = 0.0
        if a.id == b.id:
            bonus += 15
        elif a.parent and b.parent and a.suffix == b.suffix:
            pi = self.old_index.get(a.parent)
            if pi is not None and self.m.pairs.get(pi) == self.new_index.get(b.parent):
                bonus += 12
        if one_to_one:
            bonus += 10
        return bonus

    def _scores(self, olds: list[int], news: list[int]) -> np.ndarray:
        import numpy as np  # noqa: PLC0415 - lazy: a diff served from the match cache never matches (0.09 s import)

        mat = process.cdist([self.old[i].key for i in olds], [self.new[j].key for j in news],
                            scorer=fuzz.ratio, dtype=np.float32, workers=1)
        one = len(olds) == 1 and len(news) == 1
        for x, i in enumerate(olds):
            a = self.old[i]
            for y, j in enumerate(news):
                b = self.new[j]
                if a.heading != b.heading:
                    mat[x, y] = -1
                    continue
                bonus = self._structural(i, j, one)
                s = float(mat[x, y])
                if bonus and s < RATIO_FLOOR:
                    # A short rule that grew a lot (or was cut down) keeps the short
                    # text almost whole inside the long one.
                    short, long_ = sorted((a.key, b.key), key=len)
                    if len(short) >= 12 and fuzz.partial_ratio(short, long_) >= 90:
                        s = GAP_THRESHOLD
                mat[x, y] = s + bonus if s >= RATIO_FLOOR else 0
        return mat

    # -- 2/3. aligning a region -------------------------------------------------------
    def align(self, olds: list[int], news: list[int], how: str) -> None:
        import numpy as np  # noqa: PLC0415 - lazy: a diff served from the match cache never matches (0.09 s import)

        olds = [i for i in olds if self.free_old(i)]
        news = [j for j in news if self.free_new(j)]
        if not olds or not news:
            return
        mat = self._scores(olds, news)
        n, m = len(olds), len(news)
        if n * m > DP_MAX_CELLS:
            # Large reorganisations: greedy best-first, no order constraint.
            xs, ys = np.nonzero(mat >= GAP_THRESHOLD + 10)
            order = sorted(zip(xs.tolist(), ys.tolist()), key=lambda p: (-mat[p], p))
            for x, y in order:
                if self.free_old(olds[x]) and self.free_new(news[y]):
                    self.pair(olds[x], news[y], self._plain(olds[x], news[y]), how)
            return
        ok = mat >= GAP_THRESHOLD
        dp = np.zeros((n + 1, m + 1), dtype=np.float64)
        for x in range(1, n + 1):
            row, prev = dp[x], dp[x - 1]
            okx, matx = ok[x - 1], mat[x - 1]
            for y in range(1, m + 1):
                best = prev[y] if prev[y] >= row[y - 1] else row[y - 1]
                if okx[y - 1]:
                    cand = prev[y - 1] + matx[y - 1]
                    if cand > best:
                        best = cand
                row[y] = best
        x, y = n, m
        found = []
        while x > 0 and y > 0:
            if ok[x - 1, y - 1] and dp[x, y] == dp[x - 1, y - 1] + mat[x - 1, y - 1]:
                found.append((x - 1, y - 1))
                x, y = x - 1, y - 1
            elif dp[x - 1, y] >= dp[x, y - 1]:
                x -= 1
            else:
                y -= 1
        for x, y in reversed(found):
            self.pair(olds[x], news[y], self._plain(olds[x], news[y]), how)

    def _plain(self, i: int, j: int) -> float:
        return float(fuzz.ratio(self.old[i].key, self.new[j].key))

    def gaps(self) -> None:
        items = sorted(self.m.pairs.items())
        backbone = [items[k] for k in longest_increasing([j for _, j in items])]
        bounds = [(-1, -1)] + backbone + [(len(self.old), len(self.new))]
        for (i0, j0), (i1, j1) in zip(bounds, bounds[1:]):
            if i1 - i0 > 1 and j1 - j0 > 1:
                self.align(list(range(i0 + 1, i1)), list(range(j0 + 1, j1)), "gap")

    def families(self) -> None:
        # Only rules still free can be aligned, and a family's align pairs only its own
        # children: so the children lists are built from the free rules alone, and only
        # the parents that have some are visited (in document order, as before).
        old_kids: dict[str, list[int]] = defaultdict(list)
        new_kids: dict[str, list[int]] = defaultdict(list)
        pairs = self.m.pairs
        for i, it in enumerate(self.old):
            if it.parent and i not in pairs:
                old_kids[it.parent].append(i)
        if not old_kids:
            return
        taken = self.new_taken
        for j, it in enumerate(self.new):
            if it.parent and j not in taken:
                new_kids[it.parent].append(j)
        if not new_kids:
            return
        for i in [i for i, it in enumerate(self.old) if it.id in old_kids]:  # parents come before their children
            j = pairs.get(i)
            if j is None:
                continue
            nk = [k for k in new_kids.get(self.new[j].id, ()) if k not in taken]
            if not nk:
                continue
            ok_ = [k for k in old_kids[self.old[i].id] if k not in pairs]
            if ok_:
                self.align(ok_, nk, "family")

    # -- 4. leftovers -------------------------------------------------------------------
    def leftovers(self) -> None:
        import numpy as np  # noqa: PLC0415 - lazy: a diff served from the match cache never matches (0.09 s import)

        olds = [i for i in range(len(self.old)) if self.free_old(i)]
        news = [j for j in range(len(self.new)) if self.free_new(j)]
        if not olds or not news:
            return
        mat = process.cdist([self.old[i].key for i in olds], [self.new[j].key for j in news],
                            scorer=fuzz.ratio, dtype=np.float32, score_cutoff=LEFTOVER_THRESHOLD,
                            workers=-1 if len(olds) * len(news) > 200_000 else 1)
        xs, ys = np.nonzero(mat >= LEFTOVER_THRESHOLD)
        order = sorted(zip(xs.tolist(), ys.tolist()), key=lambda p: (-float(mat[p]), p))
        for x, y in order:
            i, j = olds[x], news[y]
            if self.free_old(i) and self.free_new(j) and self.old[i].heading == self.new[j].heading:
                self.pair(i, j, float(mat[x, y]), "leftover")

    def run(self) -> Matching:
        self.anchors()
        self.gaps()
        self.families()
        self.leftovers()
        self.families()
        return self.m


def document_items(doc: Document) -> list[Item]:
    """The matcher's view of a document's rules."""
    return [_item(r.id, r.text, r.level == Level.RULE, r.parent) for r in doc.rules]


@lru_cache(maxsize=1 << 16)
def _item(rule_id: str, text: str, heading: bool, parent: str | None) -> Item:
    # Consecutive editions share nearly all their rules: history matches 109 pairs, and
    # each edition's items were built twice (as the new side, then the old) from scratch.
    # Items are immutable, so one made for an unchanged rule is simply handed out again.
    suffix = rule_id[len(parent):].lstrip(".") if parent and rule_id.startswith(parent) else rule_id
    return Item(rule_id, mask_refs(normalize(text)), heading, parent, suffix)


def match_pairs(old: Document, new: Document, old_items: list[Item] | None = None,
                new_items: list[Item] | None = None) -> dict[str, str]:
    """Old number -> new number for every rule of document ``old`` matched in ``new``
    (``old_items``/``new_items``: their :func:`document_items` when the caller has them)."""
    m = match_items(old_items if old_items is not None else document_items(old),
                    new_items if new_items is not None else document_items(new))
    return {old.rules[i].id: new.rules[j].id for i, j in sorted(m.pairs.items())}


def match_items(old: list[Item], new: list[Item]) -> Matching:
    """Pair the items of two editions (see the module docstring for the method)."""
    return _Matcher(old, new).run()

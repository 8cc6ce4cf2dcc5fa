"""Resolve a citation against the model edition and, with an archive, against history.

Statuses: ``ok``; ``missing`` (the number never existed in any edition); ``removed`` (it
existed until edition E and has no counterpart now); ``stale-renumbered`` (the citing text
matches what the number meant in an older edition; the rule's current number is
suggested, found through the diffs' renumbering map); ``wrong-topic`` (the citing text does
not match the rule; score and evidence); ``newer-than-model`` (the number exists only in
editions after the model's); ``outdated-quote`` (quoted text that now lives under another
number, or was reworded).
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz, process

from ..model import Document
from ..rulenum import RuleNumber
from .history import RuleHistory
from .scan import RawCitation
from .topic import TopicModel, words

STATUSES = ("ok", "missing", "removed", "stale-renumbered", "wrong-topic", "newer-than-model", "outdated-quote")

OK_SCORE = 0.3  # below: the context is not about this rule
MIN_WEIGHT = 6.0  # too few informative words to judge a topic (a bare "CR 601.2b")
STALE_SCORE = 0.5  # an older meaning that fits the context this well is what was meant
STALE_MARGIN = 0.3
WRONG_FIT = 0.6  # another rule must fit the citing text this well to call the topic wrong
QUOTE_SCORE = 90.0  # rapidfuzz partial_ratio: "this quote lives in that rule's text"
SAME_QUOTE = 97.0  # ratio against the text's start: "this quote is that rule's text, as worded now"


@dataclass(frozen=True)
class Resolution:
    status: str
    suggested: str | None
    evidence: str
    score: float | None = None
    numbering: str | None = None  # the editions whose numbering the citation follows


class Resolver:
    def __init__(self, doc: Document, history: RuleHistory | None = None):
        self.doc = doc
        self.history = history
        self.topic = TopicModel(doc)
        self.label = doc.meta.effective_date or ""
        self.model_pos = history.position(self.label) if history else None
        self._texts = [r.text for r in doc.rules]
        self._ids = [r.id for r in doc.rules]
        self._cache: dict[tuple, Resolution] = {}

    def resolve(self, c: RawCitation) -> Resolution:
        key = (c.cited, c.kind, c.context, c.quote, c.group, c.after)
        r = self._cache.get(key)
        if r is None:
            r = self._resolve(c)
            self._cache[key] = r
        return r

    # -- the decision ---------------------------------------------------------------------
    def _resolve(self, c: RawCitation) -> Resolution:
        n = RuleNumber.try_parse(c.cited)
        if n is None or not n.letter_valid:
            return Resolution("missing", None, f"{c.cited} is not a possible rule number (letters skip l and o)")
        rule = self.doc.rule(c.cited)
        if rule is None:
            return self._absent(c)
        if c.quote:
            return self._quoted(c, rule.text)
        ctx = words(c.context)
        cur = self.topic.score(ctx, self.topic.bag(c.cited))
        if c.kind == "bare" and c.after:
            # Prose cites either the clause before the number or the one after it.
            alt = self.topic.score(words(c.after), self.topic.bag(c.cited))
            if alt.weight >= MIN_WEIGHT and alt.value >= OK_SCORE / c.group / 2:
                return Resolution("ok", None, _ok_evidence(alt), alt.value, self._current())
            # The clause before the number stays the evidence for a stale or wrong topic:
            # a parenthesised number cites what precedes it.
        # Numbers in one list or range share one context: each needs only its share of it.
        # A bare number in prose cites a terse clause: half the score will do.
        need = OK_SCORE / c.group / (2 if c.kind == "bare" else 1)
        if cur.weight < MIN_WEIGHT or cur.value >= need:
            return Resolution("ok", None, _ok_evidence(cur), cur.value, self._current())
        old = self._older_meaning(c.cited, ctx, cur.value)
        if old:
            score, first, last, text = old
            suggested, how = self._suggest(c.cited, last, ctx)
            return Resolution(
                "stale-renumbered", suggested,
                f"matches what {c.cited} meant in {self.history.labels[first]}…{self.history.labels[last]} "
                f"(\"{_clip(text)}\"; words: {', '.join(score.matched)}); since {self.history.labels[last + 1]} "
                f"{c.cited} is \"{_clip(rule.text)}\"{how}", score.value,
                self._span_label(first, last))
        # Wrong topic only when another rule clearly explains the citing text: a comment
        # that fits no rule (a number given as an example, a terse note) is not evidence.
        other, fit = self.topic.best(ctx, c.cited)
        if other and _convincing(fit) and fit.value - cur.value >= STALE_MARGIN:
            return Resolution("wrong-topic", other,
                              f"score {cur.value:.2f}: {c.cited} is \"{_clip(rule.text)}\"; the citing text "
                              f"shares only ({', '.join(cur.matched) or 'nothing'}) and fits {other} "
                              f"({fit.value:.2f}: {', '.join(fit.matched)})", cur.value, self._current())
        return Resolution("ok", None, f"number exists; the text around it is weak evidence (score {cur.value:.2f}) "
                          "and fits no other rule better", cur.value, self._current())

    def _absent(self, c: RawCitation) -> Resolution:
        h = self.history
        if h is None:
            return Resolution("missing", self._best_rule(words(c.context), c.cited) if c.context else None,
                              f"{c.cited} is not in the {self.label} edition (no --editions to look further)")
        versions = h.versions(c.cited)
        before = [(i, t) for i, t in versions if i < self.model_pos]
        after = [(i, t) for i, t in versions if i > self.model_pos]
        if not versions:
            return Resolution("missing", None, f"{c.cited} exists in no edition from {h.labels[0]} to {h.labels[-1]}")
        if not before:
            first = h.labels[after[0][0]]
            return Resolution("newer-than-model", None,
                              f"{c.cited} first appears in {first}, after the model's {self.label}: "
                              f"\"{_clip(after[0][1])}\"", None, f"{first}…")
        last_pos, last_text = before[-1]
        ctx = words(c.quote or c.context)
        suggested = h.map_number(c.cited, last_pos, self.model_pos)
        old = self.topic.score(ctx, self.topic.bag(c.cited, last_text))
        if suggested:
            # The number is gone but the diffs follow its rule to a current number.
            fits = old.value >= STALE_SCORE or old.weight < MIN_WEIGHT
            return Resolution("stale-renumbered", suggested,
                              f"{c.cited} was \"{_clip(last_text)}\" until {h.labels[last_pos]}; "
                              f"it is {suggested} since {h.labels[last_pos + 1]}"
                              + ("" if fits else f" (the citing text fits that rule poorly: {old.value:.2f})"),
                              old.value, self._span_label(self._run_start(c.cited, last_pos), last_pos))
        return Resolution("removed", None,
                          f"{c.cited} existed until {h.labels[last_pos]} (\"{_clip(last_text)}\"); "
                          f"gone from {h.labels[last_pos + 1]} on; the diffs find no counterpart", old.value,
                          self._span_label(self._run_start(c.cited, last_pos), last_pos))

    def _quoted(self, c: RawCitation, current: str) -> Resolution:
        q = _typo(c.quote).rstrip(".…").strip()
        sim = _same_text(q, current)
        if sim >= SAME_QUOTE:
            return Resolution("ok", None, f"quote matches {c.cited} ({sim:.0f}%)", sim / 100, self._current())
        best = process.extractOne(q, self._texts, scorer=_contains, processor=_typo, score_cutoff=QUOTE_SCORE)
        if best is not None and self._ids[best[2]] != c.cited:
            now = self._ids[best[2]]
            return Resolution("outdated-quote", now,
                              f"the quoted text now lives under {now} ({best[1]:.0f}%); {c.cited} is "
                              f"\"{_clip(current)}\"", best[1] / 100, None)
        if self.history is not None:
            for i, text in reversed(self.history.versions(c.cited)):
                if i < self.model_pos:
                    s = _same_text(q, text)
                    if s >= SAME_QUOTE:
                        return Resolution("outdated-quote", c.cited,
                                          f"the quote is {c.cited} as worded until {self.history.labels[i]} "
                                          f"({s:.0f}%); reworded since {self.history.labels[i + 1]}: "
                                          f"\"{_clip(current)}\"", s / 100, self._span_label(self._run_start(c.cited, i), i))
        return Resolution("wrong-topic", None,
                          f"the quote matches no rule text ({sim:.0f}% against {c.cited}: \"{_clip(current)}\")",
                          sim / 100, self._current())

    # -- helpers ----------------------------------------------------------------------------
    def _older_meaning(self, number: str, ctx, current: float):
        """(score, first, last edition position, text) of the older meaning of ``number`` that
        fits ``ctx``: the latest run of editions whose text scores well enough, or None."""
        if self.history is None:
            return None
        need = max(STALE_SCORE, current + STALE_MARGIN)
        scored: dict[int, tuple] = {}
        memo: dict[str, object] = {}
        for i, text in self.history.versions(number):
            if i >= self.model_pos:
                break
            s = memo.get(text)
            if s is None:
                s = memo[text] = self.topic.score(ctx, self.topic.bag(number, text))
            scored[i] = (s, text)
        fits = [i for i, (s, _) in scored.items() if s.value >= need]
        if not fits:
            return None
        last = max(fits)
        first = last
        while first - 1 in scored and scored[first - 1][0].value >= need:
            first -= 1
        best = max((scored[i] for i in range(first, last + 1)), key=lambda st: st[0].value)
        return best[0], first, last, scored[last][1]

    def _suggest(self, number: str, last: int, ctx) -> tuple[str | None, str]:
        """The current number of what ``number`` meant in edition ``last``: the diffs' map,
        checked against the citing text; when the map has nothing better than the number
        itself, the current rule whose words best cover that old text (same rule first)."""
        mapped = self.history.map_number(number, last, self.model_pos)
        if mapped and mapped != number:
            s = self.topic.score(ctx, self.topic.bag(mapped))
            if s.value >= OK_SCORE:
                return mapped, ""
        old = words(self.history.tables[last].get(number, ""))
        best = self._successor(number, old)
        if best:
            via = f"; the diffs map it to {mapped}" if mapped else "; the diffs find no counterpart"
            return best, f"{via}, its old text now reads best as {best}"
        return mapped, ""

    def _successor(self, number: str, old) -> str | None:
        head = number.split(".")[0] + "."
        for pool, cutoff in (([i for i in self._ids if i.startswith(head)], 0.5), (self._ids, 0.6)):
            best, best_s = None, 0.0
            for rid in pool:
                if rid == number:
                    continue
                s = self.topic.score(old, self.topic.bag(rid)).value
                if s > best_s:
                    best, best_s = rid, s
            if best and best_s >= cutoff:
                return best
        return None

    def _best_rule(self, ctx, exclude: str) -> str | None:
        """The rule of the model whose words fit ``ctx`` best, if it fits well."""
        if not ctx:
            return None
        best, fit = self.topic.best(ctx, exclude)
        return best if _convincing(fit) else None

    def _current(self) -> str:
        return f"{self.label}" if self.history is None else self._span_label(self.model_pos, self.model_pos, current=True)

    def _run_start(self, number: str, last: int) -> int:
        """First edition of the run, ending at ``last``, where ``number`` kept the same words."""
        versions = dict(self.history.versions(number))
        target = words(versions[last])
        first = last
        while first - 1 in versions and words(versions[first - 1]) == target:
            first -= 1
        return first

    def _span_label(self, a: int, b: int, current: bool = False) -> str:
        h = self.history
        if current:
            return self.label
        return f"{h.labels[a]}…{h.labels[b]}"


def _convincing(fit) -> bool:
    """A fit that names a topic: a high share, carried by at least two informative words."""
    return fit.value >= WRONG_FIT and len(fit.matched) >= 2 and fit.hit_weight >= 2 * MIN_WEIGHT


def _ok_evidence(s) -> str:
    if s.weight < MIN_WEIGHT:
        return "number exists; too few words around it to check the topic"
    return f"topic matches (score {s.value:.2f}: {', '.join(s.matched)})"


def _typo(text: str) -> str:
    return text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')


def _contains(quote: str, text: str, **_) -> float:
    """How well ``text`` holds ``quote``; a text much shorter than the quote (a heading such
    as "Haunt") can't hold it, whatever partial_ratio says."""
    if len(text) < 0.8 * len(quote):
        return fuzz.ratio(quote, text)
    return fuzz.partial_ratio(quote, text)


def _same_text(quote: str, text: str) -> float:
    """How exactly ``quote`` reproduces ``text`` (or its beginning, for a truncated quote)."""
    t = _typo(text)
    return fuzz.ratio(quote, t[: len(quote)] if len(quote) < len(t) else t)


def _clip(text: str, n: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"

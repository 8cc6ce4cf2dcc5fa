"""Resolve a citation against the model edition and, with an archive, against history.

Statuses: ``ok``; ``missing`` (the number never existed in any edition); ``removed`` (it
existed until edition E and has no counterpart now); ``stale-renumbered`` (the citing text
matches what the number meant in an older edition; the rule's current number is
suggested); ``wrong-topic`` (the citing text names another rule: suggested, with why);
``newer-than-model`` (the number exists only in editions after the model's);
``outdated-quote`` (rule wording written with the number that is not today's wording of it:
the edition it comes from, and where that wording lives now).

Evidence is weighed by strength (:mod:`pipeline.audit.evidence`):

1. rule wording quoted after the number, against that number's text in every edition;
2. a title, keyword, keyword action or ability word named in the citing text, against the
   titles the number's headings had in every edition (then and now), and the rule that holds
   the named title today;
3. a date in the citing text, or the numbering of the comment block it sits in (a block that
   quotes the 2013 rules cites in 2013 numbers): the number's text in that edition, and
   where that text lives now;
4. topic words (weak): can show what an old number meant, never that a citation is wrong.

``wrong-topic`` needs strong evidence: a keyword or ability word that the number's headings
never had, in a keyword rule (``702.90a: … exalted``: 702.90 was Battle Cry and is Infect).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from rapidfuzz import fuzz, process

from ..model import Document
from ..rulenum import RuleNumber
from . import evidence as ev
from .history import RuleHistory
from .scan import CitationForm, RawCitation
from .topic import TopicModel, words

class CitationStatus(StrEnum):
    """What the audit concludes of a citation (a SARIF rule id, apart from OK)."""

    OK = "ok"
    MISSING = "missing"
    REMOVED = "removed"
    STALE_RENUMBERED = "stale-renumbered"
    WRONG_TOPIC = "wrong-topic"
    NEWER_THAN_MODEL = "newer-than-model"
    OUTDATED_QUOTE = "outdated-quote"


class Basis(StrEnum):
    """What decided a resolution."""

    QUOTE = "quote"
    TITLE = "title"
    DATE = "date"
    BLOCK = "block"  # the numbering of the comment block's quoted rules
    TOPIC = "topic"
    NUMBER = "number"
    SCOPE = "scope"  # the enclosing function's or class's name


STATUSES = tuple(CitationStatus)

OK_SCORE = 0.3  # below: the context is not about this rule
MIN_WEIGHT = 6.0  # too few informative words to judge a topic (a bare "CR 601.2b")
STALE_SCORE = 0.5  # an older meaning that fits the context this well is what was meant
STALE_MARGIN = 0.3
WRONG_FIT = 0.6  # another rule must fit the citing text this well to be suggested for a missing number
QUOTE_SCORE = 90.0  # rapidfuzz partial_ratio: "this quote lives in that rule's text"
SAME_QUOTE = 97.0  # ratio against the text's start: "this quote is that rule's text, as worded now"
SAME_RULE = 80.0  # token_set_ratio: "this is the same rule, perhaps reworded"
MOVED_RULE = 77.0  # _pair_score: "this current rule is where that old text went"
SIBLING = 65.0  # _pair_score within the same keyword: "reworded, same rule"
OLD_WORDING = 3.0  # an older edition's wording must reproduce the quote this much better than today's
CACHE_SIZE = 50_000  # resolutions kept (same number, same words: same answer)


@dataclass(frozen=True)
class Resolution:
    status: CitationStatus
    suggested: str | None
    evidence: str
    score: float | None = None
    numbering: str | None = None  # the editions whose numbering the citation follows
    basis: Basis = Basis.NUMBER
    span: tuple[str, str] | None = None  # first and last edition of that numbering


class Resolver:
    def __init__(self, doc: Document, history: RuleHistory | None = None):
        self.doc = doc
        self.history = history
        self.topic = TopicModel(doc)
        self.label = doc.meta.effective_date or ""
        self.model_pos = history.position(self.label) if history else None
        self._texts = [r.text for r in doc.rules]
        self._ids = [r.id for r in doc.rules]
        self.table = {r.id: r.text for r in doc.rules}
        self._norm = [ev.norm(t) for t in self._texts]
        # Titles then: every edition before the model's (the older scheme too); now: the model.
        eds = (history.old + list(zip(history.labels[: self.model_pos], history.tables[: self.model_pos]))
               if history else [])
        self.titles = ev.Titles(eds, self.table)
        self._cache: dict[tuple, Resolution] = {}

    def resolve(self, c: RawCitation, numbering: str | None = None) -> Resolution:
        """The citation's status; ``numbering``: the edition its comment block is written in."""
        key = (c.cited, c.kind, c.context, c.quote, c.group, c.after, c.tail, c.scope, numbering)
        r = self._cache.get(key)
        if r is None:
            r = self._resolve(c, numbering)
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()  # bounded: a tree of distinct comments must not grow it without end
            self._cache[key] = r
        return r

    # -- the decision ---------------------------------------------------------------------
    def _resolve(self, c: RawCitation, numbering: str | None) -> Resolution:
        n = RuleNumber.try_parse(c.cited)
        if n is None or not n.letter_valid:
            return Resolution(CitationStatus.MISSING, None, f"{c.cited} is not a possible rule number (letters skip l and o)")
        q = self._quoted(c)
        if q is not None:
            return q
        t = self._by_title(c)
        if t is None and c.scope and not (c.context and self.titles.named(c.context)):
            t = self._by_scope(c)
        if t is not None:
            return t
        date = ev.find_date(c.context)
        if date and self.history is not None:
            lab_tab = self.history.in_force(date)
            if lab_tab:
                r = self._by_numbering(c.cited, lab_tab[0], lab_tab[1], f"dated {date}", Basis.DATE)
                if r is not None:
                    return r
        if numbering and self.history is not None:
            tab = self.history.table_of(numbering)
            if tab is not None:
                r = self._by_numbering(c.cited, numbering, tab, f"its comment block quotes the {numbering} rules",
                                       Basis.BLOCK)
                if r is not None:
                    return r
        rule = self.doc.rule(c.cited)
        if rule is None:
            return self._absent(c)
        return self._by_topic(c, rule)

    def _by_topic(self, c: RawCitation, rule) -> Resolution:
        ctx = words(c.context)
        cur = self.topic.score(ctx, self.topic.bag(c.cited))
        if c.kind == CitationForm.BARE and c.after:
            # Prose cites either the clause before the number or the one after it.
            alt = self.topic.score(words(c.after), self.topic.bag(c.cited))
            if alt.weight >= MIN_WEIGHT and alt.value >= OK_SCORE / c.group / 2:
                return Resolution(CitationStatus.OK, None, _ok_evidence(alt), alt.value, self._current(), Basis.TOPIC)
        # Numbers in one list or range share one context: each needs only its share of it.
        # A bare number in prose cites a terse clause: half the score will do.
        need = OK_SCORE / c.group / (2 if c.kind in (CitationForm.BARE, CitationForm.LITERAL) else 1)
        if cur.weight < MIN_WEIGHT or cur.value >= need:
            return Resolution(CitationStatus.OK, None, _ok_evidence(cur), cur.value, self._current(), Basis.TOPIC)
        old = self._older_meaning(c.cited, ctx, cur.value) if c.group == 1 else None
        if old:
            score, first, last, text = old
            suggested, how = self._suggest(c.cited, last, ctx)
            return Resolution(
                CitationStatus.STALE_RENUMBERED, suggested,
                f"the words around it fit what {c.cited} meant in {self.history.labels[first]}…"
                f"{self.history.labels[last]} (\"{_clip(text)}\"; shared words: {', '.join(score.matched)}), "
                f"not what it says since {self.history.labels[last + 1]} (\"{_clip(rule.text)}\"){how}",
                score.value, self._span_label(first, last), Basis.TOPIC,
                (self.history.labels[first], self.history.labels[last]))
        # Words alone never make a citation wrong: a terse note or an example fits no rule.
        return Resolution(CitationStatus.OK, None, f"number exists; the words around it are weak evidence (score {cur.value:.2f})",
                          cur.value, self._current(), Basis.TOPIC)

    # -- 1. quoted rule wording -------------------------------------------------------------
    def _quoted(self, c: RawCitation) -> Resolution | None:
        q = (c.quote or c.tail or "").strip()
        # Rule wording written after a bare number ("702.53a Haunt is …") or in quotation
        # marks is a quote; after "CR 117.3a:" it is the author's own words, which may still
        # repeat what the number once said.
        quoted = c.quote is not None or c.kind == CitationForm.BARE or q[:1] in "\"'“‘"
        q = q.strip(" \"'“”‘’")
        if len(q.split()) < 3:
            return None
        cur = self.table.get(c.cited)
        s_now = ev.quote_score(q, cur) if cur else 0.0
        if s_now >= SAME_QUOTE:
            return Resolution(CitationStatus.OK, None, f"the words after it are {c.cited} as worded now ({s_now:.0f}%)",
                              s_now / 100, self._current(), Basis.QUOTE)
        # Every edition's wording of the number is compared and the best-matching one decides:
        # an old wording quoted verbatim is outdated even when today's is close (93 % for the
        # pre-2021 202.3e, "converted mana cost" for "mana value").
        older = self._quote_editions(c.cited, q)
        if s_now >= QUOTE_SCORE and not c.quote and not (older and older[3] >= s_now + OLD_WORDING):
            return Resolution(CitationStatus.OK, None, f"the words after it are {c.cited} as worded now ({s_now:.0f}%)",
                              s_now / 100, self._current(), Basis.QUOTE)
        if older:
            first, last, text, score = older
            if s_now >= score:
                return Resolution(CitationStatus.OK, None, f"the words after it are {c.cited} as worded now ({s_now:.0f}%)",
                                  s_now / 100, self._current(), Basis.QUOTE)
            succ = self._where_now(c.cited, last, text)
            span = f"{first}…{last}" if first != last else last
            home = self._heading_now(c.cited, last)
            if succ is None and home and quoted:
                return Resolution(CitationStatus.OUTDATED_QUOTE, home,
                                  f"the quote is {c.cited} as worded in {span} (\"{_clip(text)}\"); that wording "
                                  f"is gone from {self.table[home]!r}, {home} today", score / 100, span, Basis.QUOTE,
                                  (first, last))
            if succ is None:
                return Resolution(CitationStatus.REMOVED, None,
                                  f"the words after it are {c.cited} as worded in {span} (\"{_clip(text)}\"); "
                                  f"no rule says this now", score / 100, span, Basis.QUOTE, (first, last))
            now = self.table[succ]
            if succ == c.cited:
                if not quoted:
                    return None
                how = f"reworded since: {ev.diff_window(q, now)}"
            else:
                how = f"that rule is {succ} now (\"{_clip(now)}\")"
                if cur:
                    how += f"; {c.cited} is \"{_clip(cur)}\""
            status = CitationStatus.OUTDATED_QUOTE if quoted else CitationStatus.STALE_RENUMBERED
            what = "the quote is" if quoted else "the words after it are"
            return Resolution(status, succ, f"{what} {c.cited} as worded in {span}; {how}",
                              score / 100, span, Basis.QUOTE, (first, last))
        if c.quote:  # a number at the start of a line with rule-like words: maybe moved
            best = process.extractOne(q, self._texts, scorer=_contains, processor=_typo, score_cutoff=QUOTE_SCORE)
            if best is not None and self._ids[best[2]] != c.cited:
                now = self._ids[best[2]]
                return Resolution(CitationStatus.OUTDATED_QUOTE, now,
                                  f"the quoted words live under {now} now ({best[1]:.0f}%)"
                                  + (f"; {c.cited} is \"{_clip(cur)}\"" if cur else ""), best[1] / 100, None, Basis.QUOTE)
        return None

    def _quote_editions(self, number: str, q: str):
        """(first, last label, text, score) of the latest run of editions whose text of
        ``number`` the quote reproduces, or None."""
        h = self.history
        if h is None:
            return None
        runs: list[list] = []
        seq = [(lab, t) for lab, t in h.old_versions(number)] + \
              [(h.labels[i], t) for i, t in h.versions(number) if i < self.model_pos]
        memo: dict[str, float] = {}
        prev = None
        for lab, t in seq:
            if ev.is_heading(number, t):
                prev = None
                continue  # a title is named, not quoted (see _by_title)
            key = ev.norm(t)  # typography changes (straight/curly quotes) are one wording
            s = memo.get(key)
            if s is None:
                s = memo[key] = ev.quote_score(q, t)
            if s >= ev.QUOTE_MATCH:
                if runs and prev == key:
                    runs[-1][1] = lab
                else:
                    runs.append([lab, lab, t, s])
                prev = key
            else:
                prev = None
        if not runs:
            return None
        best = max(runs, key=lambda r: (r[3], r[1]))
        return tuple(best)

    # -- 2. titles named ------------------------------------------------------------------
    def _by_title(self, c: RawCitation) -> Resolution | None:
        named = self.titles.named(c.context)
        if not named:
            return None
        T = self.titles
        fam_now = T.now_family(c.cited) if c.cited in self.table or "." in c.cited else []
        now_titles = {t for _, t in fam_now}
        for nm in named:
            if nm.title in now_titles:
                head = next(h for h, t in fam_now if t == nm.title)
                if c.cited not in self.table:
                    # The right rule, but a subrule it does not have.
                    gone = self.history is not None and bool(self.history.versions(c.cited))
                    return Resolution(CitationStatus.REMOVED if gone else CitationStatus.MISSING, head,
                                      f"names {T.show(nm.title)!r}, which is {head}, but {head} has no {c.cited}"
                                      + (" now (the number meant something else before)" if gone else ""),
                                      None, None, Basis.TITLE)
                return Resolution(CitationStatus.OK, None, f"names {T.show(nm.title)!r}, the title of {head} now",
                                  1.0, self._current(), Basis.TITLE)
        held = T.held(c.cited)
        for nm in named:
            r = self._title_stale(c, nm, held, fam_now)
            if r is not None:
                return r
        return self._keyword_confusion(c, named, held, fam_now)

    def _title_stale(self, c: RawCitation, nm, held, fam_now) -> Resolution | None:
        """Stale-renumbered when the number's headings had the named title in older editions
        (and not now), with the number that title's rule has today."""
        T = self.titles
        eds = held.get(nm.title)
        if not eds or nm.title in {t for _, t in fam_now}:
            return None
        holder = T.holder(nm.title, c.cited)
        if holder is None:
            return None
        then = next((h for h, t in ev.family(c.cited, self.history.table_of(eds[-1]) or {})
                     if ev.words(t) == nm.title), c.cited)
        succ = self._title_successor(c.cited, then, holder, eds[-1])
        head_now = next((h for h, _ in fam_now if h == then), None)
        now = (f"{then} is {self.table[then]!r}" if head_now else
               f"{then} does not exist" if then not in self.table else f"{then} is {self.table[then]!r}")
        span = f"{eds[0]}…{eds[-1]}" if eds[0] != eds[-1] else eds[-1]
        return Resolution(CitationStatus.STALE_RENUMBERED, succ,
                          f"names {T.show(nm.title)!r}: {then} had that title in {span}; since "
                          f"{self._next_label(eds[-1])} {now}, and {T.show(nm.title)!r} is {holder}",
                          1.0, span, Basis.TITLE, (eds[0], eds[-1]))

    def _by_scope(self, c: RawCitation) -> Resolution | None:
        """A keyword named by the class, function or file the citation sits in (``Persist.java``,
        ``test_persist_returns``), when its own words name none: the number is ok when that is
        its title now, stale when its headings had that title before.  A scope is weaker than
        the citing words, so it never makes a citation wrong-topic (a class cites other rules)."""
        T = self.titles
        fam_now = T.now_family(c.cited) if c.cited in self.table or "." in c.cited else []
        now_titles = {t for _, t in fam_now}
        held = T.held(c.cited)
        for part in c.scope.split("\n"):
            named = [nm for nm in T.named(part) if T.is_keyword(nm.title) or (T.now.get(nm.title) or "").startswith("701.")]
            if not named:
                continue
            for nm in named:
                if nm.title in now_titles and c.cited in self.table:
                    head = next(h for h, t in fam_now if t == nm.title)
                    return Resolution(CitationStatus.OK, None, f"sits in {part!r}, which names {T.show(nm.title)!r}, the title of "
                                      f"{head} now", 1.0, self._current(), Basis.SCOPE)
            for nm in named:
                if nm.title in held:
                    r = self._title_stale(c, nm, held, fam_now)
                    if r is not None:
                        return replace(r, evidence=f"sits in {part!r}, which " + r.evidence, basis=Basis.SCOPE)
        return None

    def _keyword_confusion(self, c, named, held, fam_now) -> Resolution | None:
        T = self.titles
        if not c.cited.startswith("702.") or not fam_now or "." not in fam_now[0][0]:
            return None
        if any(nm.title in held or nm.title in {t for _, t in fam_now} for nm in named):
            return None
        # A name another cited number stands for is that number's, not a confusion.
        others = [x for x in ev.number_positions(c.context) if x != c.cited]
        theirs = {t for x in others for t in list(T.held(x)) + [t for _, t in T.now_family(x)]}
        kws = [nm for nm in named if T.is_keyword(nm.title) and nm.title not in theirs]
        if not kws:
            return None
        # Pair numbers and names in the order written: "702.65a & 702.46a: Skulk … bushido".
        mine = [x for x in ev.number_positions(c.context) if x.startswith("702.")
                and not any(nm.title in T.held(x) for nm in named)]
        i = mine.index(c.cited) if c.cited in mine else 0
        nm = kws[min(i, len(kws) - 1)]
        holder = T.holder(nm.title, c.cited)
        if holder is None:
            return None
        sug = holder + ev.suffix(c.cited, fam_now[0][0]) if holder != "207.2c" else holder
        if sug not in self.table:
            sug = holder
        was = sorted({T.show(t) for t, eds in held.items() if len(t) and T.is_keyword(t)} - {T.show(fam_now[0][1])})
        return Resolution(CitationStatus.WRONG_TOPIC, sug,
                          f"names {T.show(nm.title)!r}, which is {holder}; {fam_now[0][0]} is "
                          f"{self.table[fam_now[0][0]]!r}" + (f" (earlier {', '.join(was)})" if was else "")
                          + f", never {T.show(nm.title)!r}", 0.0, self._current(), Basis.TITLE)

    def _heading_now(self, number: str, label: str) -> str | None:
        """The current number of the titled heading ``number`` was under in ``label``."""
        table = self.history.table_of(label) or {}
        for head, title in ev.family(number, table):
            if "." in head and head != number:
                return self.titles.holder(ev.words(title), number)
        return None

    def _next_label(self, label: str) -> str:
        """The edition after ``label`` (the first one where a change shows)."""
        h = self.history
        if label in h.labels:
            return h.labels[h.labels.index(label) + 1]
        return h.labels[0]  # the last old-scheme edition: the 2009 renumbering came next

    def _title_successor(self, number: str, then: str, holder: str, last_label: str) -> str:
        """The current number of ``number``, under the heading ``then`` in ``last_label`` whose
        title ``holder`` holds now: the diffs' map when it lands under ``holder``, else
        ``holder`` with the same suffix (702.34a under Madness 702.34 -> 702.35a)."""
        h = self.history
        if last_label in h.labels:
            m = h.map_number(number, h.labels.index(last_label), self.model_pos)
            if m and m in self.table and (m == holder or m.startswith(holder + ".")
                                          or (m.startswith(holder) and m[len(holder):].isalpha())):
                return m
        cand = holder + number[len(then):]
        return cand if cand in self.table else holder

    # -- 3. a known numbering (a date, the comment block) ---------------------------------------
    def _by_numbering(self, number: str, label: str, table: dict[str, str], why: str, basis: Basis):
        then = table.get(number)
        if then is None:
            return None
        cur = self.table.get(number)
        if cur is not None and _same_rule(then, cur):
            return Resolution(CitationStatus.OK, None, f"{why}: {number} then was \"{_clip(then)}\", as now", 1.0,
                              self._current(), basis)
        succ = self._where_now(number, label, then)
        if succ is None or succ == number:
            return None
        return Resolution(CitationStatus.STALE_RENUMBERED, succ,
                          f"{why}: {number} then was \"{_clip(then)}\""
                          + (f"; now {number} is \"{_clip(cur)}\"" if cur else f"; {number} is gone")
                          + f", and that rule is {succ}", 1.0, label, basis, (label, label))

    def _where_now(self, number: str, label: str, text: str) -> str | None:
        """Where the rule ``number`` of edition ``label`` (text ``text``) is now.

        A heading: the rule holding that title.  A subrule under a titled heading (a keyword):
        the subrule of the heading holding that title now whose text is close (none: gone).  Otherwise the diffs' map when the texts agree, else the current rule
        of the same part whose text is closest."""
        h = self.history
        if ev.is_heading(number, text) and len(text.split()) <= 6:
            holder = self.titles.holder(ev.words(text), number)
            if holder:
                return holder
        table = h.table_of(label) if h else None
        for head, title in ev.family(number, table or {}):
            if head == number or "." not in head:
                continue
            holder = self.titles.holder(ev.words(title), number)
            if holder and "." in holder:
                kids = [i for i, rid in enumerate(self._ids) if rid.startswith(holder) and rid[len(holder):].isalpha()]
                best = _closest(ev.norm(text), [self._norm[i] for i in kids], SIBLING)
                return self._ids[kids[best]] if best is not None else None
        if h is not None and label in h.labels:
            m = h.map_number(number, h.labels.index(label), self.model_pos)
            if m and m in self.table and fuzz.token_set_ratio(ev.norm(text), ev.norm(self.table[m])) >= 70:
                return m
        head = number.split(".")[0]
        pool = [i for i, rid in enumerate(self._ids) if rid.split(".")[0] == head]
        cutoff = MOVED_RULE
        if not pool:  # an old-scheme number (409.1b): anywhere, but only a close text
            pool, cutoff = list(range(len(self._ids))), 80.0
        best = _closest(ev.norm(text), [self._norm[i] for i in pool], cutoff)
        return self._ids[pool[best]] if best is not None else None

    # -- absent numbers ---------------------------------------------------------------------
    def _absent(self, c: RawCitation) -> Resolution:
        h = self.history
        if h is None:
            return Resolution(CitationStatus.MISSING, self._best_rule(words(c.context), c.cited) if c.context else None,
                              f"{c.cited} is not in the {self.label} edition (no --editions to look further)")
        versions = h.versions(c.cited)
        before = [(i, t) for i, t in versions if i < self.model_pos]
        after = [(i, t) for i, t in versions if i > self.model_pos]
        if not versions:
            old = h.old_versions(c.cited)
            if old:
                lab, text = old[-1]
                succ = self._where_now(c.cited, lab, text)
                return Resolution(CitationStatus.STALE_RENUMBERED, succ,
                                  f"{c.cited} is a number of the rules before the 2009 renumbering (last in "
                                  f"{lab}: \"{_clip(text)}\")"
                                  + (f"; that rule is {succ} now" if succ else
                                     "; nothing in the citing text says which rule it is now"),
                                  None, lab, Basis.NUMBER, (old[0][0], lab))
            return Resolution(CitationStatus.MISSING, None, f"{c.cited} exists in no edition from {h.labels[0]} to {h.labels[-1]}")
        if not before:
            first = h.labels[after[0][0]]
            return Resolution(CitationStatus.NEWER_THAN_MODEL, None,
                              f"{c.cited} first appears in {first}, after the model's {self.label}: "
                              f"\"{_clip(after[0][1])}\"", None, f"{first}…")
        last_pos, last_text = before[-1]
        ctx = words(c.quote or c.context)
        suggested = self._where_now(c.cited, h.labels[last_pos], last_text)
        old = self.topic.score(ctx, self.topic.bag(c.cited, last_text))
        start = self._run_start(c.cited, last_pos)
        if suggested:
            # The number is gone but its rule lives on under another number.
            fits = old.value >= STALE_SCORE or old.weight < MIN_WEIGHT
            return Resolution(CitationStatus.STALE_RENUMBERED, suggested,
                              f"{c.cited} was \"{_clip(last_text)}\" until {h.labels[last_pos]}; "
                              f"that rule is {suggested} since {h.labels[last_pos + 1]}"
                              + ("" if fits else f" (the citing text fits that rule poorly: {old.value:.2f})"),
                              old.value, self._span_label(start, last_pos), Basis.NUMBER,
                              (h.labels[start], h.labels[last_pos]))
        return Resolution(CitationStatus.REMOVED, None,
                          f"{c.cited} existed until {h.labels[last_pos]} (\"{_clip(last_text)}\"); "
                          f"gone from {h.labels[last_pos + 1]} on; no rule holds it now", old.value,
                          self._span_label(start, last_pos), Basis.NUMBER, (h.labels[start], h.labels[last_pos]))

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


def _same_rule(a: str, b: str, cutoff: float = SAME_RULE) -> bool:
    """Two texts of one rule (perhaps reworded); two titles only when they are the same title."""
    if len(a.split()) <= 6 and not a.rstrip().endswith((".", ":")):  # a title
        return ev.words(a) == ev.words(b)
    na, nb = ev.norm(a), ev.norm(b)
    return fuzz.token_set_ratio(na, nb) >= cutoff and fuzz.ratio(na, nb) >= cutoff - 25


def _pair_score(a: str, b: str, **_) -> float:
    """Closeness of two rule texts: shared words (token set) and order (plain ratio) alike, so
    neither a long rule containing the words nor a reworded short one wins alone."""
    return (fuzz.token_set_ratio(a, b) + fuzz.ratio(a, b)) / 2


def _closest(text: str, pool: list[str], cutoff: float = MOVED_RULE) -> int | None:
    """Index of the normalised text in ``pool`` closest to normalised ``text``, if close."""
    if not pool or not text:
        return None
    best = process.extractOne(text, pool, scorer=_pair_score, score_cutoff=cutoff)
    return best[2] if best is not None else None


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

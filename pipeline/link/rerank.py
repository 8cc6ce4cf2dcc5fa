"""The learned re-ranker: candidates from several views, ordered by a LightGBM lambdarank model.

Stage one (``Linker._views``) scores every candidate rule in each view: BM25 over the rule's
text read under its headings, over its best sentence and its best example; glossary
definitions mapped to the rules they cite; keyword / keyword-action / heading / glossary
names found in the ruling (and, apart, in the card's own text); the card's context (its
text and its other rulings) and the three-digit rules it lands in; the card's layout;
rule numbers written in the ruling; fuzzy sentence similarity; the hand-weighted sum of all
these (the linker as it was before it learned).

Stage two pools the best candidates of each view, the parents and children of the best
ones and their neighbours in the citation graph, describes each by the features below and
orders them by a model trained on labelled rulings of six sets plus the rules' own examples
(``python -m pipeline.link.train``; the model ships in ``pipeline/data/link-ranker.txt``, so
linking never trains).  Whether a general rule beats a specific one is the model's call,
learned from the labels (the candidate's depth, descendants and its parent's and children's
scores are features), not a fixed preference.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..io import read_bounded_text
from ..model import RankerModel
from .index import STATIC_FEATURES
from .results import Candidate, Evidence, EvidenceKind

MODEL_PATH = Path(__file__).resolve().parents[1] / "data" / "link-ranker.txt"
#: How the model's scores of a first answer become a calibrated confidence (``pipeline.link.loso``).
CALIBRATION_PATH = MODEL_PATH.with_name("link-calibration.json")
#: The same ranker trained with the semantic view's features too (``--semantic``).
SEMANTIC_MODEL_PATH = MODEL_PATH.with_name("link-ranker-semantic.txt")
SEMANTIC_CALIBRATION_PATH = MODEL_PATH.with_name("link-calibration-semantic.json")
#: The shipped rankers learn from every labelled ruling (train and test split): the out-of-set
#: learning curve says labels are what a new set's linking gains most from (README).  The same
#: recipe trained on the train split alone is kept beside them to *measure* by: the test split's
#: figures (``crpipe link-eval``) are that model's, which never saw those rulings.
TRAIN_SPLIT = "-train-split"


def train_split_path(path: Path) -> Path:
    """The train-split twin of a shipped model or calibration file."""
    return path.with_name(path.stem + TRAIN_SPLIT + path.suffix)


def calibration_path(model: Path) -> Path:
    """The calibration fitted for a model file (link-ranker[-semantic][-train-split].txt →
    link-calibration[-semantic][-train-split].json)."""
    return model.with_name(model.stem.replace("link-ranker", "link-calibration", 1) + ".json")


#: Signals (``Views.signals``) that become features, in order.
SIGNALS = ("keyword", "topic", "glossary", "definition", "layout", "reference", "card_keyword", "card_topic",
           "card_glossary")

#: What the labelled-ruling memory says around a candidate (``Neighbours.around``): the votes of
#: the most similar labelled rulings for it, for its family (a numbered rule and its lettered
#: subrules: 608.2 with 608.2a-n) and its three-digit rule, and the best similarity of a labelled
#: ruling in its family and three-digit rule.  A ruling worded like rulings labelled 608.2h or 608.2c points at 608.2's family even
#: when no single neighbour names the rule; measured by leave-one-set-out CV (README).
NEIGHBOURHOOD = ("neighbour_vote", "neighbour_family", "neighbour_section", "neighbour_section_vote",
                 "neighbour_family_vote")

FEATURES = (
    "hand_score", "hand_gap", "hand_rank", "text", "text_gap", "whole", "best_sentence", "best_example",
    "text_rank", "context", "context_topic", "has_context", *SIGNALS, "fuzzy", "parent_text", "children_text",
    "cites_text", "cited_by_text", "is_parent_of_best", "is_child_of_best", *STATIC_FEATURES, "query_lemmas", "rule_prior", "root_prior", "neighbour", "neighbour_gap",
    *NEIGHBOURHOOD,
)

#: Appended when the semantic view runs (the optional extra).
SEMANTIC_FEATURES = FEATURES + ("semantic", "semantic_gap", "semantic_example", "semantic_children", "semantic_rank")

#: How a person reads each feature in an explanation.
LABELS = {
    "hand_score": "all views summed", "hand_gap": "all views summed (vs best)", "hand_rank": "rank by all views",
    "text": "rule text (BM25)", "text_gap": "rule text (vs best)", "whole": "rule text and headings (BM25)",
    "best_sentence": "best rule sentence (BM25)", "best_example": "best example (BM25)", "text_rank": "rank by text",
    "context": "card's text and rulings", "context_topic": "card's topic (three-digit rule)",
    "has_context": "card context known", "keyword": "keyword named", "topic": "heading topic named",
    "glossary": "glossary term named", "definition": "glossary definition", "layout": "card layout",
    "reference": "rule number named", "card_keyword": "keyword on the card", "card_topic": "heading topic on the card",
    "card_glossary": "glossary term on the card", "fuzzy": "similar sentence", "parent_text": "parent rule's text",
    "children_text": "subrules' text", "cites_text": "rules it cites", "cited_by_text": "rules citing it",
    "is_parent_of_best": "parent of the best text match", "is_child_of_best": "subrule of the best text match",
    "depth": "depth", "descendants": "subrules under it", "section": "section", "keyword_rule": "keyword rule (701/702)",
    "letter": "letter", "first_letter": "first lettered subrule", "length": "rule length",
    "query_lemmas": "ruling length", "cited_by": "rules citing it (count)",
    "rule_prior": "how often it governs labelled rulings",
    "neighbour": "similar labelled ruling", "neighbour_gap": "similar labelled ruling (vs best)",
    "semantic": "sentence embedding", "semantic_gap": "sentence embedding (vs best)",
    "semantic_example": "sentence embedding of an example", "semantic_children": "sentence embedding of a subrule",
    "semantic_rank": "rank by sentence embedding", "root_prior": "how often its section governs",
    "neighbour_vote": "similar labelled rulings (votes)", "neighbour_family": "similar labelled ruling in its family",
    "neighbour_section": "similar labelled ruling under its three-digit rule",
    "neighbour_section_vote": "similar labelled rulings under its three-digit rule (votes)",
    "neighbour_family_vote": "similar labelled rulings in its family (votes)",
}

#: How many of each view's best candidates enter the pool.
POOL = {"hand": 40, "whole": 10, "best_sentence": 10, "best_example": 8, "context": 8, "neighbours": 6,
        "semantic": 10}
CHUNK = 64  # rulings scored per model call (bounded memory: views are dense over all rules)


class RankerUnavailable(RuntimeError):
    pass


@dataclass
class Prior:
    """How often each rule (and each three-digit rule) governs the training rulings: a
    ruling paraphrasing a general rule (608.2h, 603.3) is found through it, not its words."""

    rule: np.ndarray  # per candidate row
    root: np.ndarray
    rows: np.ndarray  # the most frequent rules: always in the pool

    @classmethod
    def from_counts(cls, ix, counts: dict, n_queries: int, k: int = 25) -> "Prior":
        rule = np.zeros(len(ix.ids))
        root_c: dict[str, float] = {}
        for rid, c in counts.items():
            root_c[rid.split(".")[0]] = root_c.get(rid.split(".")[0], 0.0) + c
            if rid in ix.pos:
                rule[ix.pos[rid]] += c
        root = np.array([root_c.get(rid.split(".")[0], 0.0) for rid in ix.ids])
        n = max(n_queries, 1)
        rows = np.lexsort((np.arange(len(rule)), -rule))[:k]
        return cls(rule / n, root / n, rows[rule[rows] > 0])

    @classmethod
    def empty(cls, ix) -> "Prior":
        return cls(np.zeros(len(ix.ids)), np.zeros(len(ix.ids)), np.empty(0, dtype=np.int64))


def label_counts(items) -> dict[str, float]:
    """Primary rules count 1, acceptable ones 0.5 (the prior's evidence)."""
    out: dict[str, float] = {}
    for primary, acceptable in items:
        out[primary] = out.get(primary, 0.0) + 1.0
        for a in acceptable:
            out[a] = out.get(a, 0.0) + 0.5
    return out


class Neighbours:
    """The labelled training rulings as a memory: a ruling worded like one labelled 608.2h
    ("as it last existed on the battlefield") points to 608.2h even when the rule's own
    words differ.  BM25 over the memory in the rule index's vocabulary and idf."""

    def __init__(self, linker, items: list[dict]):
        from .index import _bm25  # deferred: only the neighbour view needs the BM25 helper
        from .text import with_bigrams  # deferred: as above

        ix = linker.ix
        self.items = items
        queries = linker._queries([x["text"] for x in items], None, [x.get("card") for x in items], None)
        docs = [[t for t in with_bigrams(q.lemmas) if t in ix.vocab] for q, _ in queries]
        m, _ = _bm25(docs, ix.vocab, 1.2, 0.75, idf=ix.idf) if docs else (None, None)
        self.matrix = m.tocsc() if m is not None else None
        rows, owners, weights = [], [], []
        for j, x in enumerate(items):
            for rid, w in [(x["primary"], 1.0)] + [(a, 0.5) for a in x.get("acceptable", [])]:
                if rid in ix.pos:
                    rows.append(ix.pos[rid]), owners.append(j), weights.append(w)
        self.rows = np.array(rows, dtype=np.int64)
        self.owner = np.array(owners, dtype=np.int64)
        self.weight = np.array(weights)
        self.n = len(ix.ids)
        # Each candidate's family (its parent's row; a rule without a parent row, a numbered
        # rule such as 608.2, heads its own, with its lettered subrules) and
        # three-digit rule (as a code), and the labels grouped by each for one reduceat a ruling.
        self.family_of = np.where(ix.parent_row >= 0, ix.parent_row, np.arange(self.n))
        _, self.section_of = np.unique([rid.split(".")[0] for rid in ix.ids], return_inverse=True)
        self.n_sections = int(self.section_of.max()) + 1 if self.n else 0
        self._groups = {}
        for name, of in (("family", self.family_of), ("section", self.section_of)):
            key = of[self.rows]
            order = np.lexsort((np.arange(len(key)), key))
            starts = np.flatnonzero(np.r_[True, key[order][1:] != key[order][:-1]]) if len(key) else np.zeros(0, dtype=np.int64)
            self._groups[name] = (order, key[order][starts] if len(key) else key, starts)

    def similarity(self, linker, lem: list[str]) -> np.ndarray:
        if self.matrix is None:
            return np.zeros(0)
        return linker._bm25_query(self.matrix, lem)

    def most_similar(self, sim: np.ndarray | None, row: int) -> tuple[float, str] | None:
        """The labelled ruling most like this one among those labelled with ``row``."""
        if sim is None or not len(sim) or sim.max() <= 0:
            return None
        owners = self.owner[self.rows == row]
        if not len(owners) or sim[owners].max() <= 0:
            return None
        j = int(owners[np.argmax(sim[owners])])
        x = self.items[j]
        text = x["text"] if len(x["text"]) <= 120 else x["text"][:117] + "…"
        return float(sim[j] / sim.max()), f"labelled ruling ({x.get('card') or '?'}, {x['primary']}): {text}"

    def around(self, sim: np.ndarray, pool: np.ndarray, allowed: np.ndarray | None = None, k: int = 10) -> np.ndarray:
        """Per pool candidate the NEIGHBOURHOOD features: the ``k`` most similar labelled
        rulings' votes (similarity scaled 0..1 times the label's weight) summed per rule, per
        family and per three-digit rule, and the best scaled similarity of any labelled ruling
        in its family and its three-digit rule."""
        out = np.zeros((len(pool), len(NEIGHBOURHOOD)))
        scaled = self._scaled(sim, allowed)
        if scaled is None:
            return out
        s, val = scaled
        best = {}
        for name, size in (("family", self.n), ("section", self.n_sections)):
            order, keys, starts = self._groups[name]
            m = np.zeros(size)
            m[keys] = np.maximum.reduceat(val[order], starts)
            best[name] = m
        near = np.argsort(-s, kind="stable")[:k]
        is_near = np.zeros(len(s), dtype=bool)
        is_near[near[s[near] > 0]] = True
        sel = is_near[self.owner]
        rows, v = self.rows[sel], val[sel]
        fam, sec = self.family_of[pool], self.section_of[pool]
        out[:, 0] = np.bincount(rows, weights=v, minlength=self.n)[pool]
        out[:, 1] = best["family"][fam]
        out[:, 2] = best["section"][sec]
        out[:, 3] = np.bincount(self.section_of[rows], weights=v, minlength=self.n_sections)[sec]
        out[:, 4] = np.bincount(self.family_of[rows], weights=v, minlength=self.n)[fam]
        return out

    def rule_scores(self, sim: np.ndarray, allowed: np.ndarray | None = None) -> np.ndarray:
        """Per rule: the best similarity of a memory ruling labelled with it (scaled 0..1)."""
        out = np.zeros(self.n)
        scaled = self._scaled(sim, allowed)
        if scaled is not None:
            np.maximum.at(out, self.rows, scaled[1])
        return out

    def _scaled(self, sim: np.ndarray, allowed: np.ndarray | None) -> tuple[np.ndarray, np.ndarray] | None:
        """The allowed similarities, and each labelled rule row's vote (its ruling's similarity
        scaled 0..1 by the best, times the label's weight); None when no ruling is similar."""
        if not len(sim) or not len(self.rows):
            return None
        s = sim if allowed is None else np.where(allowed, sim, 0.0)
        top = s.max()
        if top <= 0:
            return None
        return s, self.weight * s[self.owner] / top


@dataclass
class Ranker:
    booster: object
    meta: dict
    _priors: dict = None
    #: The confidence calibration fitted for this model (None: no confidence is given).
    calibration: dict | None = None
    #: Carry the label prior and the memory to another edition through the renumbering
    #: (False: leave them out there, as before issue 26; kept to measure what carrying gains).
    carry: bool = True
    #: How the prior and memory reached the last edition linked against (for people).
    carry_note: str | None = None

    @property
    def edition(self) -> str | None:
        """The edition whose numbering the prior and the memory use (the training edition)."""
        return self.meta.get("edition")

    def same_numbering(self, ix) -> bool:
        return ix.edition == self.edition

    def _numbers(self, ix) -> dict[str, str | None] | None:
        """The training edition's numbers of the prior and memory, as numbered in ``ix``'s
        edition (identity on the training edition); None when they cannot be carried (not
        asked to, or an edition the archive does not know): their features then read zero."""
        cache = self._slot(ix)
        if "map" in cache:
            return cache["map"]
        p = self.meta.get("prior") or {}
        ids = set(p.get("counts", {}))
        for x in self.meta.get("neighbours") or []:
            ids.add(x["primary"])
            ids.update(x.get("acceptable", []))
        if self.same_numbering(ix):
            m, self.carry_note = {i: i for i in ids}, None
        elif not self.carry or not self.edition or not ix.edition:
            m, self.carry_note = None, f"label prior and memory left out (they number rules as in {self.edition})"
        else:
            from .renumber import NoRenumbering, number_map  # deferred: the archive, off the training edition only

            try:
                m = number_map(ids, self.edition, ix.edition)
                gone = sum(v is None for v in m.values())
                self.carry_note = (f"label prior and memory renumbered from {self.edition} to {ix.edition}"
                                   + (f" ({gone} of {len(m)} rules gone there)" if gone else ""))
            except NoRenumbering:
                m, self.carry_note = None, (f"label prior and memory left out: {ix.edition} is not in the archive "
                                            f"of editions, so {self.edition}'s numbers cannot be mapped to it")
        cache["map"] = m
        return m

    def _slot(self, ix) -> dict:
        """What was derived for ``ix`` (only the last index is remembered: the shipped
        ranker lives as long as the process and must not keep old indexes alive)."""
        if self._priors is None or self._priors.get("ix") is not ix:
            self._priors = {"ix": ix}
        return self._priors

    def prior(self, ix) -> Prior:
        cache = self._slot(ix)
        if "prior" not in cache:
            m = self._numbers(ix)
            p = self.meta.get("prior") or {}
            if m is None:
                prior = Prior.empty(ix)
            else:
                counts: dict[str, float] = {}
                for rid, c in p.get("counts", {}).items():
                    if m.get(rid):
                        counts[m[rid]] = counts.get(m[rid], 0.0) + c
                prior = Prior.from_counts(ix, counts, p.get("queries", 0))
            cache["prior"] = prior
        return cache["prior"]

    def neighbours(self, linker) -> "Neighbours | None":
        cache = self._slot(linker.ix)
        if "nb" not in cache:
            m = self._numbers(linker.ix)
            items = []
            for x in (self.meta.get("neighbours") or []) if m is not None else []:
                rules = [r for r in (m.get(x["primary"]), *(m.get(a) for a in x.get("acceptable", []))) if r]
                if not rules:
                    continue  # its rules are all gone from this edition
                primary = m.get(x["primary"]) or rules[0]
                items.append({**x, "primary": primary, "acceptable": sorted(set(rules) - {primary})})
            cache["nb"] = Neighbours(linker, items) if items else None
        return cache["nb"]

    @classmethod
    def load(cls, path: Path = MODEL_PATH, features: tuple[str, ...] = FEATURES) -> "Ranker":
        try:
            import lightgbm as lgb  # heavy: LightGBM loads only when a model is read
        except ImportError as e:  # pragma: no cover - lightgbm is a core dependency
            raise RankerUnavailable(f"lightgbm is not installed: {e}") from None
        if not path.is_file():
            raise RankerUnavailable(f"no ranker model at {path}")
        booster = lgb.Booster(model_str=read_bounded_text(path))
        names = tuple(booster.feature_name())
        if names != features:
            raise RankerUnavailable(f"{path.name} was trained on other features; retrain: python -m pipeline.link.train")
        meta_path = path.with_suffix(".json")
        meta = json.loads(read_bounded_text(meta_path)) if meta_path.is_file() else {}
        calib = None
        calib_path = calibration_path(path)
        if calib_path.is_file():  # fitted on this model's out-of-set answers
            calib = json.loads(read_bounded_text(calib_path))
        return cls(booster, meta, calibration=calib)

    @classmethod
    def shipped(cls, semantic: bool = False, train_split: bool = False) -> "Ranker | None":
        """The model in ``pipeline/data`` (None when it is missing or stale: the linker then
        ranks by the hand-weighted views, as it did before it learned); ``train_split``: its
        twin trained on the train split only, to measure on the test split by."""
        return _shipped(semantic, train_split)

    def labelled_texts(self) -> frozenset[str]:
        """The rulings this model learned from (its memory's texts)."""
        return frozenset(x["text"] for x in self.meta.get("neighbours") or [])

    def confidence(self, scores: np.ndarray) -> tuple[float, bool] | None:
        """The calibrated probability that the first of ``scores`` (the model's, in its
        order) is right, and whether it clears the confident threshold; None without a
        calibration (a model other than the shipped lexical one)."""
        c = self.calibration
        if not c or not len(scores):
            return None
        w = c["weights"]
        gap = float(scores[0] - scores[1]) if len(scores) > 1 else 0.0
        p = 1.0 / (1.0 + float(np.exp(-(w[0] + w[1] * float(scores[0]) + w[2] * gap))))
        return p, p >= c["threshold"]

    def predict(self, x: np.ndarray) -> np.ndarray:
        return self.booster.predict(x, num_threads=1)

    def contributions(self, x: np.ndarray) -> np.ndarray:
        return self.booster.predict(x, pred_contrib=True, num_threads=1)


@functools.lru_cache(maxsize=4)
def _shipped(semantic: bool, train_split: bool = False) -> Ranker | None:
    path = SEMANTIC_MODEL_PATH if semantic else MODEL_PATH
    try:
        return Ranker.load(train_split_path(path) if train_split else path,
                           SEMANTIC_FEATURES if semantic else FEATURES)
    except RankerUnavailable:
        return None


def ranker_for(texts) -> RankerModel:
    """The shipped ranker to measure ``texts`` with: its train-split twin when any of them is a
    ruling the shipped one learned from (figures on them would be fitted), else the shipped one."""
    shipped = Ranker.shipped()
    learned = shipped.labelled_texts() if shipped is not None else frozenset()
    return RankerModel.TRAIN_SPLIT if any(t in learned for t in texts) else RankerModel.SHIPPED


def _top(v: np.ndarray, k: int) -> np.ndarray:
    if k >= len(v):
        return np.arange(len(v))
    idx = np.argpartition(-v, k - 1)[:k]
    return idx[v[idx] > 0] if k else idx


def features(linker, v, q, prior: Prior, nb: np.ndarray | None = None,
             sem: tuple[np.ndarray, ...] | None = None, near=None) -> tuple[np.ndarray, np.ndarray]:
    """The candidate pool for one ruling and its feature matrix (pool x FEATURES, plus
    SEMANTIC_FEATURES when ``sem``, the semantic view's cosines with each rule's text, best
    example and best subrule (``SemanticView.views``), is given).
    ``nb``: the neighbour view (``Neighbours.rule_scores``) when a labelled memory is known;
    ``near``: then also the pool's NEIGHBOURHOOD features (a function of the pool,
    ``Neighbours.around`` with the same similarities and allowed rulings as ``nb``)."""
    ix = linker.ix
    n = len(ix.ids)
    text = v.text
    neigh = np.asarray(ix.cites @ text).ravel()
    neigh_by = np.asarray(ix.cited @ text).ravel()
    hand_top = _top(v.score, POOL["hand"])
    best_text = int(np.argmax(text)) if n else 0
    parts = [hand_top, _top(v.whole, POOL["whole"]), _top(v.best_sent, POOL["best_sentence"]),
             _top(v.best_ex, POOL["best_example"]), _top(neigh, POOL["neighbours"]), _top(neigh_by, POOL["neighbours"])]
    if q.context is not None:
        parts.append(_top(q.context[0], POOL["context"]))
    head = hand_top[np.argsort(-v.score[hand_top], kind="stable")[:10]]
    parents = ix.parent_row[head]
    parts.append(parents[parents >= 0])
    parts.extend(ix.children_rows[r] for r in head[:5].tolist())
    parts.append(prior.rows)
    if nb is not None:
        parts.append(_top(nb, POOL["neighbours"]))
    if sem is not None:
        parts.append(_top(np.maximum(sem[0], sem[1]), POOL["semantic"]))
    pool = np.unique(np.concatenate(parts).astype(np.int64))

    text0 = np.append(text, 0.0)  # index -1 (no child) reads 0
    children = text0[ix.children_pad[pool]].max(axis=1)
    pr = ix.parent_row[pool]
    parent_text = np.where(pr >= 0, text[np.maximum(pr, 0)], 0.0)

    hs = v.score[pool]
    ts = text[pool]
    cols = [
        hs, hs - hs.max(), _ranks(hs), ts, ts - ts.max(), v.whole[pool], v.best_sent[pool], v.best_ex[pool], _ranks(ts),
        q.context[0][pool] if q.context is not None else np.zeros(len(pool)),
        q.context[1][pool] if q.context is not None else np.zeros(len(pool)),
        np.full(len(pool), float(q.context is not None)),
        *[(v.signals[s][pool] if s in v.signals else np.zeros(len(pool))) for s in SIGNALS],
        v.fuzzy[pool] if v.fuzzy is not None else np.zeros(len(pool)),
        parent_text, children, neigh[pool], neigh_by[pool],
        (pool == ix.parent_row[best_text]).astype(float), (pr == best_text).astype(float),
    ]
    nbp = nb[pool] if nb is not None else np.zeros(len(pool))
    around = near(pool) if near is not None else np.zeros((len(pool), len(NEIGHBOURHOOD)))
    x = np.column_stack(cols + [ix.static[pool], np.full(len(pool), float(len(v.lem))), prior.rule[pool],
                                prior.root[pool], nbp, nbp - nbp.max(), around])
    if sem is not None:
        sr, se, sc = sem[0][pool], sem[1][pool], sem[2][pool]
        x = np.column_stack([x, sr, sr - sr.max(), se, sc, _ranks(np.maximum(sr, se))])
    return pool, x


def _ranks(s: np.ndarray) -> np.ndarray:
    order = np.lexsort((np.arange(len(s)), -s))
    r = np.empty(len(s))
    r[order] = np.arange(len(s))
    return np.log1p(r)


def rerank(linker, queries, top: int, explain_n: int = 1):
    """Rank each query's pool by the model; explain the first ``explain_n`` candidates by
    their largest feature contributions (SHAP values cost about as much as ranking)."""

    out = []
    for start in range(0, len(queries), CHUNK):
        chunk = queries[start:start + CHUNK]
        pending = []
        prior = linker.ranker.prior(linker.ix)
        memory = linker.ranker.neighbours(linker)
        extra = [memory.matrix] if memory is not None and memory.matrix is not None else []
        pre = linker.batch_scores([q for q, _ in chunk], extra)
        sem = linker.semantic.views([q.text for q, _ in chunk]) if linker.semantic is not None else [None] * len(chunk)
        for (q, ss), p, se in zip(chunk, pre, sem):
            v = linker._views(q, ss, p[:3])
            nb = memory.rule_scores(p[3]) if extra else None
            near = functools.partial(memory.around, p[3]) if extra else None
            pool, x = features(linker, v, q, prior, nb, se, near)
            if extra:
                v.memory_sim = p[3]
            pending.append((q, v, pool, x))
        scores = linker.ranker.predict(np.vstack([p[3] for p in pending])) if pending else []
        k = 0
        shown_x, shown = [], []
        for q, v, pool, x in pending:
            s = scores[k:k + len(pool)]
            k += len(pool)
            # A rule number written in the ruling is a citation, not a clue: it comes first
            # (rulings seldom cite numbers, so the labels cannot teach this).
            named = v.signals.get("reference")
            if named is not None:
                s = s + 100.0 * named[pool]
            order = np.lexsort((pool, -s))[:top]
            raw = scores[k - len(pool):k][order]  # the model's own scores (the confidence reads them)
            shown.append((q, v, pool[order], s[order], linker.ranker.confidence(raw)))
            shown_x.append(x[order][:explain_n])
        contrib = linker.ranker.contributions(np.vstack(shown_x)) if explain_n > 0 and shown_x else []
        k = 0
        for q, v, rows, s, conf in shown:
            cands = []
            for i, (r, sc) in enumerate(zip(rows.tolist(), s.tolist())):
                ev = linker._evidence(v, q, r)
                if i < explain_n:
                    ev.append(Evidence(EvidenceKind.MODEL, explain(contrib[k]), float(sc)))
                    k += 1
                    like = memory.most_similar(getattr(v, "memory_sim", None), r) if memory is not None else None
                    if like:
                        ev.append(Evidence(EvidenceKind.NEIGHBOUR, like[1], like[0]))
                cands.append(Candidate(linker.ix.ids[r], float(sc), ev))
            if conf is not None and cands:
                cands[0].confidence, cands[0].confident = conf
            out.append(cands)
    return out


def explain(contrib: np.ndarray, n: int = 4) -> str:
    """The features that moved a candidate most (SHAP values of the model), signed."""
    c = contrib[:-1]
    names = SEMANTIC_FEATURES if len(c) == len(SEMANTIC_FEATURES) else FEATURES
    order = np.argsort(-np.abs(c), kind="stable")[:n]
    return "learned ranker: " + ", ".join(f"{LABELS[names[i]]} {c[i]:+.2f}" for i in order if abs(c[i]) >= 0.01)

"""The term base: English CR terms -> approved translations, versioned through renames.

It is a plain YAML file (``pipeline/data/termbase.yaml``) the translators edit; this module
only reads it and matches its terms in text.  Matching is by word with plural endings
(-s, -es, -ies, pt -ões/-is, es -ces) and an optional trailing ``*`` wildcard, so
"efectos de reemplazo" matches "efecto de reemplazo" and "conjur*" matches "conjurada".
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import InputError
from ..io import read_bounded_text
from ..profiles import PROFILES
from ..serialize import INTERNAL, json_field, to_data

#: Every profile's plural rules and gender agreement, in profile order (each once).
_PLURALS = tuple(dict.fromkeys(r for p in PROFILES.values() for r in p.plural_rules))
_GENDER = tuple(dict.fromkeys((p.gender_endings, p.gender_forms) for p in PROFILES.values() if p.gender_endings))

try:  # the regex engine's own case tables (for the literal prefilter of find_all)
    from _sre import unicode_tolower as _tolower
    from re._casefix import _EXTRA_CASES
except ImportError:  # pragma: no cover - CPython 3.11+ has both
    _tolower = None

DEFAULT_TERMBASE = Path(__file__).resolve().parents[1] / "data" / "termbase.yaml"
#: libyaml's safe loader when PyYAML was built with it: the same data ~8x faster (search reads
#: the term base on every run).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Former:
    en: str
    until: str  # the edition that retired this English name
    renderings: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class Term:
    en: str
    renderings: dict[str, tuple[str, ...]]  # lang -> approved, preferred first
    avoid: dict[str, tuple[str, ...]] = field(default_factory=dict)
    since: str | None = None
    formerly: tuple[Former, ...] = ()
    check: bool = True
    interchangeable: bool = False  # the approved renderings are spelling variants: use one

    def preferred(self, lang: str) -> str | None:
        r = self.renderings.get(lang)
        return r[0].rstrip("*") if r else None


@dataclass(frozen=True)
class TermBase:
    version: int | str
    terms: tuple[Term, ...] = field(metadata=json_field(convert=len))  # the reports give the count
    accept: dict[str, frozenset[str]] = field(metadata=INTERNAL)
    path: str

    def to_dict(self) -> dict:
        return to_data(self)


def _forms(v) -> tuple[str, ...]:
    if v is None:
        return ()
    if isinstance(v, str):
        return (v,)
    return tuple(str(x) for x in v)


def load_termbase(path: str | Path | None = None) -> TermBase:
    p = Path(path) if path else DEFAULT_TERMBASE
    return _load(str(p.resolve()))


@lru_cache(maxsize=8)
def _load(path: str) -> TermBase:
    p = Path(path)
    try:
        if not p.exists():
            raise InputError("term base not found", p)
        data = yaml.load(read_bounded_text(p), Loader=_LOADER)  # noqa: S506 - a safe loader
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise InputError(f"term base is not valid YAML: {e}", p) from None
    if not isinstance(data, dict) or not isinstance(data.get("terms"), list):
        raise InputError("term base needs a 'terms' list", p)
    terms = []
    for i, t in enumerate(data["terms"]):
        if not isinstance(t, dict) or not t.get("en"):
            raise InputError(f"term #{i + 1} needs an 'en' name", p)
        langs = {k: _forms(v) for k, v in t.items() if k not in ("en", "avoid", "since", "formerly", "check", "note", "interchangeable")}
        formerly = tuple(Former(str(f["en"]), str(f.get("until", "")),
                                {k: _forms(v) for k, v in f.items() if k not in ("en", "until")})
                         for f in t.get("formerly") or [])
        terms.append(Term(str(t["en"]), langs, {k: _forms(v) for k, v in (t.get("avoid") or {}).items()},
                          str(t["since"]) if t.get("since") else None, formerly, bool(t.get("check", True)),
                          bool(t.get("interchangeable", False))))
    accept = {k: frozenset(w.casefold() for w in _forms(v)) for k, v in (data.get("accept") or {}).items()}
    return TermBase(data.get("version", 1), tuple(terms), accept, str(p))


def _word_forms(w: str) -> list[str]:
    """The inflections of one word of a term (casefolded) that its pattern matches."""
    # A term base lists words of several languages: every profile's plural rules apply.
    alts = [w, w + "s", w + "es"]
    for end, plural in _PLURALS:
        if w.endswith(end):
            alts.append(w[:-len(end)] + plural)
    for ends, forms in _GENDER:
        if w.endswith(ends):  # adjectives agree in gender: continuo/continua
            alts += [w[:-1] + f for f in forms]
    return alts


def _word_pattern(w: str) -> str:
    if w.endswith("*"):
        return re.escape(w[:-1]) + r"\w*"
    alts = [re.escape(a) for a in _word_forms(w)]
    return "(?:" + "|".join(sorted(set(alts), key=len, reverse=True)) + ")"


def _term_parts(term: str) -> list[str]:
    """The words and separators of a term, as :func:`term_regex` reads them."""
    return [p for p in re.split(r"([\s-]+)", term.strip()) if p]


def _is_separator(part: str) -> bool:
    return part.strip(" -") == ""


@lru_cache(maxsize=4096)
def term_regex(term: str) -> re.Pattern:
    """A case-insensitive pattern for a term and its inflections, on word boundaries."""
    out = []
    for p in _term_parts(term):
        out.append(r"[\s-]+" if _is_separator(p) else _word_pattern(p.casefold()))
    # A Portuguese enclitic pronoun may follow a verb ("conjurá-lo", "sacrificá-la", "tornar-se").
    return re.compile(r"(?<![\w-])" + "".join(out) + r"(?!\w)(?!-(?!(?:l[oa]s?|se|lhes?|n[oa]s?|me|te)\b))",
                      re.IGNORECASE)


# -- a literal every match contains: most terms are absent from most texts -------------------
#
# The checks ask for every term in every unit (~300 k searches on a 4,000-unit PO).  A term's
# pattern is case-insensitive, so its literal letters match a text character when their
# lower-case forms agree (or fall in one of the few extra case classes the regex engine knows:
# ſ/s, ı/i, µ/μ…).  Folding the text and the literal the same way, per character, gives a
# necessary condition — the folded literal is in the folded text — that one substring test
# decides; only texts that pass are searched with the pattern.  Without the engine's case tables
# (another Python) the filter is off and every text is searched, as before.

class _CaseClass(dict):
    """Code point -> one representative of the characters a case-insensitive pattern's letter
    matches alike (filled as characters are met; ``str.translate`` asks for each)."""

    def __missing__(self, cp: int) -> int:
        lo = _tolower(cp)
        rep = min((lo, *_EXTRA_CASES.get(lo, ())))
        self[cp] = rep
        return rep


_CASE_CLASS = _CaseClass()


@lru_cache(maxsize=256)
def _folded(text: str) -> str:
    return text.translate(_CASE_CLASS)


@lru_cache(maxsize=4096)
def term_literal(term: str) -> str:
    """The longest literal (folded as :func:`_folded` folds text) that every match of
    :func:`term_regex` ``(term)`` contains: per word, the start all its inflections share."""
    if _tolower is None:
        return ""
    best = ""
    for p in _term_parts(term):
        if _is_separator(p):
            continue
        w = p.casefold()
        stem = w[:-1] if w.endswith("*") else os.path.commonprefix(_word_forms(w))
        if len(stem) > len(best):
            best = stem
    return _folded(best)


def find_all(text: str, forms, taken: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Spans where any of ``forms`` occurs, skipping spans overlapping ``taken``
    (longer terms are matched first, so "mana cost" inside "converted mana cost" is not)."""
    spans = []
    for f in forms:
        need = term_literal(f)
        if need and need not in _folded(text):
            continue  # the pattern cannot match: its literal is not in the text
        for m in term_regex(f).finditer(text):
            a, b = m.span()
            if taken and any(a < y and x < b for x, y in taken):
                continue
            spans.append((a, b))
    return sorted(set(spans))

"""The term base: English CR terms -> approved translations, versioned through renames.

It is a plain YAML file (``pipeline/data/termbase.yaml``) the translators edit; this module
only reads it and matches its terms in text.  Matching is by word with plural endings
(-s, -es, -ies, pt -ões/-is, es -ces) and an optional trailing ``*`` wildcard, so
"efectos de reemplazo" matches "efecto de reemplazo" and "conjur*" matches "conjurada".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import InputError
from ..io import read_bounded_text

DEFAULT_TERMBASE = Path(__file__).resolve().parents[1] / "data" / "termbase.yaml"


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
    terms: tuple[Term, ...]
    accept: dict[str, frozenset[str]]
    path: str

    def to_dict(self) -> dict:
        return {"version": self.version, "path": self.path, "terms": len(self.terms)}


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
        data = yaml.safe_load(read_bounded_text(p))
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


def _word_pattern(w: str) -> str:
    if w.endswith("*"):
        return re.escape(w[:-1]) + r"\w*"
    alts = [re.escape(w), re.escape(w) + "s", re.escape(w) + "es"]
    if w.endswith("y"):
        alts.append(re.escape(w[:-1]) + "ies")
    if w.endswith("ão"):
        alts.append(re.escape(w[:-2]) + "ões")
    if w.endswith("l"):
        alts.append(re.escape(w[:-1]) + "is")
    if w.endswith("z"):
        alts.append(re.escape(w[:-1]) + "ces")
    if w.endswith("o") or w.endswith("a"):  # adjectives agree in gender: continuo/continua
        alts += [re.escape(w[:-1]) + "a", re.escape(w[:-1]) + "as", re.escape(w[:-1]) + "o", re.escape(w[:-1]) + "os"]
    return "(?:" + "|".join(sorted(set(alts), key=len, reverse=True)) + ")"


@lru_cache(maxsize=4096)
def term_regex(term: str) -> re.Pattern:
    """A case-insensitive pattern for a term and its inflections, on word boundaries."""
    parts = re.split(r"([\s-]+)", term.strip())
    out = []
    for p in parts:
        if not p:
            continue
        out.append(r"[\s-]+" if p.strip(" -") == "" else _word_pattern(p.casefold()))
    # A Portuguese enclitic pronoun may follow a verb ("conjurá-lo", "sacrificá-la", "tornar-se").
    return re.compile(r"(?<![\w-])" + "".join(out) + r"(?!\w)(?!-(?!(?:l[oa]s?|se|lhes?|n[oa]s?|me|te)\b))",
                      re.IGNORECASE)


def find_all(text: str, forms, taken: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Spans where any of ``forms`` occurs, skipping spans overlapping ``taken``
    (longer terms are matched first, so "mana cost" inside "converted mana cost" is not)."""
    spans = []
    for f in forms:
        for m in term_regex(f).finditer(text):
            a, b = m.span()
            if taken and any(a < y and x < b for x, y in taken):
                continue
            spans.append((a, b))
    return sorted(set(spans))

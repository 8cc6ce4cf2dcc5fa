"""Full-text search over a rules document's SQLite export, in its own language.

Every rule (text and examples) and glossary entry is indexed twice in one FTS5 table: the
text as written (``body``, for display) and its *stems* (``stems``): the words cut by the
language's own spaCy tokenizer, folded (case, diacritics) and stemmed by that language's
Snowball stemmer ("valores" → "valor", "regras" → "regr"); rule numbers stay whole
(``601.2f``; ``pipeline/search_terms.py``, which keeps each chunk's keys in the cache).  A query
is stemmed the same way, so "valor de mana" finds "valores de mana".

Results: an exact rule number first; a glossary term and the rules it points to; then
phrase matches, then all words.  An old term leads to its new name too ("converted mana
cost" → "mana value"), from the glossary's "(Obsolete)" entries and the term base's
``formerly`` lists.  Each hit carries a sentence-long snippet and the offsets of the
matched words in it, so a terminal or a page can highlight them without markup.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from .errors import InputError
from .profiles import OFFICIAL_LANG
from .search_terms import save as _save_terms, stems, terms
from .text import NUMBER, fold as _fold

_IS_RULE = re.compile(rf"^{NUMBER}$")
_SENTENCE = re.compile(r"(?<=[.!?:])[”\")]?\s+|\n")
_OBSOLETE = re.compile(r"\s*\(obsolete\)\s*$", re.I)
_RENAMED_TO = [re.compile(p, re.I) for p in (
    r"obsolete (?:term|name) for (?:an? |the )?“?([a-z][a-z\- ]+?)[.,”]",
    r"renamed\.? See rule [0-9.a-z]+, “([^”]+)”",
    r"older name for the ([A-Za-z][A-Za-z\- ]+?) (?:casual )?(?:variant|format)",
)]
SNIPPET_MAX = 320
#: Layout of the ``search`` table; bump when it changes (cached indexes are named by it).
INDEX_VERSION = 1


def index_rows(doc) -> list[tuple[str, str, str, str, str]]:
    """``(kind, key, title, body, stems)`` rows for the FTS5 table of :func:`create_index`."""
    lang = doc.meta.language or OFFICIAL_LANG
    rows = []
    for r in doc.rules:
        body = r.text + ("\n" + "\n".join(r.example_texts) if r.examples else "")
        rows.append(("rule", r.id, "", body, stems(body, lang)))
    for g in doc.glossary:
        rows.append(("glossary", g.term, g.term, g.definition, stems(g.term + "\n" + g.definition, lang)))
    _save_terms(lang)
    return rows


FTS_SCHEMA = ("CREATE VIRTUAL TABLE search USING fts5(kind UNINDEXED, key UNINDEXED, title, body, stems, "
              "tokenize = 'unicode61 remove_diacritics 2')")


def create_index(con: sqlite3.Connection, doc) -> None:
    con.execute(FTS_SCHEMA)
    con.executemany("INSERT INTO search VALUES (?,?,?,?,?)", index_rows(doc))


# -- renamed terms ---------------------------------------------------------------------------

def renamed_terms(glossary: list[tuple[str, str]], lang: str) -> dict[str, list[str]]:
    """Old name (folded) → new names, from "(Obsolete)" glossary entries (English) and the
    term base's ``formerly`` entries (its renderings in ``lang``)."""
    out: dict[str, list[str]] = {}
    official = lang == OFFICIAL_LANG
    if official:
        for term, definition in glossary:
            if not _OBSOLETE.search(term):
                continue
            d = " ".join(definition.split())
            for pat in _RENAMED_TO:
                m = pat.search(d)
                if m:
                    for old in _OBSOLETE.sub("", term).split(","):
                        out.setdefault(_fold(old.strip()), []).append(m.group(1).strip())
                    break
    try:
        from .align.termbase import load_termbase  # the term base is read only for renamed terms

        tb = load_termbase()
    except Exception:  # noqa: BLE001 - the term base is an extra source, never a reason to fail search
        return out
    for entry in tb.terms:
        new = [entry.en] if official else [n.rstrip("*") for n in entry.renderings.get(lang, ())]
        for former in entry.formerly:
            olds = [former.en] if official else [o.rstrip("*") for o in former.renderings.get(lang, ())]
            for o in olds:
                lst = out.setdefault(_fold(o), [])
                lst += [n for n in new if n not in lst]
    return out


# -- querying --------------------------------------------------------------------------------

def _snippet(body: str, keys: set[str], lang: str) -> tuple[str, list[list[int]]]:
    """The sentence of ``body`` with the most matched words (cut to SNIPPET_MAX around the
    first match), and the matched words' offsets in it."""
    hits = [(a, b) for a, b, k in terms(body, lang) if k in keys]
    bounds, start = [], 0
    for m in _SENTENCE.finditer(body):
        bounds.append((start, m.start() + len(m.group(0).rstrip())))
        start = m.end()
    bounds.append((start, len(body)))
    best, best_n = bounds[0], -1
    for a, b in bounds:
        n = len({body[x:y].casefold() for x, y in hits if a <= x < b})
        if n > best_n:
            best, best_n = (a, b), n
    a, b = best
    inside = [(x, y) for x, y in hits if a <= x and y <= b]
    pre, post = "", ""
    if b - a > SNIPPET_MAX:
        first = inside[0][0] if inside else a
        na = max(a, first - SNIPPET_MAX // 3)
        while na > a and not body[na - 1].isspace():
            na -= 1
        nb = min(b, na + SNIPPET_MAX)
        while nb < b and not body[nb].isspace():
            nb += 1
        pre, post = ("…" if na > a else ""), ("…" if nb < b else "")
        a, b = na, nb
        inside = [(x, y) for x, y in inside if a <= x and y <= b]
    text = pre + body[a:b].strip() + post
    shift = len(pre) - a - (len(body[a:b]) - len(body[a:b].lstrip()))
    return text, [[x + shift, y + shift] for x, y in inside]


#: Bounds on a search query: a longer one is a pasted paragraph, and FTS5's cost grows with
#: every term (2,000 words took 35 s).
MAX_QUERY_CHARS = 400
MAX_QUERY_WORDS = 24


def edition_of(db: str | Path) -> str | None:
    """The date stated inside the edition a search database indexes (its ``meta`` table), or
    None (an older or foreign database): what ``crpipe search`` prints as the edition it read."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            row = con.execute("SELECT value FROM meta WHERE key = 'effective_date'").fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    return row[0] if row and isinstance(row[0], str) and row[0] else None


def search(db: str | Path, query: str, limit: int = 10) -> list[dict]:
    """Hits of ``query`` in the index at ``db``, best first (see the module's docstring).

    A query over :data:`MAX_QUERY_CHARS` characters or :data:`MAX_QUERY_WORDS` words, and a
    file that is not a crpipe search database, are one :class:`InputError` each."""
    db = Path(db)
    bad = next((c for c in query if "\ud800" <= c <= "\udfff"), None)
    if bad is not None:
        # A command-line argument that is not UTF-8 arrives with its bytes as lone surrogates
        # (PEP 383, U+DC80-U+DCFF); the stemmer and SQLite cannot encode them.
        byte = f" (byte 0x{ord(bad) - 0xDC00:02x})" if "\udc80" <= bad <= "\udcff" else ""
        raise InputError(f"the search query is not UTF-8 text{byte}", "command line")
    words = "".join(c if c.isalnum() else " " for c in query[:MAX_QUERY_CHARS + 1]).split()
    if len(query) > MAX_QUERY_CHARS or len(words) > MAX_QUERY_WORDS:
        raise InputError(f"search query too long ({len(query)} characters, {len(words)}+ words; the limit is "
                         f"{MAX_QUERY_CHARS} characters and {MAX_QUERY_WORDS} words)")
    if not db.is_file():
        raise InputError("no search database", db)
    try:
        return _search(db, query, limit)
    except sqlite3.DatabaseError as e:
        raise InputError(f"not a crpipe search database ({e})", db) from None


def _search(db: Path, query: str, limit: int) -> list[dict]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    lang = None
    try:
        cols = [r[1] for r in con.execute("PRAGMA table_info(search)")]
        if not cols:
            raise InputError("not a crpipe search database (no such table: search)", db)
        if "stems" not in cols:
            raise InputError("search database from an older crpipe; run 'crpipe build' again", db)
        row = con.execute("SELECT value FROM meta WHERE key = 'language'").fetchone()
        lang = row[0] if row else OFFICIAL_LANG
        out: list[dict] = []
        # Keyed with the text too: five official editions print one rule number twice
        # (the rules table is keyed by position), and both rules are hits.
        seen: set[tuple[str, str, str]] = set()

        def add(kind: str, key: str, body: str, keys: set[str], score=None, via: str | None = None) -> None:
            if (kind, key, body) in seen:
                return
            seen.add((kind, key, body))
            snip, marks = _snippet(body, keys, lang)
            hit = {"kind": kind, "id": key, "snippet": snip, "highlights": marks, "score": score}
            if via:
                hit["via"] = via
            out.append(hit)

        def bodies_of(kind: str, key: str) -> list[str]:
            return [r[0] for r in con.execute("SELECT body FROM search WHERE kind = ? AND key = ? ORDER BY rowid",
                                              (kind, key))]

        q = query.strip()
        number = q.rstrip(".")
        if _IS_RULE.match(number):
            for body in bodies_of("rule", number):
                add("rule", number, body, {"r" + number.replace(".", "x")})
        keys = [k for _, _, k in terms(q, lang)]
        if not keys:
            return out[:limit]
        glossary = con.execute("SELECT term, definition, refs FROM glossary").fetchall()
        fq = _fold(" ".join(q.split()))
        for term, definition, refs in glossary:
            if _fold(_OBSOLETE.sub("", term)) == fq or _fold(term) == fq:
                add("glossary", term, definition, set(keys))
                for ref in refs.split():
                    for body in bodies_of("rule", ref):
                        add("rule", ref, body, set(keys))
        phrase, loose = _fts(con, keys, limit)
        renamed: list[tuple[str, list, list[str]]] = []
        pairs = [(old, new) for old, news in renamed_terms([(t, d) for t, d, _ in glossary], lang).items()
                 for new in news]
        # Both ways: an old term finds its new name; a new term finds older texts' old name
        # (a translation made before the rename says "custo de mana convertido").
        for a, b, arrow in [(o, n, "→") for o, n in pairs] + [(_fold(n), o, "(formerly)") for o, n in pairs]:
            if a == fq or re.search(rf"\b{re.escape(a)}\b", fq):
                nkeys = [k for _, _, k in terms(fq.replace(a, _fold(b)), lang)]
                p2, l2 = _fts(con, nkeys, limit)
                label = f"{a} → {b}" if arrow == "→" else f"{b}, the former name of {a}"
                renamed.append((label, p2 + (l2 if arrow == "→" else []), nkeys))
        # The phrase as written, then what an old term is called now, then the words anywhere.
        for kind, key, body, score in phrase:
            add(kind, key, body, set(keys), score)
        for via, hits, nkeys in renamed:
            for kind, key, body, score in hits[: max(2, (limit - len(out)) // len(renamed))]:
                add(kind, key, body, set(nkeys), score, via=via)
        for kind, key, body, score in loose:
            add(kind, key, body, set(keys), score)
        return out[:limit]
    finally:
        con.close()
        if lang is not None:
            _save_terms(lang)  # the query's and the snippets' new chunks, for the next search


def _fts(con: sqlite3.Connection, keys: list[str], limit: int) -> tuple[list, list]:
    """``(phrase matches, other all-words matches)`` on the stems, each best bm25 first."""
    sql = ("SELECT kind, key, body, bm25(search, 0, 0, 0, 0, 1.0) AS score FROM search "
           "WHERE stems MATCH ? ORDER BY score LIMIT ?")
    phrase = '"' + " ".join(keys) + '"'
    loose = " AND ".join(f'"{k}"' for k in dict.fromkeys(keys))
    got: list[list] = [[], []]
    seen: set[tuple[str, str, str]] = set()
    for i, q in enumerate((phrase, loose)):
        for kind, key, body, score in con.execute(sql, (q, limit * 2)):
            if (kind, key, body) not in seen:
                seen.add((kind, key, body))
                got[i].append((kind, key, body, round(-score, 4)))
    return got[0], got[1]


def databases(lang: str, folder: Path) -> list[Path]:
    """The search databases of ``lang`` a build wrote into ``folder``."""
    if lang == OFFICIAL_LANG:
        return [folder / f"{OFFICIAL_LANG}-reference.sqlite"]
    return sorted(folder.glob(f"{lang}-*.sqlite"))

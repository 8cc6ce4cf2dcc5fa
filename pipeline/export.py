"""Exports of a parsed document: JSON model, rule tables (Parquet, CSV), SQLite with FTS5.

``export_all`` writes every format in one call; each file appears atomically.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pandas as pd

from .io import atomic_group, atomic_path, dumps, write_json
from .model import Document
from .search import create_index, search

RULE_COLUMNS = ["id", "level", "section", "parent", "order", "line", "text", "examples", "n_examples",
                "inferred_number", "language", "effective_date", "source"]


def rules_frame(doc: Document) -> pd.DataFrame:
    """One row per rule; ``examples`` is a JSON list so CSV keeps it in one cell."""
    rows = [{
        "id": r.id, "level": r.level, "section": r.section, "parent": r.parent or "", "order": r.order,
        "line": r.line, "text": r.text, "examples": json.dumps(r.example_texts, ensure_ascii=False),
        "n_examples": len(r.examples), "inferred_number": r.inferred_number,
        "language": doc.meta.language, "effective_date": doc.meta.effective_date or "",
        "source": doc.meta.source_name or "",
    } for r in doc.rules]
    return pd.DataFrame(rows, columns=RULE_COLUMNS)


def glossary_frame(doc: Document) -> pd.DataFrame:
    return pd.DataFrame([{"term": g.term, "definition": g.definition, "refs": " ".join(g.refs)} for g in doc.glossary],
                        columns=["term", "definition", "refs"])


def write_json_model(doc: Document, path: Path) -> Path:
    return write_json(path, doc.to_dict())


def write_tables(doc: Document, parquet: Path, csv: Path) -> None:
    with atomic_group([parquet, csv]) as (tp, tc):
        _tables_to(doc, tp, tc)


def _tables_to(doc: Document, parquet: Path, csv: Path) -> None:
    df = rules_frame(doc)
    df.to_parquet(parquet, index=False, engine="pyarrow")
    df.to_csv(csv, index=False, lineterminator="\n")


def write_sqlite(doc: Document, path: Path) -> Path:
    """SQLite with ``rules``, ``examples``, ``glossary`` tables and an FTS5 index ``search``."""
    with atomic_path(path) as tmp:
        _sqlite_to(doc, tmp)
    return path


def _sqlite_to(doc: Document, tmp: Path) -> None:
    """Rules are keyed by their position (``ord``): five official editions (2005-08-01,
    2006-05-01, 2006-06-01, 2009-09-04, 2009-10-01) print one number twice, and both rules
    are exported (the integrity findings name them)."""
    con = sqlite3.connect(tmp)
    try:
        con.executescript("""
            PRAGMA journal_mode=OFF;
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE rules (ord INTEGER PRIMARY KEY, id TEXT NOT NULL, level TEXT, section INTEGER,
                                parent TEXT, text TEXT);
            CREATE INDEX rules_id ON rules (id);
            CREATE TABLE examples (rule_ord INTEGER, rule_id TEXT, position INTEGER, text TEXT);
            CREATE TABLE glossary (term TEXT, definition TEXT, refs TEXT);
        """)
        create_index(con, doc)  # the FTS5 table ``search``, stemmed in the document's language
        meta = {k: v for k, v in doc.to_dict(layout=False)["meta"].items() if v is not None}
        con.executemany("INSERT INTO meta VALUES (?, ?)", sorted((k, json.dumps(v) if not isinstance(v, str) else v) for k, v in meta.items()))
        con.executemany("INSERT INTO rules VALUES (?,?,?,?,?,?)",
                        [(r.order, r.id, r.level, r.section, r.parent, r.text) for r in doc.rules])
        con.executemany("INSERT INTO examples VALUES (?,?,?,?)",
                        [(r.order, r.id, i, e.text) for r in doc.rules for i, e in enumerate(r.examples)])
        con.executemany("INSERT INTO glossary VALUES (?,?,?)", [(g.term, g.definition, " ".join(g.refs)) for g in doc.glossary])
        con.commit()
    finally:
        con.close()


def export_all(doc: Document, out_dir: Path, stem: str) -> list[Path]:
    """Every format or none: all are written to temporary names, renamed only when all are done."""
    out_dir = Path(out_dir)
    paths = [out_dir / f"{stem}.json", out_dir / f"{stem}.rules.parquet", out_dir / f"{stem}.rules.csv", out_dir / f"{stem}.sqlite"]
    with atomic_group(paths) as (tj, tp, tc, ts):
        tj.write_text(dumps(doc.to_dict()), encoding="utf-8", newline="\n")
        _tables_to(doc, tp, tc)
        _sqlite_to(doc, ts)
    return paths


__all__ = ["export_all", "rules_frame", "glossary_frame", "write_sqlite", "search", "dumps"]

"""Exports of a parsed document: JSON model, rule tables (Parquet, CSV), SQLite with FTS5.

``export_all`` writes every format in one call; each file appears atomically.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

from .errors import InputError
from .io import atomic_group, atomic_path, dumps, write_json
from .model import Document
from .search import create_index, search
from .swap import listed_outputs, record_of

RULE_COLUMNS = ["id", "level", "section", "parent", "order", "line", "text", "examples", "n_examples",
                "inferred_number", "language", "effective_date", "source"]


def rules_frame(doc: Document) -> pd.DataFrame:
    """One row per rule; ``examples`` is a JSON list so CSV keeps it in one cell."""
    import pandas as pd  # noqa: PLC0415 - 0.3 s to import; only the table exports need it

    rows = [{
        "id": r.id, "level": r.level, "section": r.section, "parent": r.parent or "", "order": r.order,
        "line": r.line, "text": r.text, "examples": json.dumps(r.example_texts, ensure_ascii=False),
        "n_examples": len(r.examples), "inferred_number": r.inferred_number,
        "language": doc.meta.language, "effective_date": doc.meta.effective_date or "",
        "source": doc.meta.source_name or "",
    } for r in doc.rules]
    return pd.DataFrame(rows, columns=RULE_COLUMNS)


def glossary_frame(doc: Document) -> pd.DataFrame:
    import pandas as pd  # noqa: PLC0415 - see rules_frame

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


#: The record of what ``parse --export`` wrote into a folder of the user's (see :mod:`pipeline.swap`):
#: a later export may replace those files, never one it did not write.
EXPORT_RECORD = "crpipe-export.json"


def export_all(doc: Document, out_dir: Path, stem: str, record: str | None = None) -> list[Path]:
    """Every format or none: all are written to temporary names, renamed only when all are done.

    With ``record`` (``parse --export``: a folder of the user's, not a build's own staging
    folder), a file of those names that the folder's record does not list is the user's, and
    the export is refused before anything is written; the record is updated with the outputs."""
    out_dir = Path(out_dir)
    paths = [out_dir / f"{stem}.json", out_dir / f"{stem}.rules.parquet", out_dir / f"{stem}.rules.csv", out_dir / f"{stem}.sqlite"]
    listed: set[str] = set()
    if record is not None:
        found = listed_outputs(out_dir, record)
        if found is None and ((out_dir / record).exists() or (out_dir / record).is_symlink()):
            raise InputError(f"{record} is not a record crpipe wrote; move it or give another --export folder", out_dir)
        listed = found or set()
        theirs = [p.name for p in paths if (p.exists() or p.is_symlink()) and p.name not in listed]
        if theirs:
            raise InputError(f"{theirs[0]!r} is not a file crpipe wrote (not in {record}); move it or give another "
                             "--export folder", out_dir)
    targets = paths + ([out_dir / record] if record is not None else [])
    with atomic_group(targets) as temps:
        tj, tp, tc, ts = temps[:4]
        tj.write_text(dumps(doc.to_dict()), encoding="utf-8", newline="\n")
        _tables_to(doc, tp, tc)
        _sqlite_to(doc, ts)
        if record is not None:
            # Earlier exports' files stay listed while they are there (several editions in one folder).
            kept = [f for f in listed if (out_dir / f).is_file()]
            temps[4].write_text(dumps(record_of(kept + [p.name for p in paths])), encoding="utf-8", newline="\n")
    return paths


__all__ = ["export_all", "rules_frame", "glossary_frame", "write_sqlite", "search", "dumps"]

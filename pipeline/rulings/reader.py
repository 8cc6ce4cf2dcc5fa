"""One entry point from a rulings file (any supported source) to a :class:`RulingSet`.

The source is recognised by content, not by file name: JSON is matched against the
MTGJSON (v3 set / AllSets, v5 set / AllPrintings / AtomicCards) and Scryfall (list object,
bulk array) shapes; anything else is read as a rulings-page paste.  Every failure is an
:class:`~pipeline.errors.InputError` naming the file.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from . import mtgjson, scryfall
from ..errors import InputError
from ..decode import decode_bytes
from .dates import DateOrderError
from .model import Card, Ruling, RulingSet, RulingsFormat
from .names import NameIndex
from .paste import dated_texts, order_hint, split_paste
from ..io import env_megabytes, read_bounded

_SHAPES = ("MTGJSON v3 set file or AllSets, MTGJSON v5 set / AllPrintings / AtomicCards, "
           "Scryfall rulings list object or bulk rulings array")


#: Bounds on what is read whole: a set's rulings file is about 1 MB, MTGJSON's AtomicCards about
#: 130 MB; a 174 MB file of a million rulings is not a rulings file but a denial of service.
#: None reads ``$CRPIPE_MAX_RULINGS_MB`` (64) / ``$CRPIPE_MAX_CARDS_MB`` (512) at each read.
MAX_RULINGS_BYTES: int | None = None
MAX_CARDS_BYTES: int | None = None


def _read_bytes(path: Path, cards: bool = False) -> bytes:
    if cards:
        what, env, limit = "card", "CRPIPE_MAX_CARDS_MB", MAX_CARDS_BYTES
    else:
        what, env, limit = "rulings", "CRPIPE_MAX_RULINGS_MB", MAX_RULINGS_BYTES
    if limit is None:
        limit = env_megabytes(env, 512 if cards else 64)
    data = read_bounded(path, limit, what=f"{what} file", env=env)
    if not data.strip():
        raise InputError(f"empty {what} file", path)
    return data


#: The longest ruling text read (characters).  The 10,279 rulings of the 18 MTGJSON v3 set files
#: are at most 740 characters; a "ruling" of a million is not one, and the lemmatiser refuses
#: texts that long.
MAX_RULING_CHARS = 20_000

# A \uD800-\uDFFF escape that is not half of a pair: JSON allows it, but it is no character, and
# the text cannot be encoded again (the lemmatiser's hashing fails on it).
_LONE_SURROGATE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                             r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def _json(data: bytes, path: Path):
    """The parsed JSON value, or None when the text is not JSON at all."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head not in (b"{", b"["):
        return None
    try:
        text = data.decode("utf-8-sig")
        obj = json.loads(text)
    except UnicodeDecodeError as e:
        raise InputError(f"JSON is not valid UTF-8 (byte {e.start})", path) from None
    except json.JSONDecodeError as e:
        raise InputError(f"invalid or truncated JSON at line {e.lineno}, column {e.colno}: {e.msg}", path) from None
    except RecursionError:
        raise InputError("JSON nested too deeply to be rulings or cards", path) from None
    except ValueError:  # Python refuses to convert an integer of more digits than its limit
        raise InputError(f"JSON holds a number of more than {sys.get_int_max_str_digits():,} digits: "
                         "not rulings or cards", path) from None
    lone = _LONE_SURROGATE.search(text)
    if lone and not _encodable(obj):  # the regex alone would also match an escaped backslash before "ud800"
        line = text.count("\n", 0, lone.start()) + 1
        raise InputError(f"JSON holds a lone surrogate escape ({lone.group()}) at line {line}: not text", path)
    return obj


def _encodable(obj) -> bool:
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _check_lengths(rs: RulingSet, path: Path) -> RulingSet:
    for r in rs.rulings:
        if len(r.text) > MAX_RULING_CHARS:
            card = f"card {r.card.name[:80]!r}, " if r.card else ""
            raise InputError(f"a ruling of {len(r.text):,} characters ({card}ruling {r.position + 1}): "
                             f"rulings are at most {MAX_RULING_CHARS:,}", path)
    return rs


def _shape(obj) -> str | None:
    return mtgjson.detect(obj) or scryfall.detect(obj)


def load_card_index(paths) -> NameIndex:
    """Names (English, localized, per face) and oracle ids of the cards in MTGJSON files."""
    idx = NameIndex()
    for p in paths:
        p = Path(p)
        obj = _json(_read_bytes(p, cards=True), p)
        shape = mtgjson.detect(obj) if obj is not None else None
        if shape is None:
            raise InputError("not an MTGJSON card file (expected a v3 set / AllSets or a v5 set / "
                             "AllPrintings / AtomicCards)", p)
        cards, _ = mtgjson.read(obj, shape)
        for c in cards:
            idx.add(c)
    return idx


def read_rulings(path, cards: NameIndex | None = None, card_lang: str | None = None) -> RulingSet:
    """Read one rulings file.  ``cards`` resolves localized names and Scryfall oracle ids;
    ``card_lang`` is the language of a paste's card name when known (it also decides
    ambiguous day/month order)."""
    p = Path(path)
    data = _read_bytes(p)
    obj = _json(data, p)
    if obj is not None:
        shape = _shape(obj)
        if shape is None:
            raise InputError(f"JSON of another shape: not rulings (expected {_SHAPES})", p)
        if shape.startswith("scryfall"):
            cs, rs = scryfall.read(obj, shape, cards.by_oracle if cards else None)
            fmt = RulingsFormat(shape)
        else:
            cs, rs = mtgjson.read(obj, shape)
            fmt = RulingsFormat.MTGJSON3 if shape.startswith("mtgjson3") else RulingsFormat.MTGJSON5
        if not rs:
            raise InputError(f"{fmt} file holds no rulings", p)
        return _check_lengths(RulingSet(str(p), fmt, cs, rs), p)
    return _check_lengths(_read_paste(p, data, cards, card_lang), p)


def _read_paste(p: Path, data: bytes, cards: NameIndex | None, card_lang: str | None) -> RulingSet:
    text = decode_bytes(data, p).text
    paste = split_paste(text)
    if not paste.blocks:
        raise InputError("no date lines: not a rulings paste (expected a date line such as "
                         "14/07/2017 or 2017-07-14 before each ruling)", p)
    notes: list[str] = []
    card = _paste_card(paste.card_name, cards, card_lang, notes)
    lang = card_lang
    if lang is None and card is not None and paste.card_name:
        lang = next((lg for lg, n in card.localized if n.casefold() == paste.card_name.casefold()), None)
    try:
        items, more = dated_texts(paste, order_hint(lang))
    except DateOrderError as e:
        raise InputError(str(e), p) from None
    if not items:
        raise InputError("date lines but no ruling text", p)
    rulings = [Ruling(date=d, text=t, source="paste", position=i, card=card) for i, (d, t, _) in enumerate(items)]
    return RulingSet(str(p), RulingsFormat.PASTE, [card] if card else [], rulings, notes + more)


def _paste_card(name: str | None, cards: NameIndex | None, lang: str | None, notes: list[str]) -> Card | None:
    if not name:
        notes.append("no card name above the first date")
        return None
    hit = cards.resolve(name) if cards else None
    if hit:
        if hit.name != name:
            notes.append(f"card name {name!r} resolved to {hit.name!r} through MTGJSON foreign names")
        return hit
    if cards:
        notes.append(f"card name {name!r} not found in the card files; kept as given")
    faces = tuple(f.strip() for f in name.split("//")) if "//" in name else (name,)
    return Card(name=name, faces=faces, layout="split" if len(faces) > 1 else "normal",
                localized=((lang, name),) if lang else (), resolved=False)

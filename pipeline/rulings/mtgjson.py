"""MTGJSON readers: version 3 set files (and AllSets) and version 5 AllPrintings / AtomicCards.

Version 3 lists each face of a split card as its own card (``names`` holds all faces,
``foreignNames`` [{language, name}]); version 5 names the whole card "A // B" and keeps
the face in ``faceName`` with ``foreignData`` [{language, name, faceName?}].  Both give
``rulings`` [{date, text}].  Rulings are kept per card entry as the file holds them (the
18 v3 set files hold 10,279).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import Card, Ruling

#: MTGJSON language names -> ISO 639-1 (Chinese variants keep a region tag).
LANGUAGES = {
    "English": "en", "Portuguese (Brazil)": "pt", "Portuguese": "pt", "Spanish": "es", "French": "fr",
    "German": "de", "Italian": "it", "Japanese": "ja", "Korean": "ko", "Russian": "ru",
    "Chinese Simplified": "zh-Hans", "Chinese Traditional": "zh-Hant", "Phyrexian": "ph",
    "Hebrew": "he", "Latin": "la", "Ancient Greek": "grc", "Arabic": "ar", "Sanskrit": "sa",
}

#: Layouts whose faces make one card named "A // B".
MULTI_FACE = frozenset({"split", "aftermath", "flip", "double-faced", "transform", "modal_dfc",
                        "adventure", "reversible_card"})


# A card file is a user's input: a field of the wrong type (``"rulings": "…"``, a number for
# a name) is treated as absent, as a missing field is, never iterated or hashed as found.
def _str(v) -> str | None:
    return v if isinstance(v, str) else None


def _list(v) -> list:
    return v if isinstance(v, list) else []


def _dict(v) -> dict:
    return v if isinstance(v, dict) else {}


def lang_code(name: str) -> str:
    return LANGUAGES.get(name, name.lower())


def _card_name(name: str, names, layout: str) -> tuple[str, tuple[str, ...]]:
    names = [n for n in _list(names) if isinstance(n, str)]
    if names and layout in MULTI_FACE and len(names) > 1:
        return " // ".join(names), tuple(names)
    if " // " in name:
        return name, tuple(name.split(" // "))
    return name, (name,)


def _rulings(entries, card: Card, source: str, start: int) -> list[Ruling]:
    out = []
    for i, r in enumerate(_list(entries)):
        if not isinstance(r, dict) or not isinstance(r.get("text"), str):
            continue
        out.append(Ruling(date=_str(r.get("date")), text=r["text"].strip(), source=source, position=start + i, card=card))
    return out


@dataclass
class _Faces:
    """Localized names of each face, merged over the face entries of one card."""

    layout: str = "normal"
    faces: tuple[str, ...] = ()
    per_face: dict[str, dict[str, str]] = field(default_factory=dict)  # face -> lang -> name
    oracle_id: str | None = None
    texts: dict[str, str] = field(default_factory=dict)  # face -> rules text

    def card(self, name: str) -> Card:
        loc = {}
        langs = set().union(*(d.keys() for d in self.per_face.values())) if self.per_face else set()
        for lg in langs:
            parts = [self.per_face.get(f, {}).get(lg) for f in self.faces]
            if all(parts):
                # Faces are joined as in English; a language that already names the whole
                # card "A // B" on every face gives that name once.
                loc[lg] = " // ".join(dict.fromkeys(parts))
        text = "\n//\n".join(self.texts[f] for f in self.faces if self.texts.get(f))
        return Card(name=name, faces=self.faces, layout=self.layout, localized=tuple(sorted(loc.items())),
                    oracle_id=self.oracle_id, text=text)


def read_v3_sets(sets: list[dict], source: str = "mtgjson3") -> tuple[list[Card], list[Ruling]]:
    """Cards and rulings of MTGJSON v3 set objects ({code, cards: [...]})."""
    faces: dict[str, _Faces] = {}
    entries: list[tuple[str, dict]] = []
    for s in sets:
        for c in _list(_dict(s).get("cards")):
            if not isinstance(c, dict) or not isinstance(c.get("name"), str):
                continue
            layout = _str(c.get("layout")) or "normal"
            full, fs = _card_name(c["name"], c.get("names"), layout)
            f = faces.setdefault(full, _Faces(layout=layout, faces=fs))
            d = f.per_face.setdefault(c["name"], {})
            if isinstance(c.get("text"), str):
                f.texts.setdefault(c["name"], c["text"])
            for fn in _list(c.get("foreignNames")):
                if isinstance(fn, dict) and _str(fn.get("name")) and _str(fn.get("language")):
                    d.setdefault(lang_code(fn["language"]), fn["name"])
            entries.append((full, c))
    cards = {name: f.card(name) for name, f in faces.items()}
    rulings: list[Ruling] = []
    pos: dict[str, int] = {}
    for full, c in entries:
        rs = _rulings(c.get("rulings"), cards[full], source, pos.get(full, 0))
        pos[full] = pos.get(full, 0) + len(rs)
        rulings.extend(rs)
    return sorted(cards.values(), key=lambda c: c.name), rulings


def read_v5_cards(cards_in: list[dict], source: str = "mtgjson5") -> tuple[list[Card], list[Ruling]]:
    """Cards and rulings of MTGJSON v5 card objects (from AllPrintings sets or AtomicCards)."""
    faces: dict[str, _Faces] = {}
    entries: list[tuple[str, dict]] = []
    for c in cards_in:
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            continue
        layout = _str(c.get("layout")) or "normal"
        full = c["name"]
        fs = tuple(full.split(" // "))
        f = faces.setdefault(full, _Faces(layout=layout, faces=fs))
        oid = _str(_dict(c.get("identifiers")).get("scryfallOracleId"))
        if oid and not f.oracle_id:
            f.oracle_id = oid
        face = _str(c.get("faceName")) or full
        d = f.per_face.setdefault(face, {})
        if isinstance(c.get("text"), str):
            f.texts.setdefault(face, c["text"])
        for fd in _list(c.get("foreignData")):
            if isinstance(fd, dict) and _str(fd.get("language")):
                nm = _str(fd.get("faceName")) or _str(fd.get("name"))
                if nm:
                    d.setdefault(lang_code(fd["language"]), nm)
        entries.append((full, c))
    cards = {name: f.card(name) for name, f in faces.items()}
    rulings: list[Ruling] = []
    seen: set[tuple[str, str, str]] = set()
    pos: dict[str, int] = {}
    for full, c in entries:
        # v5 repeats a card's rulings on each face and each printing: keep them once.
        fresh = [r for r in _list(c.get("rulings")) if isinstance(r, dict) and isinstance(r.get("text"), str)
                 and (full, _str(r.get("date")), r["text"]) not in seen]
        for r in fresh:
            seen.add((full, _str(r.get("date")), r["text"]))
        rs = _rulings(fresh, cards[full], source, pos.get(full, 0))
        pos[full] = pos.get(full, 0) + len(rs)
        rulings.extend(rs)
    return sorted(cards.values(), key=lambda c: c.name), rulings


def detect(obj) -> str | None:
    """Which MTGJSON shape a parsed JSON value has, or None."""
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("cards"), list) and ("code" in obj or "name" in obj):
        cs = obj["cards"]
        if cs and isinstance(cs[0], dict) and ("foreignData" in cs[0] or "identifiers" in cs[0]):
            return "mtgjson5-set"
        return "mtgjson3"
    data = obj.get("data")
    if isinstance(data, dict) and "meta" in obj:
        if isinstance(data.get("cards"), list):
            return "mtgjson5-set"
        first = next(iter(data.values()), None)
        if isinstance(first, list):
            return "mtgjson5-atomic"
        if isinstance(first, dict) and isinstance(first.get("cards"), list):
            return "mtgjson5-printings"
        return None
    # MTGJSON v3 AllSets: {"AKH": {code, cards}, ...}
    if obj and all(isinstance(v, dict) and isinstance(v.get("cards"), list) for v in obj.values()):
        return "mtgjson3-allsets"
    return None


def read(obj, shape: str) -> tuple[list[Card], list[Ruling]]:
    if shape == "mtgjson3":
        return read_v3_sets([obj])
    if shape == "mtgjson3-allsets":
        return read_v3_sets([obj[k] for k in sorted(obj)])
    if shape == "mtgjson5-set":
        data = obj.get("data", obj)
        return read_v5_cards(data["cards"])
    if shape == "mtgjson5-atomic":
        return read_v5_cards([c for k in sorted(obj["data"]) for c in _list(obj["data"][k])])
    if shape == "mtgjson5-printings":
        return read_v5_cards([c for k in sorted(obj["data"]) for c in _list(_dict(obj["data"][k]).get("cards"))])
    raise ValueError(shape)

"""The paragraphs of an English edition in their light comparison form (spaces normalised), and
those of the editions the package ships, computed at release time.

Pinning a PO's base edition (:func:`pipeline.ingest.units.pin_base_edition`) asks which
edition holds the most unit sources as paragraphs, over the whole archive: decoding and
splitting 110 editions costs ~1.2 s CPU a cold run.  The editions the package ships are the
same bytes on every machine, so :mod:`pipeline.editions.pack_light_paragraphs` writes their light
paragraphs once, at release time, into ``pipeline/data/editions/light-paragraphs.json.xz`` (the 29 k
distinct paragraphs of the 110 editions, each with the runs of editions that hold it: ~470
KiB); pinning reads an edition's paragraphs from there when its sha256 is the archive's and the
file was made by the code that would read them now (decoding and the light form: the key).
"""

from __future__ import annotations

import functools
from pathlib import Path

from ..codekey import code_key
from ..release_data import pack, unpack

#: Layout of the shipped file; bump when it changes.
VERSION = 1
FILE = "light-paragraphs.json.xz"


def light(s: str) -> str:
    """A cheap comparison form (spaces only) for scanning every edition of the archive."""
    return " ".join(s.split())


class _LightForms(dict):
    """Line -> its :func:`light` form, each distinct line once: the 110 editions of the archive
    have 694 k lines but 29 k distinct ones, so pinning normalises 29 k, not 694 k (and the
    editions' paragraph sets share one string per line)."""

    def __missing__(self, line: str) -> str:
        v = self[line] = light(line)
        return v


_LIGHT_FORMS = _LightForms()


def light_paragraphs(text: str) -> frozenset[str]:
    """Every non-empty line of a decoded edition, in light form."""
    paras = set(map(_LIGHT_FORMS.__getitem__, set(text.splitlines())))
    paras.discard("")
    return frozenset(paras)


# -- the shipped paragraphs of the embedded editions --------------------------------------------

def shipped_path() -> Path:
    from .embedded import archive_dir  # noqa: PLC0415 - the package's data folder

    return archive_dir() / FILE


@functools.lru_cache(maxsize=1)
def shipped_key() -> str:
    """The code an edition's light paragraphs depend on: this module, the step that packs them
    and all they import (the decoder, …)."""
    return code_key(VERSION, (__name__, "pipeline.editions.pack_light_paragraphs"))


class ShippedParagraphs:
    """The shipped light paragraphs: which editions (by sha256) hold each of them."""

    def __init__(self, editions: list[str], paragraphs: list[str], runs: list[list[int]]):
        self.position = {sha: k for k, sha in enumerate(editions)}
        #: paragraph -> [first, last, first, last, …]: the runs of edition positions holding it
        self.runs = dict(zip(paragraphs, runs))

    def counts(self, sources: list[str]) -> list[int]:
        """Per shipped edition (by position), how many of ``sources`` are its paragraphs."""
        diff = [0] * (len(self.position) + 1)
        for s in sources:
            r = self.runs.get(s)
            if r:
                for a, b in zip(r[::2], r[1::2]):
                    diff[a] += 1
                    diff[b + 1] -= 1
        out, n = [], 0
        for d in diff[:-1]:
            n += d
            out.append(n)
        return out

    def paragraphs_of(self, sha: str) -> frozenset[str]:
        k = self.position[sha]
        return frozenset(p for p, r in self.runs.items() if any(a <= k <= b for a, b in zip(r[::2], r[1::2])))


@functools.lru_cache(maxsize=4)
def _load(path: str) -> ShippedParagraphs | None:
    data = unpack(path, VERSION, shipped_key())
    try:
        paras = data["paragraphs"].split("\n")
        if not (isinstance(data["editions"], list) and len(paras) == len(data["runs"])):
            return None
        return ShippedParagraphs(data["editions"], paras, data["runs"])
    except (KeyError, TypeError, AttributeError):
        return None  # none, damaged, or made by other code: read the editions


def shipped(path: Path | None = None) -> ShippedParagraphs | None:
    return _load(str(path or shipped_path()))


def serialise(by_sha: dict[str, frozenset[str]]) -> bytes:
    """The shipped file's bytes for the editions ``by_sha`` (in that order): deterministic."""
    editions = list(by_sha)
    holders: dict[str, list[int]] = {}
    for k, sha in enumerate(editions):
        for p in by_sha[sha]:
            holders.setdefault(p, []).append(k)
    paragraphs = sorted(holders)
    if any("\n" in p for p in paragraphs):  # never: a paragraph is a line
        raise ValueError("a paragraph holds a line break")
    runs = []
    for p in paragraphs:
        ks, r = holders[p], []
        for k in ks:
            if r and r[-1] == k - 1:
                r[-1] = k
            else:
                r += [k, k]
        runs.append(r)
    return pack(VERSION, shipped_key(), {"editions": editions, "paragraphs": "\n".join(paragraphs), "runs": runs})

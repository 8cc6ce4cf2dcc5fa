"""Release-time step: pack a folder of English editions into the package's archive.

    python -m pipeline.editions.pack ../shared/corpus/cr-en/txt [--out pipeline/data/editions]

Every ``*.txt`` of the folder is stored byte for byte.  Editions are ordered by the date
stated inside them and packed ``CHUNK`` to an xz stream (measured on the 110 editions:
one edition per stream 13.5 MB; 4: 4.3 MB; 8: 2.6 MB; 16: 1.7 MB, ~25 ms to read one
edition; all in one stream 0.7 MB but ~140 ms and 74 MB of memory to read any edition).
The output is deterministic: same folder, same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import lzma
import sys
from pathlib import Path

from ..io import atomic_write, dumps, read_bounded
from .embedded import INDEX_VERSION
from .meta import quick_meta

CHUNK = 16


def pack(src: Path, out: Path, chunk: int = CHUNK) -> dict:
    files = sorted(p for p in Path(src).glob("*.txt") if p.is_file())
    if not files:
        raise SystemExit(f"{src}: no *.txt editions")
    items = []
    for p in files:
        data = read_bounded(p)
        meta = quick_meta(data)
        if meta.get("error"):
            print(f"skipped {p.name}: {meta['error']}", file=sys.stderr)
            continue
        items.append((meta.get("effective_date") or p.stem, p.name, data, meta))
    items.sort(key=lambda t: (t[0], t[1]))
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("editions-*.xz"):
        old.unlink()
    index = {"version": INDEX_VERSION, "chunk": chunk, "chunks": [], "editions": []}
    for k in range(0, len(items), chunk):
        run = items[k:k + chunk]
        blob, offset = bytearray(), 0
        for date, name, data, meta in run:
            index["editions"].append({"name": name, "date": date, "chunk": len(index["chunks"]), "offset": offset,
                                      "length": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                                      "truncated": bool(meta.get("truncated"))})
            blob += data
            offset += len(data)
        fname = f"editions-{len(index['chunks']):02d}.xz"
        comp = lzma.compress(bytes(blob), format=lzma.FORMAT_XZ, preset=9 | lzma.PRESET_EXTREME)
        atomic_write(out / fname, comp)
        index["chunks"].append({"file": fname, "sha256": hashlib.sha256(comp).hexdigest(), "size": len(comp)})
    atomic_write(out / "index.json", dumps(index))
    return index


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", type=Path, help="a folder of official English editions (*.txt)")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "data" / "editions")
    ap.add_argument("--chunk", type=int, default=CHUNK, help="editions per xz stream")
    a = ap.parse_args(argv)
    idx = pack(a.src, a.out, a.chunk)
    size = sum(c["size"] for c in idx["chunks"])
    print(f"{len(idx['editions'])} editions in {len(idx['chunks'])} xz files, {size / 1e6:.2f} MB → {a.out}")


if __name__ == "__main__":
    main()

"""The build stage: link the corpus's rulings to the reference edition, write JSON and CSV.

Inputs with ``role: rulings`` are read by content (paste, MTGJSON, Scryfall); inputs with
``role: cards`` (MTGJSON files) resolve localized card names.  Each linked rule carries its
text in the translations the build read (``ctx.translations``), renumbered from their
base edition when a folder of editions is available.
"""

from __future__ import annotations

import functools

from ..errors import CrpipeError
from ..rulings import read_rulings
from .index import build_index
from .linker import Linker
from .run import link_set, links_to_csv, links_to_dict
from .translations import translation_maps


def stage_link(ctx) -> None:
    inputs = [i for i in ctx.inputs if i.role == "rulings"]
    if not inputs:
        ctx.skip("link rulings", "no rulings in the manifest (role: rulings)")
        return
    if ctx.reference is None:
        ctx.skip("link rulings", "no English reference edition to link the rulings to")
        return
    cards = ctx.card_index("link rulings: card names")
    # Built once, and only when a ruling was not linked before (pipeline/link/memo.py).
    linker = functools.cache(lambda: Linker(build_index(ctx.reference)))

    maps = (translation_maps(ctx.translations, ctx.reference, ctx.editions_dir, ctx.editions, ctx.edition_errors)
            if ctx.translations else [])
    for inp in inputs:
        try:
            rs = read_rulings(inp.path, cards=cards, card_lang=inp.extra.get("card_language"))
        except CrpipeError as e:
            ctx.skip("link rulings", f"{inp.path.name}: {e.message}")
            continue
        rs.path = str(inp.path.relative_to(ctx.corpus))
        links, _ = link_set(linker, rs, ctx.reference, top=5)
        data = links_to_dict(rs, links, ctx.reference, maps)
        ctx.write_json(f"links-{inp.name}.json", data)
        ctx.write(f"links-{inp.name}.csv", links_to_csv(data))

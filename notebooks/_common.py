"""Shared set-up of the notebooks: the embedded archive only, and where figures go."""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from pipeline.editions import Catalog  # noqa: E402

#: Every notebook reads the English editions embedded in the package, nothing else.
CATALOG = Catalog(mirror=None, use_cache=False, use_embedded=True)
FIGURES = Path(os.environ.get("CRPIPE_FIGURES", Path(__file__).resolve().parent / "figures"))
FIGURES.mkdir(parents=True, exist_ok=True)
SECTIONS = {1: "Game concepts", 2: "Parts of a card", 3: "Card types", 4: "Zones", 5: "Turn structure",
            6: "Spells, abilities, effects", 7: "Additional rules", 8: "Multiplayer", 9: "Casual variants"}


def section(number: str | None) -> int | None:
    return int(number[0]) if number and number[:1].isdigit() else None


def save(fig, name: str) -> Path:
    """Write a figure as PNG (deterministic metadata) and show it in the notebook."""
    from IPython.display import Image, display

    path = FIGURES / f"{name}.png"
    fig.savefig(path, dpi=110, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    display(Image(data=path.read_bytes(), format="png"))  # the same PNG, inline (Agg shows nothing)
    return path

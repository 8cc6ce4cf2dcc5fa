"""Card rulings from every common source, in one model.

``read_rulings(path, cards=load_card_index([mtgjson files]))`` -> :class:`RulingSet`.
"""

from .model import Card, Ruling, RulingSet
from .names import NameIndex
from .reader import load_card_index, read_rulings

__all__ = ["Card", "Ruling", "RulingSet", "NameIndex", "load_card_index", "read_rulings"]

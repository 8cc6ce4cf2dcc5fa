"""crpipe: a multilingual processor for the Magic: The Gathering Comprehensive Rules.

Stages follow the data: ingest (bytes -> text) -> segment (text -> rules model)
-> xref -> align / diff / link -> qa / report; the engine and its validation sit beside.
"""

__version__ = "0.1.0"

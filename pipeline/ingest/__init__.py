"""Ingestion: files people really hold -> the rules model.  Each format reader turns its bytes
into text (the decoder, :mod:`pipeline.decode`, and language identification,
:mod:`pipeline.language`, sit below every stage) and hands it to a segmenter; bilingual PO and
XLIFF files become the model unit by unit (:mod:`.units`), their base edition pinned against the
catalog.  So ingest sits above segment and editions, and nothing below imports it."""

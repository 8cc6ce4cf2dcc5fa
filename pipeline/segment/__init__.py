"""Segmentation: decoded text -> the rules model.  It reads the decoder and the language
profiles below it; the readers of formats (:mod:`pipeline.ingest`) and the editions
(:mod:`pipeline.editions`) call it, never the reverse."""

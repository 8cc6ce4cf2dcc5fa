"""Ingestion: bytes from files people really hold -> decoded, normalised text."""

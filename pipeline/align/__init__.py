"""Cross-language alignment: a translation's rules against its English base edition and the
current edition, with the translator's consistency checks (``pipeline.align.checks``)."""

__all__ = ["align_documents", "build_rows", "align_file", "AlignResult", "Check", "Issue", "Row", "Score"]


def __getattr__(name):
    # Read on first use (PEP 562): a module of this package imported by itself (search reads
    # the term base) must not load the aligner and its checks (~0.15 s CPU).
    if name not in __all__:
        raise AttributeError(name)
    from .aligner import align_documents, build_rows  # noqa: PLC0415 - lazy, see above
    from .model import AlignResult, Check, Issue, Row, Score  # noqa: PLC0415 - lazy, see above
    from .run import align_file  # noqa: PLC0415 - lazy, see above

    return locals()[name]

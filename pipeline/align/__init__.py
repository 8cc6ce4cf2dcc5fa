"""Cross-language alignment: a translation's rules against its English base edition and the
current edition, with the translator's consistency checks (``pipeline.align.checks``)."""

from .aligner import align_documents, build_rows
from .model import AlignResult, Check, Issue, Row, Score

__all__ = ["align_documents", "build_rows", "align_file", "AlignResult", "Check", "Issue", "Row", "Score"]


def __getattr__(name):
    if name == "align_file":
        from .run import align_file
        return align_file
    raise AttributeError(name)

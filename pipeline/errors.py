"""The one error type user mistakes travel in.

The CLI turns a :class:`CrpipeError` into one line on stderr and a non-zero exit code;
anything else escaping is a bug and keeps its traceback.
"""

from __future__ import annotations

from pathlib import Path


class CrpipeError(Exception):
    """Bad input or a failed precondition, explained in one line for a person."""

    exit_code = 2

    def __init__(self, message: str, path: str | Path | None = None):
        path = str(path) if path is not None else None
        if path is not None and not path.isprintable():
            path = repr(path)  # a file name with a newline in it still makes one line, unambiguously
        # One line, whatever a library put in the message (lxml's "…out of allowed range\n, line 1").
        message = " ".join(str(message).split()) if not str(message).isprintable() else str(message)
        self.path = path
        self.message = message
        super().__init__(f"{self.path}: {message}" if self.path else message)


class InputError(CrpipeError):
    """The input file is unreadable, of the wrong kind, or damaged."""


class OSFailure(CrpipeError):
    """The operating system refused (permission, read-only or full disk, a bad database file):
    one line naming the path and the cause (made by :func:`pipeline.io.os_failure`)."""


class BusyError(CrpipeError):
    """Another process holds what this one needs (a second build of the same folder)."""

    exit_code = 75  # EX_TEMPFAIL (sysexits.h): try again later

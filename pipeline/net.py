"""Downloads: one HTTP(S) GET with a size bound and an overall deadline, its failure one line.

``urlopen``'s ``timeout`` bounds each socket operation, not the download: a server that sends
a byte every 2 s is never cut off.  The GET runs in a worker thread that the caller waits for
at most ``timeout`` seconds (connecting, the headers and the body together); the worker stops
reading once the deadline has passed.  Every way a download fails — ``urllib`` errors,
``http.client``'s own (a bad status line, a bad chunk: not ``OSError``), socket errors, a
redirect loop whose message spans three lines — becomes a :class:`DownloadError` whose text is
one short line.
"""

from __future__ import annotations

import threading
import time


class DownloadError(Exception):
    """A download that failed; ``str()`` is one line saying why (no URL: callers name it)."""


def fetch(url: str, timeout: float, limit: int, opener=None) -> bytes:
    """The body at ``url``, at most ``limit + 1`` bytes (so a caller can tell "too large"), within
    ``timeout`` seconds overall.  ``opener``: a ``urllib`` opener (the build's checks redirects)."""
    deadline = time.monotonic() + timeout
    box: dict = {}

    def work() -> None:
        try:
            box["data"] = _get(url, timeout, limit, deadline, opener)
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread, which explains it
            box["error"] = e

    worker = threading.Thread(target=work, name="crpipe-download", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        # Daemon: a server still dripping cannot keep the process alive; the worker gives up
        # at its next read.
        raise DownloadError(f"no complete answer within {timeout:g} s")
    if "error" in box:
        raise DownloadError(reason(box["error"], timeout)) from None
    return box["data"]


def _get(url: str, timeout: float, limit: int, deadline: float, opener) -> bytes:
    import urllib.request  # noqa: PLC0415 - lazy: http.client and ssl cost every command's start-up

    opener = opener or urllib.request.build_opener()
    chunks: list[bytes] = []
    size = 0
    with opener.open(url, timeout=timeout) as resp:  # noqa: S310 - the caller checked the URL
        read = getattr(resp, "read1", resp.read)  # read1: at most one socket read, so the deadline is seen
        while size <= limit:
            if time.monotonic() > deadline:
                raise TimeoutError("deadline passed")
            chunk = read(min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    return b"".join(chunks)


def one_line(text: object, most: int = 200) -> str:
    """Any message (a server's, an exception's) as one line of at most ``most`` characters."""
    s = " ".join(str(text).split())
    return s if len(s) <= most else s[: most - 1] + "…"


def reason(e: BaseException, timeout: float | None = None) -> str:
    """Why a download failed, in one line."""
    import http.client  # noqa: PLC0415 - lazy, as in _get
    import urllib.error  # noqa: PLC0415 - lazy, as in _get

    if isinstance(e, urllib.error.HTTPError):
        if "infinite loop" in str(e.reason):  # urllib's three-line message for a redirect loop
            return f"the server redirects in a loop (HTTP {e.code})"
        return one_line(f"HTTP {e.code} {e.reason}")
    if isinstance(e, urllib.error.URLError):
        inner = e.reason
        return reason(inner, timeout) if isinstance(inner, BaseException) else one_line(inner)
    if isinstance(e, http.client.IncompleteRead):
        return "the answer ended early (a cut connection or a malformed chunk)"
    if isinstance(e, http.client.RemoteDisconnected):
        return "the server closed the connection without an answer"
    if isinstance(e, (http.client.BadStatusLine, http.client.LineTooLong, http.client.UnknownProtocol)):
        return one_line(f"not an HTTP answer ({type(e).__name__}: {e})")
    if isinstance(e, http.client.HTTPException):
        return one_line(f"a malformed HTTP answer ({type(e).__name__}: {e})")
    if isinstance(e, TimeoutError):
        return f"no answer within {timeout:g} s" if timeout is not None else "timed out"
    if isinstance(e, OSError):
        return one_line(e.strerror or e)
    if isinstance(e, (ValueError, UnicodeError)):  # a malformed URL, a non-ASCII host
        return one_line(e)
    raise e  # anything else is a bug: keep its traceback

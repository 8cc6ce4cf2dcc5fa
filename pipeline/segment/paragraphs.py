"""Joining physical lines into logical paragraphs, and back.

A logical paragraph keeps each line break as one character (a space for a hard wrap,
``\\n`` for an indented or unindented continuation paragraph) and records what the
source really had there, so :func:`render_paragraph` gives back the exact lines.
"""

from __future__ import annotations

import re

_CONTINUATION_START = re.compile(r"^(?:\s+\S|Example|\d\.\s)")


def join_lines(lines: list[str], wrapped: bool) -> tuple[str, list[list], str]:
    """Join ``lines`` (the first already stripped of its number) into logical text.

    Returns ``(text, breaks, tail)``: ``breaks`` are ``[offset, original]`` where the
    logical text holds one character for the original break; ``tail`` is the trailing
    whitespace of the last line.
    """
    if len(lines) == 1:  # most paragraphs are one line
        body = lines[0].rstrip()
        return body, [], lines[0][len(body):]
    parts: list[str] = []
    breaks: list[list] = []
    pos = 0
    for i, line in enumerate(lines):
        body = line.rstrip()
        trail = line[len(body):]
        if i == 0:
            parts.append(body)
            pos = len(body)
            pending_trail = trail
            continue
        stripped = body.lstrip()
        lead = body[: len(body) - len(stripped)]
        # A hard wrap reads as a space; a new paragraph inside the rule (indented,
        # or a numbered list line) as a newline.
        after_blank = not lines[i - 1].strip()
        joiner = "\n" if (not wrapped or after_blank or not stripped or _CONTINUATION_START.match(line)) else " "
        breaks.append([pos, pending_trail + "\n" + lead])
        parts.append(joiner + stripped)
        pos += 1 + len(stripped)
        pending_trail = trail
    return "".join(parts), breaks, pending_trail


def render_paragraph(text: str, breaks: list[list], tail: str = "") -> str:
    if not breaks:
        return text + tail
    out = []
    prev = 0
    for off, orig in breaks:
        out.append(text[prev:off])
        out.append(orig)
        prev = off + 1
    out.append(text[prev:])
    return "".join(out) + tail

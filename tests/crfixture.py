"""A small, hand-written official-layout CR text for unit tests (not a copy of a real edition)."""

from __future__ import annotations

HEAD = """Magic: The Gathering Comprehensive Rules

These rules are effective as of March 3, 2031.

Introduction

A made-up edition for tests.

Contents

1. Game Concepts
100. General
101. Numbers

Glossary

Credits

"""

GLOSSARY = """
Glossary

Mana Value
The total amount of mana in a mana cost. See rule 101.2.

Team vs. Team Variant
A made-up variant. See rules 100.1 and 101.1a.

"""

CREDITS = """Credits

Test Author
"""


def body(rules: list[str]) -> str:
    return "1. Game Concepts\n\n" + "\n\n".join(rules) + "\n"


CLEAN_RULES = [
    "100. General",
    "100.1. These rules apply to games.",
    "100.1a A two-player game has two players.",
    "Example: Alice plays Bob.",
    "100.1b A multiplayer game has more.",
    "100.2. Players need decks.",
    "101. Numbers",
    "101.1. Numbers are integers.",
    "101.1a Fractions round down.",
    "101.2. Mana value is a number (see rule 101.1).",
]


def document(rules: list[str] | None = None, glossary: bool = True, credits: bool = True) -> str:
    text = HEAD + body(rules if rules is not None else CLEAN_RULES)
    if glossary:
        text += GLOSSARY
        if credits:
            text += CREDITS
    return text

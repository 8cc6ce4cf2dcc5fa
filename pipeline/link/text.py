"""English lemmas for linking, with spaCy offline (blank pipeline + lookup lemmatizer).

Text is lower-cased before lemmatizing (the lookup table has no "Kicked"), curly
apostrophes are straightened, and a small override table fixes lookup lemmas that are
wrong for game words.
"""

from __future__ import annotations

import functools
import re

#: Lookup lemmas that are wrong (or too coarse) for the game's vocabulary.
OVERRIDES = {
    "'s": "'s",  # the lookup table maps every 's to "have"
    "dies": "die", "died": "die",
    "blockers": "blocker", "attackers": "attacker",
    "copies": "copy", "copied": "copy",
    "kicked": "kicker", "kick": "kicker",
    "leaves": "leave",
    "lands": "land",
    "counters": "counter",
    "second": "second", "seconds": "second",  # the lookup table turns "second" into "2"
}

#: Function words that carry no topic (spaCy's list minus words that do in the rules:
#: "first" strike, "two" names, "only", "not", "no", "each", "other", "whole", "top").
_KEEP = {"first", "two", "one", "only", "not", "no", "each", "other", "whole", "top", "bottom", "front",
         "back", "under", "before", "after", "last", "next", "full", "empty", "becomes", "become", "put",
         "move", "call", "name", "side", "part", "give", "take", "show", "see", "down", "up", "out", "off"}

_WORD = re.compile(r"[a-z0-9]", re.IGNORECASE)


def normalise(text: str) -> str:
    return text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"').replace("—", " — ")


@functools.lru_cache(maxsize=1)
def nlp():
    import spacy

    pipe = spacy.blank("en")
    pipe.add_pipe("lemmatizer", config={"mode": "lookup"})
    pipe.initialize()
    return pipe


@functools.lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    return frozenset(w for w in nlp().Defaults.stop_words if w not in _KEEP) | {"'s", "n't", "'ll", "'re", "'ve", "'d"}


def lemma_lists(texts, batch_size: int = 256) -> list[list[str]]:
    """All lemmas (word tokens only) of each text, in order."""
    out = []
    for doc in nlp().pipe((normalise(t).lower() for t in texts), batch_size=batch_size):
        out.append([OVERRIDES.get(t.lower_, t.lemma_ or t.lower_) for t in doc if _WORD.search(t.text)])
    return out


def content(lemmas: list[str]) -> list[str]:
    sw = stopwords()
    return [x for x in lemmas if x not in sw]


def find_phrase(seq: list[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    if n == 0 or n > len(seq):
        return False
    first = phrase[0]
    for i, x in enumerate(seq):
        if x == first and tuple(seq[i:i + n]) == phrase:
            return True
    return False

"""English lemmas for linking, with spaCy offline (blank pipeline + lookup lemmatizer).

Text is lower-cased before lemmatizing (the lookup table has no "Kicked"), curly
apostrophes are straightened, and a small override table fixes lookup lemmas that are
wrong for game words.
"""

from __future__ import annotations

import functools
import marshal
import re

from ..codekey import code_key, package_version
from ..io import cache_root, cache_write, read_cache_marshal

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
    "does": "do", "doesn't": "do",  # "does" -> "doe"
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
    import spacy  # heavy: spaCy loads only when a lexicon or lemmatizer is built

    pipe = spacy.blank("en")
    pipe.add_pipe("lemmatizer", config={"mode": "lookup"})
    pipe.initialize()
    return pipe


@functools.lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    # spaCy's English list read by its path: a link whose lemmas are all cached loads no spaCy
    from ..lexicon import spacy_stop_words  # lazy: a link whose lemmas are all cached reads only this word list

    return frozenset(w for w in spacy_stop_words("en") if w not in _KEEP) | {"'s", "n't", "'ll", "'re", "'ve", "'d"}


#: Stands for a clause boundary (, ; : ( ) . —) among lemmas: phrases and lemma pairs
#: never span one ("the division can't be changed (although the targets" is not
#: "change a target").
BOUNDARY = "|"
_BREAKS = set(",;:()[].!?—–\"")


#: Layout of the cached lemma table; bump when it changes.
MEMO_VERSION = 1



@functools.lru_cache(maxsize=1)
def _memo_path():
    key = code_key(MEMO_VERSION, __name__, extra=[package_version("spacy"), package_version("spacy-lookups-data")])
    return cache_root() / "link-lemmas" / f"en-{key}.marshal"


@functools.lru_cache(maxsize=1)
def _memo() -> dict[str, tuple[str, ...]]:
    """Text -> its lemmas, as far as earlier runs lemmatised (a text's lemmas depend on it
    alone: the pipeline is a tokenizer and a lookup table)."""
    table = read_cache_marshal(_memo_path())
    return table if isinstance(table, dict) else {}


def lemma_lists(texts, batch_size: int = 256) -> list[list[str]]:
    """Lemmas of the word tokens of each text, in order, with clause boundaries marked.

    Each text is lemmatised once: the lemmas are kept in the cache (keyed by this code and
    the versions of spaCy and its lookup tables), so linking again against the same edition
    -- its ~8k sentences, titles and glossary entries -- or the same rulings runs no spaCy
    (~3 s CPU of a link of 1,000 rulings)."""
    texts = list(texts)
    memo = _memo()
    new = [t for t in dict.fromkeys(texts) if t not in memo]
    if new:
        for text, doc in zip(new, nlp().pipe((normalise(t).lower() for t in new), batch_size=batch_size)):
            seq: list[str] = []
            for t in doc:
                if _WORD.search(t.text):
                    seq.append(OVERRIDES.get(t.lower_, t.lemma_ or t.lower_))
                elif t.text in _BREAKS and seq and seq[-1] != BOUNDARY:
                    seq.append(BOUNDARY)
            memo[text] = tuple(seq)
        cache_write(_memo_path(), marshal.dumps(memo))
    return [list(memo[t]) for t in texts]


def content(lemmas: list[str]) -> list[str]:
    """Content lemmas (stopwords out, boundaries kept)."""
    sw = stopwords()
    return [x for x in lemmas if x not in sw]


def words(lemmas: list[str]) -> list[str]:
    """Lemmas without boundary marks (for bag-of-words scoring)."""
    return [x for x in lemmas if x != BOUNDARY]


def with_bigrams(seq: list[str]) -> list[str]:
    """Lemmas plus adjacent pairs ("mana value", "split card"): a phrase is more specific than its words."""
    return [x for x in seq if x != BOUNDARY] + [f"{a}_{b}" for a, b in zip(seq, seq[1:]) if BOUNDARY not in (a, b)]


def find_phrase(seq: list[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    if n == 0 or n > len(seq):
        return False
    first = phrase[0]
    for i, x in enumerate(seq):
        if x == first and tuple(seq[i:i + n]) == phrase:
            return True
    return False


# Card names in a ruling name examples, not rules: "(like Chandra's Pyrohelix)", "such as
# that of Crook of Condemnation".  A capitalised run after those words is a card name.
_NAME_RUN = r"[A-Z][\w'’\-]*(?:,?\s+(?:of|the|and|from|to|in|a)?\s*[A-Z][\w'’\-]*)*"
_EXAMPLE_NAMES = [
    re.compile(r"\((?:like|such as|e\.g\.,?)\s+(?:that of\s+|those of\s+)?" + _NAME_RUN + r"[^)]*\)"),
    re.compile(r"\b(?:such as|like)\s+(?:that of\s+|those of\s+|the effect of\s+)?" + _NAME_RUN),
]


def strip_card_names(text: str, names=()) -> str:
    """The ruling without card names: its own card's (and faces') and example cards'."""
    for rx in _EXAMPLE_NAMES:
        text = rx.sub(" ", text)
    for n in sorted({x for x in names if x and len(x) > 2}, key=len, reverse=True):
        text = re.sub(r"(?<![\w])" + re.escape(n) + r"(?:'s|’s)?(?![\w])", " ", text)
    return text

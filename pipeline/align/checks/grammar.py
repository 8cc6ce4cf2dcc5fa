"""Grammar and agreement: LibreOffice's Lightproof rules for the language, run in pure Python.

Gender and number agreement ("as carta"), verbal agreement ("nós vai"), crase ("à cinema"),
paronyms and other defects Hunspell cannot see, because every word is spelled right.  The
rules are the maintained ones LibreOffice ships (Debian ``libreoffice-lightproof-pt-br``), read
where the package installed them (:mod:`pipeline.align.lightproof`); which of their families are
reported, and under which check, is the language's grammar profile
(:mod:`pipeline.profiles.grammar`: only the families judged precise enough on a real translation).

English card names and quoted English kept by the translation are masked first, as the other
checks do: Lightproof would read "o Clone" or "(Chimeric Staff)" as Portuguese.  A paragraph is
a rule's text or one of its examples (Lightproof checks whole paragraphs).  Without the rule
set the check reports nothing, and the report's notes say why (:func:`missing_reason`).
"""

from __future__ import annotations

import re

from ...errors import CrpipeError
from ...findings import Category, Check, DefectClass, Severity
from ...profiles.grammar import AGREEMENT, CRASE, PROFILES, STYLE, TYPOGRAPHY, VERB, WORD, GrammarProfile
from ..lightproof import find_rule_files, load
from .registry import register_pass
from ..text import cap_phrases, english_names, fold, masked, quoted_names, words

CHECKS = [
    Check(AGREEMENT, Category.GRAMMAR, Severity.WARNING, "Words that do not agree in gender or number (\"as carta\") (Lightproof rules).", DefectClass.GRAMMAR),
    Check(VERB, Category.GRAMMAR, Severity.WARNING, "A verb that does not agree with its subject, or a wrong verb form (Lightproof rules).", DefectClass.GRAMMAR),
    Check(CRASE, Category.GRAMMAR, Severity.WARNING, "Crase (à) where there should be none, or missing (Lightproof rules).", DefectClass.GRAMMAR),
    Check(WORD, Category.GRAMMAR, Severity.WARNING, "A real word in the wrong place: paronyms, missing accents, compounds (Lightproof rules).", DefectClass.SPELLING),
    Check(STYLE, Category.GRAMMAR, Severity.WARNING, "Redundant or awkward wording: pleonasms, gerundism (Lightproof rules).", DefectClass.GRAMMAR),
    Check(TYPOGRAPHY, Category.GRAMMAR, Severity.WARNING, "Spacing, dashes and quotes by the language's typographic rules (Lightproof rules).", DefectClass.PUNCTUATION),
]
_BY_ID = {c.id: c for c in CHECKS}


def _rule_set(lang: str):
    """(profile, rule files) for ``lang``, or None when the language has no grammar profile."""
    prof = PROFILES.get(lang)
    if prof is None:
        return None
    return prof, find_rule_files(prof.search_folders(), prof.pkg)


#: lang -> why its rule set, although found, could not be loaded (this process).
_FAILED: dict[str, str] = {}


def missing_reason(lang: str) -> str | None:
    """Why grammar was not checked for ``lang`` (None when it is, or the language has no rules)."""
    found = _rule_set(lang)
    if found is None:
        return None
    prof, files = found
    if files is None:
        return (f"grammar not checked: no Lightproof rules lightproof_{prof.pkg}.py in "
                f"{', '.join(map(str, prof.search_folders()))} (install Debian's {prof.package}, or unpack it "
                f"without LibreOffice: apt-get download {prof.package} && dpkg-deb -x the .deb into the last "
                "folder; or set CRPIPE_LIGHTPROOF_DIR)")
    try:
        import ahocorasick  # noqa: F401 - the rule prefilter, a dependency that may be missing
    except ImportError:
        return "grammar not checked: the pyahocorasick package is not installed"
    return _FAILED.get(lang)


def engine(lang: str, families=None):
    """The loaded rule set for ``lang`` (``families``: which to run; None: every family), or None
    when there is none or it cannot be loaded (:func:`missing_reason` says why)."""
    found = _rule_set(lang)
    if found is None or found[1] is None:
        return None
    try:
        import ahocorasick  # noqa: F401 - as in missing_reason
    except ImportError:
        return None
    prof, files = found
    try:
        return load(str(files.folder), prof.pkg, lang, None, None if families is None else tuple(sorted(families)),
                    prof.extra_rules())
    except (CrpipeError, OSError, SyntaxError, ValueError, KeyError, TypeError) as e:
        # A damaged or foreign rule set must not stop the other checks: the notes say why.
        _FAILED[lang] = f"grammar not checked: the Lightproof rules in {files.folder} could not be loaded ({e})"
        return None


def protected(text: str, source: str) -> list[tuple[int, int]]:
    """Spans Lightproof must not read: English names in parentheses or quotes, and runs of
    capitalised words the English rule has too (card names kept in English)."""
    src = fold(source)
    spans = [s for _, s in english_names(text)] + [s for _, s in quoted_names(text)]
    # Whole words of the English only: "Se" must not be masked for the "se" inside "these".
    spans += [s for n, s in cap_phrases(text)
              if len(n) > 1 and re.search(rf"(?<!\w){re.escape(fold(n))}(?!\w)", src)]
    return spans


def hits(pair, lp) -> list[tuple[tuple[int, int], object]]:
    """Lightproof's hits in one aligned pair: ((start, end) in the segment, Hit), masked spans out."""
    text = pair.target_text
    keep = protected(text, pair.source_text)
    body = masked(text, keep)
    out = []
    pos = 0
    for line in body.split("\n"):
        for h in lp.check(line):
            a, b = pos + h.start, pos + h.end
            if any(x < b and a < y for x, y in keep):
                continue  # the match leans on a masked name
            out.append(((a, b), h))
        pos += len(line) + 1
    return out


def run(ctx) -> list:
    prof: GrammarProfile | None = PROFILES.get(ctx.lang)
    if prof is None:
        return []
    kept = prof.kept()
    if not kept:
        return []
    lp = engine(ctx.lang, kept)
    if lp is None:
        return []
    domain = {w.casefold() for w in prof.domain_words}
    out = []
    for p in ctx.aligned:
        seen = set()
        for span, h in hits(p, lp):
            fam = kept.get(h.family)
            if fam is None:
                continue
            check = _BY_ID[fam.check]
            if (span, check.id) in seen:  # several rules of one family on the same words
                continue
            seen.add((span, check.id))
            text = p.target_text[span[0]:span[1]]
            if check.id == AGREEMENT and any(w.text.casefold() in domain for w in words(text)):
                continue  # "um mana": the game's gender, not the dictionary's
            sugg = h.suggestions[0] if h.suggestions else None
            others = f" (or {', '.join('“' + s + '”' for s in h.suggestions[1:3])})" if len(h.suggestions) > 1 else ""
            source = "the language profile" if h.family.startswith("profile:") else "Lightproof"
            msg = f"{fam.label}: “{text}”" + (f" → “{sugg}”{others}" if sugg else "") + f" ({source}: {h.message})"
            out.append(ctx.issue(check, p, msg, span, suggestion=sugg))
    return out


register_pass(run, CHECKS)

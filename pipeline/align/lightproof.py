"""LibreOffice's Lightproof grammar rules, run in pure Python without LibreOffice.

A Lightproof extension (Debian ``libreoffice-lightproof-pt-br``; files under
``…/extensions/lightproof_pt_br/pythonpath/``) is three Python files: ``lightproof_pt_BR.py``
(``dic``: ~11,900 ``[regex, replacement, message, condition]`` rules), ``lightproof_impl_pt_BR.py``
(the runtime: word lists, exception regexes, and helpers that ask LibreOffice's spell checker
through ``uno``) and ``lightproof_opts_pt_BR.py`` (the options a rule's condition may test with
``option(LOCALE, "verbo")``, and which of them are on by default).  We read the files where the
package put them (never a copy in this repository: the rules are MPL-2.0 and the package is the
maintained source) and run them the way ``proofread()`` does, with three differences, each for a
reason:

* ``uno`` is not imported.  The runtime's module body is executed without its ``import``
  statements, and its spell-checker helpers (``spell``, ``suggest``, ``stem``, ``morph``,
  ``affix``, ``generate``) are replaced by :class:`HunspellMorphology` over the Hunspell
  dictionary the project already reads (:mod:`pipeline.segment.hunspell`), loaded only if a rule
  calls one.  (Measured on 7.5.0: no rule of the pt-BR file calls any of them; the conditions
  test the runtime's word lists.)  ``calc`` (LibreOffice Calc's unit conversion, used by the
  unit-conversion helper no pt-BR rule calls) has no replacement: a rule reaching it is skipped.
* A rule whose condition raises (39 in 7.5.0 name word lists the runtime does not define,
  ``plvrMasc``, ``plvrFem``) or does not compile (12 have broken quoting) is skipped for that
  match only; LibreOffice drops the whole paragraph's findings instead.
* Running 11,900 regexes over every paragraph would cost minutes.  Each rule is indexed by the
  literal strings any match must contain — read from the regex's parse tree and from
  conditions of the form ``m.group(…) in WORDS`` — and one Aho-Corasick pass (pyahocorasick)
  over a paragraph says which rules can match at all; only those are compiled (lazily) and run.
  The index is cached on disk per rule-file content and selection of rules
  (``$CRPIPE_CACHE/lightproof``), with the requirements of the selected rules only.

Lightproof runs the rules over whole paragraphs (its LibreOffice 4 patch checks from the
paragraph start to its end), so callers pass one paragraph (a rule's text, or one example) at a
time.
"""

from __future__ import annotations

import ast
import builtins
import marshal
import os
import re
import sys
import traceback
import re._constants as _sre  # the parse tree's opcodes (stable since 3.11)
import re._parser as _sre_parse
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

from ..codekey import code_key
from ..io import cache_root, cache_write, read_bounded_text, read_cache_marshal

#: Bump when the index format or the requirement extraction changes.
INDEX_VERSION = 3
#: Bound on the strings a fixed part of a regex may spell out ("[Dd]a" is 2).
_MAX_ALTERNATIVES = 64
#: Requirements whose strings are this short say nearly nothing (" ", "s"): not indexed.
_MIN_KEY = 2
_IU = re.compile(r"[\(][?]iu[)]")


@dataclass(frozen=True)
class Hit:
    """One Lightproof finding in a paragraph: span, rule number in ``dic``, its family."""

    start: int
    end: int
    rule: int
    family: str
    message: str
    suggestions: tuple[str, ...]


@dataclass(frozen=True)
class RuleFiles:
    folder: Path  # the ``pythonpath`` folder
    pkg: str  # "pt_BR"

    @property
    def rules(self) -> Path:
        return self.folder / f"lightproof_{self.pkg}.py"

    @property
    def impl(self) -> Path:
        return self.folder / f"lightproof_impl_{self.pkg}.py"

    @property
    def opts(self) -> Path:
        return self.folder / f"lightproof_opts_{self.pkg}.py"

    def present(self) -> bool:
        return self.rules.is_file() and self.impl.is_file()


def find_rule_files(folders, pkg: str) -> RuleFiles | None:
    """The first of ``folders`` (extension folders or their ``pythonpath``) holding the rules."""
    for d in folders:
        d = Path(d)
        for cand in (d / "pythonpath", d):
            rf = RuleFiles(cand, pkg)
            if rf.present():
                return rf
    return None


# -- which literal strings a match must contain ----------------------------------------------

def _fixed(item) -> set[str] | None:
    """The finite set of strings one parse-tree item matches, or None (open-ended)."""
    op, av = item
    if op is _sre.LITERAL:
        return {chr(av)}
    if op is _sre.IN:
        chars = set()
        for o, a in av:
            if o is not _sre.LITERAL:
                return None
            chars.add(chr(a))
        return chars if 0 < len(chars) <= 4 else None
    if op is _sre.SUBPATTERN:
        _group, add_flags, del_flags, sub = av
        return None if (add_flags or del_flags) else _fixed_seq(sub)
    if op is _sre.BRANCH:
        out: set[str] = set()
        for alt in av[1]:
            f = _fixed_seq(alt)
            if f is None:
                return None
            out |= f
            if len(out) > _MAX_ALTERNATIVES:
                return None
        return out
    return None


def _fixed_seq(seq) -> set[str] | None:
    cur = {""}
    for item in seq:
        f = _fixed(item)
        if f is None:
            return None
        cur = {a + b for a in cur for b in f}
        if len(cur) > _MAX_ALTERNATIVES:
            return None
    return cur


_REPEATS = tuple(x for x in (getattr(_sre, n, None) for n in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")) if x)


def _seq_requirements(seq) -> list[frozenset[str]]:
    """Sets of strings such that every match of ``seq`` contains one string of each set.
    Only mandatory parts count: lookarounds, optional repeats and open-ended classes break a
    run of literals, so the result is never wrong, only sometimes weaker than it could be."""
    out: list[frozenset[str]] = []
    run = {""}

    def flush():
        nonlocal run
        if run != {""}:
            out.append(frozenset(run))
        run = {""}

    for item in seq:
        f = _fixed(item)
        if f is not None:
            grown = {a + b for a in run for b in f}
            if len(grown) > _MAX_ALTERNATIVES:
                flush()
                if len(f) <= _MAX_ALTERNATIVES:
                    run = set(f)
            else:
                run = grown
            continue
        flush()
        op, av = item
        if op is _sre.SUBPATTERN and not av[1] and not av[2]:
            out.extend(_seq_requirements(av[3]))
        elif op in _REPEATS and av[0] >= 1:
            out.extend(_seq_requirements(av[2]))
        elif op is _sre.BRANCH:
            alts: list[str] = []
            for alt in av[1]:
                best = _best(_seq_requirements(alt))
                if best is None:
                    alts = []
                    break
                alts.extend(best)
            if alts and len(alts) <= _MAX_ALTERNATIVES:
                out.append(frozenset(alts))
    flush()
    return out


def _best(reqs):
    return max(reqs, key=lambda s: (min(map(len, s)), -len(s))) if reqs else None


def regex_requirements(pattern) -> list[frozenset[str]]:
    """What any match of ``pattern`` (or its parse tree) must contain (see :func:`_seq_requirements`)."""
    try:
        tree = _sre_parse.parse(pattern) if isinstance(pattern, str) else pattern
    except re.error:
        return []
    if tree.state.flags & re.IGNORECASE:
        return []  # case-folded literals would need the lower-cased text; no pt-BR rule has it
    return _seq_requirements(tree)


def condition_requirements(cond: str, names) -> list[tuple[bool, str, object]]:
    """Word lists a rule's condition requires a group to be in: ``m.group(G) in WORDS`` or
    ``m.group(G).lower() in WORDS`` among the top-level ``and``s.  Returns (lowercased?, WORDS, G)."""
    try:
        tree = ast.parse(cond.strip(), mode="eval").body
    except SyntaxError:
        return []
    parts = tree.values if isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.And) else [tree]
    out = []
    for p in parts:
        if not (isinstance(p, ast.Compare) and len(p.ops) == 1 and isinstance(p.ops[0], ast.In)
                and isinstance(p.comparators[0], ast.Name)):
            continue
        left, lower = p.left, False
        if (isinstance(left, ast.Call) and isinstance(left.func, ast.Attribute) and left.func.attr == "lower"
                and not left.args):
            left, lower = left.func.value, True
        if not (isinstance(left, ast.Call) and isinstance(left.func, ast.Attribute) and left.func.attr == "group"
                and isinstance(left.func.value, ast.Name) and left.func.value.id == "m"
                and len(left.args) == 1 and isinstance(left.args[0], ast.Constant)):
            continue
        name = p.comparators[0].id
        if name in names:
            out.append((lower, name, left.args[0].value))
    return out


def word_lists(ns: dict) -> set[str]:
    """The runtime's names that hold word lists (sets, lists, dicts of strings)."""
    return {k for k, v in ns.items()
            if isinstance(v, (set, frozenset, list, tuple, dict)) and v and all(isinstance(w, str) for w in v)}


def _excludes_word_char(item) -> bool:
    """A negative lookaround or class that rules out a word character (``(?<![-\\w–.,])``)."""
    op, av = item
    if op is not _sre.ASSERT_NOT:
        return False
    sub = list(av[1])
    return (len(sub) == 1 and sub[0][0] is _sre.IN
            and any(o is _sre.CATEGORY and a in (_sre.CATEGORY_WORD, _sre.CATEGORY_UNI_WORD) for o, a in sub[0][1]))


def _word_only(seq) -> bool:
    """Whether ``seq`` can match word characters only (so a match lies inside one token)."""
    for op, av in seq:
        if op is _sre.LITERAL:
            if not (chr(av).isalnum() or chr(av) == "_"):
                return False
        elif op is _sre.IN:
            for o, a in av:
                if o is _sre.LITERAL and (chr(a).isalnum() or chr(a) == "_"):
                    continue
                if o is _sre.RANGE and all(chr(c).isalnum() for c in (a[0], a[1])) and a[1] - a[0] < 400:
                    if all(chr(c).isalnum() for c in range(a[0], a[1] + 1)):
                        continue
                if o is _sre.CATEGORY and a in (_sre.CATEGORY_WORD, _sre.CATEGORY_UNI_WORD):
                    continue
                return False
        elif op in _REPEATS:
            if not _word_only(av[2]):
                return False
        elif op is _sre.SUBPATTERN and not av[1] and not av[2]:
            if not _word_only(av[3]):
                return False
        else:
            return False
    return True


_WORD_PREFIX = re.compile(r"\w*")


def token_requirement(pattern, group) -> list[str] | None | bool:
    """Where group ``group`` lies in the text's tokens (maximal ``\\w+`` runs), from the regex:
    it always starts a token when the regex puts a non-word character or a lookbehind excluding
    one right before it, and holds word characters only.  Returns the strings that complete the
    token after the group (``["s"]``: the token is the group's text plus "s"), None when only
    "the token starts with the group's text" is known, False when the group is not token-aligned."""
    try:
        tree = _sre_parse.parse(pattern) if isinstance(pattern, str) else pattern  # or its parse tree
    except re.error:
        return False
    gi = tree.state.groupdict.get(group) if isinstance(group, str) else group
    seq = list(tree)
    k = next((j for j, (op, av) in enumerate(seq) if op is _sre.SUBPATTERN and av[0] == gi), None)
    if k is None or not _word_only(seq[k][1][3]):
        return False
    before = seq[k - 1] if k > 0 else None
    if before is None:
        return False
    bf = _fixed(before)
    starts = ((bf is not None and all(x and not _WORD_PREFIX.fullmatch(x[-1]) for x in bf))
              or _excludes_word_char(before)
              or (before[0] is _sre.AT)
              or (before[0] is _sre.SUBPATTERN and [i[0] for i in before[1][3]] == [_sre.AT]))
    if not starts:
        return False
    j, run = k + 1, []
    while j < len(seq) and _fixed(seq[j]) is not None:
        run.append(seq[j])
        j += 1
    tails = _fixed_seq(run) if run else {""}
    if tails is None:
        return None
    ends = j < len(seq) and (_excludes_word_char(seq[j]) or seq[j][0] is _sre.AT)
    rests = set()
    for t in tails:
        r = _WORD_PREFIX.match(t).group()
        if r != t or ends:
            rests.add(r)
        else:
            return None
    return sorted(rests)


# -- the runtime without uno ------------------------------------------------------------------

class HunspellMorphology:
    """The spell-checker queries Lightproof's runtime sends LibreOffice, answered from the
    Hunspell dictionary the project reads with spylls (loaded on the first query only)."""

    def __init__(self, lang: str):
        self.lang = lang
        self._speller = None

    def _sp(self):
        if self._speller is None:
            from ..segment.hunspell import speller  # only if a rule asks: loading pt_BR takes ~4 s

            self._speller = speller(self.lang) or False
        if self._speller is False:
            raise LookupError(f"no Hunspell dictionary for {self.lang!r}")
        return self._speller

    def spell(self, _loc, word: str):
        return None if not word else word in self._sp()

    def suggest(self, _loc, word: str) -> str:
        # LibreOffice returns the alternatives; the runtime joins them for a replacement.
        return "\n".join(self._sp().suggest(word, limit=5)) if word else word

    def stem(self, _loc, word: str) -> list[str]:
        if not word:
            return []
        # The Speller memoises yes/no lookups only; stems need spylls' own lookup.
        return sorted({f.in_dictionary.stem for f in self._sp()._load().lookuper.good_forms(word)
                       if f.in_dictionary is not None})

    def analyses(self, word: str) -> list[str]:
        """Hunspell's ``analyze`` output for a dictionary without morphological fields (the
        pt_BR one has none): one ``st:STEM`` per reading."""
        return [f"st:{s}" for s in self.stem(None, word)]

    def morph(self, _loc, word: str, pattern: str, all: bool = True, onlyaffix: bool = False):
        if not word:
            return None
        p, result = re.compile(pattern), None
        for a in self.analyses(word) or [""]:
            if onlyaffix:
                # The runtime's onlymorph() keeps only affix fields (ds:, is:, ts:…), which a
                # dictionary without morphological fields never has: "st:X" filters to "".
                a = ""
            m = p.search(a)
            if m:
                result = m.group(0)
                if not all:
                    return result
            elif all:
                return None
        return result

    def affix(self, loc, word: str, pattern: str, all: bool = True):
        return self.morph(loc, word, pattern, all, True)

    def generate(self, _loc, word: str, example: str):
        # No pt-BR rule calls it (measured on 7.5.0); a rule file that does loses that match only
        # (run_rule records the error per rule), as with any rule whose helper fails.
        raise HelperUnavailable("Hunspell generation by example is not available in spylls")


class HelperUnavailable(LookupError):
    """A LibreOffice helper a rule's condition calls that has no counterpart outside LibreOffice."""


def _calc(*_a):
    # As generate(): no pt-BR rule uses Calc's unit conversion; a rule that does loses that match.
    raise HelperUnavailable("LibreOffice Calc functions (unit conversion) are not available outside LibreOffice")


class _Absent:
    """What the runtime's imports of LibreOffice's modules (``uno``, ``com.sun.star…``, its own
    handler) give while its module body runs: the names they bind are removed afterwards."""

    def __getattr__(self, _name):
        return _ABSENT


_ABSENT = _Absent()
#: Modules the runtime imports that are the interpreter's own (they are given as they are).
_STDLIB = {"re": re, "os": os, "sys": sys, "traceback": traceback}


def load_runtime(files: RuleFiles, options: frozenset[str], morphology: HunspellMorphology) -> dict:
    """The runtime module's globals, executed without its ``uno`` imports, helpers replaced.

    The source is compiled as it is (its ``ast`` would cost twice the compile for a 1.3 MB
    module, every run); while the module body runs, an import of anything but the modules of
    ``_STDLIB`` gives a placeholder, and the names bound to placeholders are dropped, so the
    namespace is the module's without those imports."""
    src = read_bounded_text(files.impl, "utf-8-sig")
    code = compile(src, str(files.impl), "exec")
    real_import = builtins.__import__

    def body_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name in _STDLIB:
            return _STDLIB[name]
        return _ABSENT

    # The module's functions keep this dict as their builtins: after the body it is the real ones.
    own = dict(builtins.__dict__, __import__=body_import)
    ns: dict = {"__name__": f"lightproof_impl_{files.pkg}", "__builtins__": own, **_STDLIB}
    try:
        exec(code, ns)  # noqa: S102 - the installed package's own code
    finally:
        own["__import__"] = real_import
    for k in [k for k, v in ns.items() if v is _ABSENT]:
        del ns[k]
    ns.update(option=lambda _loc, opt: opt in options, spell=morphology.spell, suggest=morphology.suggest,
              stem=morphology.stem, morph=morphology.morph, affix=morphology.affix, generate=morphology.generate,
              calc=_calc)
    return ns


def read_options(files: RuleFiles) -> tuple[list[str], list[str]]:
    """(every option, the options on by default) from the extension's options file."""
    if not files.opts.is_file():
        return [], []
    ns: dict = {}
    exec(compile(read_bounded_text(files.opts, "utf-8-sig"), str(files.opts), "exec"), ns)  # noqa: S102
    key = files.pkg
    return list(ns.get("lopts", {}).get(key, [])), list(ns.get("lopts_default", {}).get(key, []))


# -- families ---------------------------------------------------------------------------------

_OPTION = re.compile(r'(?<!not )option\(LOCALE,\s*"(\w+)"\)')
_TAIL = re.compile(r"\s*(?:Você quis dizer|Você pode substituir por|Melhor se substituir por)\s*:?\s*$")


_BLOCK = re.compile(r"\(\?P<([A-Za-z])")


def family_of(pattern: str, message: str, condition) -> str:
    """A rule's family, from what the rule file says about it: the option that turns it on
    (``verbo``, ``grammar``…: the extension's named groups, labelled in its options dialog);
    else its message without the closing "Você quis dizer:" (the ~8,400 always-on rules are
    written per message: "Não há concordância entre as palavras."), then "/" and the initial
    of the rule's block — the prefix of its regex group names (``Pdgs_12``, ``Mast_79``):
    in the agreement rules the P, C, D, Q, T blocks pair a determiner, numeral or quantifier
    with its noun, the M blocks a noun with its adjective or participle, and the two differ
    in how often they are right."""
    opts = _OPTION.findall(condition) if isinstance(condition, str) else []
    if opts:
        return opts[0]
    msg = message.split("\\n")[0].split("|")[0].strip()
    if not msg.startswith("="):  # a computed message: the expression is its name
        msg = _TAIL.sub("", msg).strip() or msg
    block = _BLOCK.search(pattern)
    return f"msg:{msg}/{block.group(1) if block else '-'}"


# -- the index --------------------------------------------------------------------------------

def _index_key(files: RuleFiles, selection: str) -> str:
    return code_key(INDEX_VERSION, __name__, data=[files.rules, files.impl], extra=[selection])


def build_index(files: RuleFiles, names: dict, select=None) -> dict:
    """Per rule: pattern, replacement, message, condition, family and requirements.  With
    ``select`` (a predicate on a rule's entry before its requirements are read), the rules it
    rejects are None: reading the regexes' parse trees is most of the cost, and a run that
    reports some families needs the requirements of those only (4,532 of 11,889 for pt-BR's)."""
    lists = word_lists(names)
    rules = []
    for r in _exec_rules(files):
        head = rule_head(r)
        rules.append(None if select is not None and not select(head) else rule_entry(r, lists, head=head))
    return {"version": INDEX_VERSION, "rules": rules}


def _exec_rules(files: RuleFiles) -> list:
    """The rule file's ``dic``: its ``[regex, replacement, message, condition]`` rules."""
    ns: dict = {}
    exec(compile(read_bounded_text(files.rules, "utf-8-sig"), str(files.rules), "exec"), ns)  # noqa: S102
    return ns["dic"]


def rule_head(rule, family: str | None = None) -> dict:
    """One ``[regex, replacement, message, condition]`` rule as the index keeps it, without its
    requirements: what deciding whether a run uses it needs (its family, its condition)."""
    regex, repl, msg, cond = rule
    capitalize = bool(_IU.match(regex))
    pattern = _IU.sub("(?u)", regex) if capitalize else regex
    return {"pattern": pattern, "repl": repl, "msg": msg, "cond": cond if isinstance(cond, str) else None,
            "cap": capitalize, "family": family or family_of(pattern, msg, cond)}


def rule_entry(rule, lists: set[str], family: str | None = None, head: dict | None = None) -> dict:
    """One ``[regex, replacement, message, condition]`` rule, with its family and requirements
    (``lists``: the runtime's word-list names, :func:`word_lists`)."""
    entry = dict(head) if head is not None else rule_head(rule, family)
    cond = rule[3]
    try:
        tree = _sre_parse.parse(entry["pattern"])
    except re.error:
        tree = None
    reqs = [sorted(r) for r in regex_requirements(tree)] if tree is not None else []
    words = []
    for low, name, group in (condition_requirements(cond, lists) if isinstance(cond, str) and tree else []):
        rests = token_requirement(tree, group)
        if rests is not False:
            words.append([low, name, rests])
    entry.update(reqs=reqs, words=words)
    return entry


def _read_index(path: Path) -> dict | None:
    """A cached index (``marshal``: plain data, no code), or None when absent, unreadable or of
    another format."""
    index = read_cache_marshal(path)
    if isinstance(index, dict) and index.get("version") == INDEX_VERSION and isinstance(index.get("rules"), list):
        return index
    return None


_TOKEN = re.compile(r"\w+")


class Lightproof:
    """The rule set of one installed Lightproof extension, ready to check paragraphs."""

    def __init__(self, files: RuleFiles, lang: str, options=None, families=None, extra: tuple = ()):
        """``extra``: (family, rule) pairs in Lightproof's format that the language profile adds
        (defects the rule file has no rule for); they run like the file's own rules."""
        import ahocorasick  # the literal prefilter (pyproject dependency)

        self.files = files
        _all, default_opts = read_options(files)
        self.options = frozenset(default_opts if options is None else options)
        self.morphology = HunspellMorphology(lang)
        self.ns = load_runtime(files, self.options, self.morphology)
        self.locale = SimpleNamespace(Language=files.pkg.split("_")[0], Country=files.pkg.split("_")[-1], Variant="")
        wanted = None if families is None else frozenset(families)

        def selected(r) -> bool:  # rules whose option is off never run (LibreOffice's default options)
            return (wanted is None or r["family"] in wanted) and self._option_ok(r)

        # The index holds the requirements of the rules this selection runs (families, options).
        selection = repr((None if wanted is None else sorted(wanted), sorted(self.options)))
        cache = cache_root() / "lightproof" / f"{files.pkg}-{_index_key(files, selection)}.marshal"
        index = _read_index(cache)
        if index is None:
            index = build_index(files, self.ns, selected)
            cache_write(cache, marshal.dumps(index))
        #: Per rule of the file (its number in ``dic``): its entry, or None when not selected.
        self.rules = index["rules"]
        if extra:
            lists = word_lists(self.ns)
            self.rules = self.rules + [rule_entry(list(r), lists, fam) for fam, r in extra]
        self.errors: dict[int, str] = {}  # rule -> why it was skipped (its first error)
        self._compiled: dict[int, tuple] = {}
        active = [i for i, r in enumerate(self.rules) if r is not None and selected(r)]
        # Requirements, each with an id: literal strings (any of them occurs in the text) and
        # word lists (a token is one of the words plus one of the endings, or starts with one).
        self._req_ids: dict[tuple, int] = {}
        self._req_strength: list[int] = []
        self._literal: dict[str, list[int]] = {}  # literal -> requirements
        self._exact: dict[tuple, list[int]] = {}  # (lowercased?, list, ending) -> requirements
        self._prefix: dict[tuple, list[int]] = {}  # (lowercased?, list) -> requirements
        lists: dict[bool, set[str]] = {False: set(), True: set()}
        self._always: list[int] = []
        self._rule_reqs: dict[int, list[int]] = {}
        self._by_req: dict[int, list[tuple[int, frozenset[int]]]] = {}  # req -> (rule, its other reqs)
        for i in active:
            r = self.rules[i]
            reqs = []
            for x in r["reqs"]:
                if min(map(len, x)) >= _MIN_KEY:
                    q, new = self._req(("c",) + tuple(x), min(map(len, x)))
                    if new:
                        for k in x:
                            self._literal.setdefault(k, []).append(q)
                    reqs.append(q)
            for low, name, rests in r["words"]:
                # A whole token from a list says more than any literal; a token prefix less.
                q, new = self._req(("w", low, name, tuple(rests) if rests is not None else None),
                                   100 if rests is not None else 3)
                if new:
                    lists[low].add(name)
                    if rests is None:
                        self._prefix.setdefault((low, name), []).append(q)
                    else:
                        for e in rests:
                            self._exact.setdefault((low, name, e), []).append(q)
                reqs.append(q)
            if not reqs:
                self._always.append(i)
                continue
            self._rule_reqs[i] = reqs
            key = max(reqs, key=self._req_strength.__getitem__)
            # Filed under its strongest requirement, with the others it still needs (most need none).
            self._by_req.setdefault(key, []).append((i, frozenset(reqs) - {key}))
        # word -> the lists holding it, for the two ways the conditions compare (as is, lowered).
        self._words: dict[bool, dict[str, list[str]]] = {False: {}, True: {}}
        for low, names in lists.items():
            for name in sorted(names):
                for w in self.ns[name]:
                    if w:
                        self._words[low].setdefault(w, []).append(name)
        self._longest = {low: max(map(len, d), default=0) for low, d in self._words.items()}
        self._token_reqs: dict[bool, dict[str, tuple[int, ...]]] = {False: {}, True: {}}
        self._automaton = ahocorasick.Automaton()
        for k in self._literal:
            self._automaton.add_word(k, k)
        if self._literal:
            self._automaton.make_automaton()

    def _option_ok(self, r) -> bool:
        return all(o in self.options for o in _OPTION.findall(r["cond"] or ""))

    def _req(self, key: tuple, strength: int) -> tuple[int, bool]:
        q = self._req_ids.get(key)
        if q is not None:
            return q, False
        q = self._req_ids[key] = len(self._req_strength)
        self._req_strength.append(strength)
        return q, True

    def _present(self, text: str) -> set[int]:
        """The requirements ``text`` meets: one automaton pass for the literals, and each
        token's prefixes looked up in the word lists."""
        out: set[int] = set()
        if self._literal:
            for _, k in self._automaton.iter(text):
                out.update(self._literal[k])
        for low in (False, True):
            if not self._words[low]:
                continue
            memo = self._token_reqs[low]
            for t in set(_TOKEN.findall(text.lower() if low else text)):
                got = memo.get(t)
                if got is None:
                    got = memo[t] = self._token_requirements(low, t)
                out.update(got)
        return out

    def _token_requirements(self, low: bool, t: str) -> tuple[int, ...]:
        """The word-list requirements one token meets (a text's tokens repeat: memoised)."""
        words, got = self._words[low], set()
        for k in range(1, min(len(t), self._longest[low]) + 1):
            names = words.get(t[:k])
            if names:
                rest = t[k:]
                for n in names:
                    got.update(self._prefix.get((low, n), ()))
                    got.update(self._exact.get((low, n, rest), ()))
        return tuple(got)

    def candidates(self, text: str) -> list[int]:
        """The rules that can match ``text`` (all their requirements met), in rule order."""
        present = self._present(text)
        out = list(self._always)
        for q in present:
            for i, rest in self._by_req.get(q, ()):
                if rest <= present:
                    out.append(i)
        return sorted(out)

    def _compile(self, i: int):
        c = self._compiled.get(i)
        if c is None:
            r = self.rules[i]
            try:
                c = (re.compile(r["pattern"]),
                     compile(r["cond"].strip(), f"<lightproof {i}>", "eval") if r["cond"] else None,
                     compile(r["repl"][1:].strip(), f"<lightproof {i}>", "eval") if r["repl"].startswith("=") else None,
                     compile(r["msg"][1:].strip(), f"<lightproof {i}>", "eval") if r["msg"].startswith("=") else None)
            except (SyntaxError, re.error, ValueError) as e:
                self.errors.setdefault(i, f"{type(e).__name__}: {e}")
                c = ()
            self._compiled[i] = c
        return c

    def check(self, text: str) -> list[Hit]:
        """Every finding of the active rules in one paragraph, in rule order then position.
        Candidates are the rules whose literals and word lists occur in the text; each rule's
        regex and condition still decide."""
        return [h for i in self.candidates(text) for h in self.run_rule(i, text)]

    def active(self) -> list[int]:
        """Every rule this instance runs (its families, its options), in rule order."""
        return sorted(set(self._always) | set(self._rule_reqs))

    def run_rule(self, i: int, text: str) -> list[Hit]:
        """Rule ``i`` over one paragraph, as the runtime's ``proofread()`` does."""
        c = self._compile(i)
        if not c:
            return []
        rx, cond, repl, msg = c
        r = self.rules[i]
        hits = []
        for m in rx.finditer(text):
            env = {"m": m, "TEXT": text, "LOCALE": self.locale}
            try:
                if cond is not None and not eval(cond, self.ns, env):  # noqa: S307 - the package's rules
                    continue
                if repl is not None:
                    sugg = str(eval(repl, self.ns, env)).replace("|", "\n").split("\n")  # noqa: S307
                elif r["repl"] == "_":
                    sugg = []
                else:
                    sugg = m.expand(r["repl"]).replace("|", "\n").split("\n")
                comment = str(eval(msg, self.ns, env)) if msg is not None else m.expand(r["msg"])  # noqa: S307
            except Exception as e:  # one rule's bug (a bad group name, Calc) costs that match only
                self.errors.setdefault(i, f"{type(e).__name__}: {e}")
                continue
            if r["cap"] and m.group(0)[:1].isupper():  # the runtime's cap(): "(?iu)" rules
                sugg = ["I" + s[1:] if s[:1] == "i" else s.capitalize() for s in sugg]
            short = comment.replace("|", "\n").replace("\\n", "\n").split("\n")[0].strip()
            hits.append(Hit(m.start(), m.end(), i, r["family"], short, tuple(s for s in sugg if s)))
        return hits


@lru_cache(maxsize=4)
def load(folder: str, pkg: str, lang: str, options: tuple | None = None, families: tuple | None = None,
         extra: tuple = ()) -> Lightproof:
    """One :class:`Lightproof` per rule set, options, families and extra rules, per process."""
    files = find_rule_files([folder], pkg)
    if files is None:
        raise FileNotFoundError(f"no Lightproof rules lightproof_{pkg}.py under {folder}")
    return Lightproof(files, lang, options, families, extra)

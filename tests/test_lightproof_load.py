"""Loading a Lightproof rule set fast: the runtime without its ``uno`` imports, and the rule index
built for the rules a run selects and cached per selection (issue 24, acceptance 6).

The fixture tests need no LibreOffice package; the others run when the pt-BR rules are installed.
"""

from __future__ import annotations

import ast
import os
import re
import sys
import traceback

import pytest

from pipeline.align import lightproof as L
from pipeline.profiles import grammar as GP

FILES = L.find_rule_files(GP.PT.search_folders(), GP.PT.pkg)
needs_rules = pytest.mark.skipif(FILES is None, reason="Lightproof pt-BR rules not installed "
                                 "(Debian libreoffice-lightproof-pt-br; .ci/run unpacks it)")

RUNTIME = '''\
import uno, re, sys, os, traceback
from com.sun.star.text.TextMarkupType import PROOFREADING
from com.sun.star.beans import PropertyValue as PV
import lightproof_handler_xx_XX
WORDS = {"casa", "carta"}
PAT = re.compile("x+")
def uses_uno():
    return uno.getComponentContext()
def joined(x):
    return os.sep.join([x, x])
'''
RULES = r'''dic = [[r"(?u)\b(?P<a>[Aa]s) (?P<b>\w+)\b", "=m.group(1)", "Não há concordância entre as palavras.",
         "m.group('b') in WORDS"],
        [r"(?iu)\bz+\b", "y", "Outra coisa.", False],
        [r"(?u)\bqq\b", "q", "Opcional.", 'option(LOCALE, "extra")']]
'''

#: The runtime's helpers the loader replaces (LibreOffice's spell checker, options, Calc).
HELPERS = ("option", "spell", "suggest", "stem", "morph", "affix", "generate", "calc")


@pytest.fixture
def rule_files(tmp_path, monkeypatch):
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / "cache"))
    d = tmp_path / "lightproof_xx_xx" / "pythonpath"
    d.mkdir(parents=True)
    (d / "lightproof_impl_xx_XX.py").write_text(RUNTIME, encoding="utf-8")
    (d / "lightproof_xx_XX.py").write_text(RULES, encoding="utf-8")
    (d / "lightproof_opts_xx_XX.py").write_text('lopts = {"xx_XX": ["extra"]}\nlopts_default = {"xx_XX": []}\n',
                                               encoding="utf-8")
    return L.find_rule_files([d.parent], "xx_XX")


def _stripped_namespace(files) -> dict:
    """The runtime's namespace as the module would have it with its import statements removed
    (how the loader used to read it, through the module's ``ast``)."""
    tree = ast.parse(files.impl.read_text(encoding="utf-8-sig"))
    tree.body = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))]
    ns = {"__name__": f"lightproof_impl_{files.pkg}", "re": re, "os": os, "sys": sys, "traceback": traceback}
    exec(compile(tree, str(files.impl), "exec"), ns)  # noqa: S102 - test fixture / the package's code
    return ns


def _same_namespace(a: dict, b: dict) -> None:
    assert set(a) - {"__builtins__"} == set(b) - {"__builtins__"}
    for k, v in a.items():
        if k == "__builtins__":
            continue
        w = b[k]
        if isinstance(v, re.Pattern):
            assert (v.pattern, v.flags) == (w.pattern, w.flags), k
        elif callable(v) and hasattr(v, "__code__"):
            # Not the bytecode: a method call on an imported module's name compiles otherwise.
            assert (v.__code__.co_names, v.__code__.co_varnames, v.__defaults__) == \
                (w.__code__.co_names, w.__code__.co_varnames, w.__defaults__), k
        else:
            assert v == w, k


def test_runtime_imports_are_left_out_and_the_rest_kept(rule_files):
    ns = L.load_runtime(rule_files, frozenset(), L.HunspellMorphology("pt"))
    for name in ("uno", "PROOFREADING", "PV", "lightproof_handler_xx_XX"):
        assert name not in ns
    assert ns["WORDS"] == {"casa", "carta"} and ns["PAT"].pattern == "x+"
    assert ns["joined"]("a") == f"a{os.sep}a"  # the module's functions import and run as usual
    with pytest.raises(NameError):
        ns["uses_uno"]()  # as when the import statement is not there
    import json  # after the body, an import in the runtime's functions is a real one
    assert eval("__import__('json')", ns) is json  # noqa: S307 - test of the namespace's builtins
    _same_namespace(ns, {**_stripped_namespace(rule_files), **{k: ns[k] for k in HELPERS}})


def test_index_holds_the_selected_rules_and_is_cached_per_selection(rule_files, tmp_path, monkeypatch):
    lp = L.Lightproof(rule_files, "pt")
    # Rule 2's option is off by default: it is not selected, so the index does not read it.
    assert lp.rules[2] is None and lp.active() == [0, 1]
    assert lp.rules[0]["words"] == [[False, "WORDS", [""]]]
    assert [(h.start, h.end) for h in lp.check("as carta e zz")] == [(0, 8), (11, 13)]
    cached = sorted((tmp_path / "cache" / "lightproof").iterdir())
    assert len(cached) == 1 and cached[0].suffix == ".marshal"

    def no_build(*_a, **_k):
        raise AssertionError("the index was rebuilt although it is cached")

    monkeypatch.setattr(L, "build_index", no_build)
    again = L.Lightproof(rule_files, "pt")
    assert again.rules == lp.rules and again.active() == lp.active()
    monkeypatch.undo()
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / "cache"))
    # Another selection (families, options) is another index, with its own rules read.
    fam = lp.rules[0]["family"]
    one = L.Lightproof(rule_files, "pt", families=(fam,))
    assert one.active() == [0] and one.rules[1] is None
    both = L.Lightproof(rule_files, "pt", options=("extra",))
    assert both.active() == [0, 1, 2] and both.rules[2]["reqs"] == [["qq"]]
    assert len(list((tmp_path / "cache" / "lightproof").iterdir())) == 3
    # A damaged cache file is rebuilt, not trusted.
    cached[0].write_bytes(b"\x00garbage")
    assert L.Lightproof(rule_files, "pt").rules == lp.rules


@needs_rules
def test_real_runtime_namespace_is_the_module_without_its_imports():
    ns = L.load_runtime(FILES, frozenset(), L.HunspellMorphology("pt"))
    ref = _stripped_namespace(FILES)
    _same_namespace(ns, {**ref, **{k: ns[k] for k in HELPERS}})
    assert len([v for v in ref.values() if isinstance(v, (set, dict))]) > 100  # the word lists are there


@needs_rules
def test_selected_index_is_the_full_index_on_the_selected_rules():
    """The rules a selection keeps have the entries the whole file's index gives them."""
    ns = L.load_runtime(FILES, frozenset(), L.HunspellMorphology("pt"))
    kept = set(GP.PT.kept())

    def select(r):
        return r["family"] in kept

    part = L.build_index(FILES, ns, select)["rules"]
    ns_all = L._exec_rules(FILES)
    lists = L.word_lists(ns)
    assert len(part) == len(ns_all)
    chosen = [i for i, r in enumerate(part) if r is not None]
    assert 4000 < len(chosen) < len(part) / 2
    for i, r in enumerate(ns_all):
        if part[i] is None:
            assert not select(L.rule_head(r))
        else:
            assert part[i] == L.rule_entry(r, lists)

"""Code health (issue 11): no import cycles between modules or packages (issue 29), one
rule-number pattern, language facts in the profiles, one bounded reader for every input, and
the pseudo-translation wording per language.

The structural tests read the source with ``ast`` (nothing is imported), so they hold for
code paths the other tests never run.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "pipeline"


def _modules(pkg: Path = PKG) -> dict[str, tuple[Path, bool]]:
    out = {}
    for f in sorted(pkg.rglob("*.py")):
        parts = list(f.relative_to(pkg.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        out[".".join(parts)] = (f, is_pkg)
    return out


def import_graph(pkg: Path = PKG) -> nx.DiGraph:
    """Module -> module it imports, for every import statement anywhere in the module
    (top level, inside functions, under ``if TYPE_CHECKING``)."""
    mods = _modules(pkg)
    g = nx.DiGraph()
    for name, (f, is_pkg) in mods.items():
        g.add_node(name)
        base = name.split(".") if is_pkg else name.split(".")[:-1]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    m = ".".join(base[: len(base) - (node.level - 1)] + ([node.module] if node.module else []))
                else:
                    m = node.module or ""
                subs = [f"{m}.{a.name}" for a in node.names]
                # "from . import x" imports the submodule x; the package itself only for other names.
                targets = [t for t in subs if t in mods]
                if len(targets) < len(subs):
                    targets.append(m)
            else:
                continue
            for t in targets:
                # "import pipeline.a.b" names the module; walk up to the nearest known one.
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != name:
                    g.add_edge(name, t, line=node.lineno)
    return g


def test_the_import_graph_sees_function_level_imports():
    g = import_graph()
    assert g.number_of_nodes() > 100
    # cli.py loads the command modules by name, but commands import the stages inside their functions.
    assert g.has_edge("pipeline.commands.parse", "pipeline.ingest.loader")


def test_no_import_cycles():
    g = import_graph()
    cycles = [sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1]
    assert cycles == [], "import cycles: " + "; ".join(
        " -> ".join(nx.find_cycle(g.subgraph(c))[i][0] for i in range(len(c))) for c in cycles)


def package_of(module: str) -> str:
    """A module's package node: the first component under ``pipeline`` (``pipeline.diff.history``
    -> ``diff``).  A top-level module is a node of its own (``pipeline.model`` -> ``model``),
    not one ``pipeline`` node: the top level holds both the shared base every stage reads
    (errors, io, model, text, rulenum, codekey, decode) and the entry points that read every
    stage (cli, build, render), so one node for them all would be a cycle through every
    package while no code goes round one.  The package's own ``__init__`` is ``pipeline``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def package_graph(g: nx.DiGraph) -> nx.DiGraph:
    """Package -> package it imports (from :func:`import_graph`: function-level imports
    count), each edge with the module imports behind it as ``via``."""
    pg = nx.DiGraph()
    pg.add_nodes_from(package_of(m) for m in g)
    for a, b, d in g.edges(data=True):
        pa, pb = package_of(a), package_of(b)
        if pa != pb:
            pg.add_edge(pa, pb)
            pg.edges[pa, pb].setdefault("via", []).append(f"{a} -> {b} (line {d['line']})")
    return pg


def package_cycles(pg: nx.DiGraph) -> list[str]:
    """Each cycle between packages, one line each, with the imports that close it."""
    out = []
    for comp in sorted((sorted(c) for c in nx.strongly_connected_components(pg) if len(c) > 1)):
        cycle = nx.find_cycle(pg.subgraph(comp), source=comp[0])
        out.append(" -> ".join([a for a, _ in cycle] + [cycle[0][0]]) + ": " + "; ".join(
            pg.edges[a, b]["via"][0] for a, b in cycle))
    return out


def test_no_package_cycles():
    """Packages are layers along the data's path (issue 29): the shared base (top-level
    modules, profiles) under segment (text -> model) under editions (which edition, the
    shipped archive) under ingest (any input -> model) under diff (numbers across editions,
    the editions a translation is read against) under align, link, xref and their reports,
    with build, cli and commands on top.  An import against that order is a cycle here."""
    pg = package_graph(import_graph())
    assert {"segment", "editions", "ingest", "diff", "align", "report", "model", "build"} <= set(pg)
    cycles = package_cycles(pg)
    assert cycles == [], "package cycles:\n" + "\n".join(cycles)


def test_the_package_cycle_detector_finds_what_it_should(tmp_path):
    root = tmp_path / "pipeline"
    files = {
        "__init__.py": "",
        "model.py": "class Document: ...\n",
        "build.py": "from .a.x import f\nfrom .model import Document\n",
        "a/__init__.py": "",
        "a/x.py": "from ..model import Document\nfrom ..b.y import g\n\ndef f():\n    return g()\n",
        "b/__init__.py": "",
        # The planted cycle is hidden in a function, as a lazy import would hide it.
        "b/y.py": "def g():\n    from ..a import x  # lazy\n    return x\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    pg = package_graph(import_graph(root))
    assert set(pg) == {"pipeline", "model", "build", "a", "b"}
    # model and build are nodes of their own: build -> a -> model is no cycle.
    assert pg.has_edge("build", "a") and pg.has_edge("a", "model") and not pg.has_edge("model", "build")
    (cycle,) = package_cycles(pg)
    assert cycle.startswith("a -> b -> a: ")
    assert "pipeline.a.x -> pipeline.b.y (line 2)" in cycle and "pipeline.b.y -> pipeline.a.x (line 2)" in cycle
    (root / "b/y.py").write_text("def g():\n    return 1\n", encoding="utf-8")
    assert package_cycles(package_graph(import_graph(root))) == []


def test_registries_and_findings_are_leaves():
    g = import_graph()
    assert set(g.successors("pipeline.findings")) <= {"pipeline.serialize"}
    assert set(g.successors("pipeline.serialize")) == set()
    assert set(g.successors("pipeline.engine.registry")) <= {"pipeline.rulenum", "pipeline.serialize"}
    assert set(g.successors("pipeline.errors")) == set()


def _sources(*extra: Path) -> list[Path]:
    files = sorted(PKG.rglob("*.py"))
    for d in extra:
        files += sorted(d.rglob("*.py"))
    return files


# The shapes a hand-written rule-number pattern takes: a first digit 1-9 then two digits,
# three digits, a dot and up to three subrule digits, subrule digits then a letter (also
# with the doubled braces of f-strings).  A page number ("\d{1,3}" alone) is not one.
_RULE_REGEX = re.compile(r"\[1-9\]\\d|\\d\{3\}|\\d\\d\\d|\\\.\\d\{\{?1,3\}|\\d\{\{?1,3\}\}?\)?\(?\[a-z\]"
                         r"|\\d\{\{2\}\}|\\d\{0,2\}")


def test_no_rule_number_regex_outside_rulenum_and_text():
    allowed = {PKG / "rulenum.py", PKG / "text.py"}
    found = []
    for f in _sources(ROOT / "testkit"):
        if f in allowed:
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if _RULE_REGEX.search(line):
                found.append(f"{f.relative_to(ROOT)}:{i}: {line.strip()}")
    assert found == []


def test_the_rule_regex_detector_finds_what_it_should():
    assert _RULE_REGEX.search(r'_X = re.compile(r"[1-9]\d{2}(?:\.\d{1,3}[a-z]?)?")')
    assert _RULE_REGEX.search(r'rf"\brules? \d{3}"')
    assert _RULE_REGEX.search(r're.compile(r"^(\d{1,3})([a-z])?[ \t]+")')
    assert not _RULE_REGEX.search(r'r"(\d{4})-(\d{2})-(\d{2})"')
    assert not _RULE_REGEX.search(r're.compile(r"^\s*\d{1,3}\s*$")')  # a page number


def _lang_comparisons(tree: ast.AST) -> list[int]:
    """Lines comparing a language code with a literal: ``lang == "es"``, ``lang != "en"``,
    ``language in ("pt", "es")``, ``doc.meta.language == "en"``."""
    def is_lang(n):
        name = n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else ""
        return name in ("lang", "language") or name.endswith("_lang")

    def is_literal(n):
        return (isinstance(n, ast.Constant) and isinstance(n.value, str)) or (
            isinstance(n, (ast.Tuple, ast.List, ast.Set)) and n.elts
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in n.elts))

    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(is_lang(s) for s in sides) and any(is_literal(s) for s in sides):
                out.append(node.lineno)
    return out


def test_no_language_branches_outside_the_profiles():
    found = []
    for f in _sources(ROOT / "testkit"):
        if f.is_relative_to(PKG / "profiles"):
            continue
        for line in _lang_comparisons(ast.parse(f.read_text(encoding="utf-8"))):
            found.append(f"{f.relative_to(ROOT)}:{line}")
    assert found == []


def test_the_language_branch_detector_finds_what_it_should():
    assert _lang_comparisons(ast.parse('if lang == "es":\n    pass'))
    assert _lang_comparisons(ast.parse('x = a if ctx.lang != "en" else b'))
    assert _lang_comparisons(ast.parse('ok = language in ("pt", "es")'))
    assert not _lang_comparisons(ast.parse('ok = lang in PROFILES'))


def _language_facts(tree: ast.AST) -> list[tuple[int, str]]:
    """Language facts written as code: a table keyed by language codes (``{"pt": …, "es": …}``),
    a list of language codes, a Hunspell dictionary name (``pt_BR``), month names (a date
    pattern), a plural ending (``"ões"``), a run of a profile's free function words (a
    consistency table).  Docstrings are prose, not facts."""
    from pipeline.profiles import PROFILES

    codes = set(PROFILES)
    months = {m.casefold() for p in PROFILES.values() for m in p.months}
    plurals = {e for p in PROFILES.values() for r in p.plural_rules for e in r if len(e) >= 3}
    free = {w for p in PROFILES.values() for w in p.free_words}
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Dict) and n.keys and all(isinstance(k, ast.Constant) and k.value in codes for k in n.keys):
            out.append((n.lineno, "a table keyed by language"))
        elif isinstance(n, (ast.Set, ast.Tuple, ast.List)) and len(n.elts) >= 2 and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in n.elts):
            vs = [e.value.casefold() for e in n.elts]
            if sum(v in codes for v in vs) >= 2 and all(re.fullmatch(r"[a-z]{2,3}", v) for v in vs):
                out.append((n.lineno, "a list of languages"))
            elif sum(v in months for v in vs) >= 3:
                out.append((n.lineno, "month names"))
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            v = n.value
            ws = re.findall(r"[^\W\d_]+", v.casefold())
            if re.fullmatch(r"[a-z]{2,3}_[A-Z]{2}", v):
                out.append((n.lineno, "a Hunspell dictionary name"))
            elif len(set(ws) & months) >= 2:
                out.append((n.lineno, "month names"))
            elif v in plurals:
                out.append((n.lineno, "a plural ending"))
            elif len(ws) >= 3 and len(set(ws) & free) >= 3 and len(set(ws) & free) > 0.6 * len(set(ws)):
                out.append((n.lineno, "free function words"))
    return out


def test_no_language_facts_outside_the_profiles():
    """Dates and months, consistency tables, Hunspell names and plural rules live in the
    profiles (issue 28): a new language is a new profile, not edits across the package."""
    found = []
    for f in _sources(ROOT / "testkit"):
        if f.is_relative_to(PKG / "profiles"):
            continue
        for line, what in _language_facts(ast.parse(f.read_text(encoding="utf-8"))):
            found.append(f"{f.relative_to(ROOT)}:{line}: {what}")
    assert found == []


def test_the_language_fact_detector_finds_what_it_should():
    def kinds(src):
        return {w for _, w in _language_facts(ast.parse(src))}

    assert kinds('NAMES = {"pt": ("x",), "es": ("y",)}') == {"a table keyed by language"}
    assert kinds('DAY_FIRST = frozenset({"pt", "es", "ru"})') == {"a list of languages"}
    assert kinds('d = "pt_BR"') == {"a Hunspell dictionary name"}
    assert kinds('M = ("janeiro", "fevereiro", "março")') == {"month names"}
    assert kinds('P = r"(?:January|February) \\d{1,2}"') == {"month names"}
    assert kinds('alts.append(w[:-2] + "ões")') == {"a plural ending"}
    assert kinds('FREE = "este esta estes estas esse essa"') == {"free function words"}
    assert kinds('"""Dates: January, February."""\nx = 1') == set()
    assert kinds('ok = lang in PROFILES and w.endswith("s")') == set()


#: Reads that are not of an input, each with the reason.  Everything else that opens a file
#: goes through ``pipeline.io`` (``read_bounded`` and its text, gzip and cache forms).
NOT_AN_INPUT = {
    ("pipeline/align/termbase.py", "load"): "yaml.load of the text read_bounded_text returned, with a safe loader "
                                            "(libyaml's, which yaml.safe_load cannot be given)",
    ("pipeline/ingest/docx.py", "open"): "a member of a DOCX already read through read_bounded, bounded by its declared size",
    ("pipeline/net.py", "open"): "a download (the build's reference, the user's URL for 'editions add'): read up "
                                  "to the caller's bound, then checked by the caller (sha256, an official edition)",
    ("pipeline/swap.py", "open"): "os.open of the build's lock file: held for flock, never read as input",
}
_READS = {"open", "read_bytes", "read_text", "load", "urlopen"}


def _file_reads(tree: ast.AST) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
        if name not in _READS:
            continue
        if name == "load" and not (isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name)
                                   and fn.value.id in ("json", "pickle", "marshal", "yaml")):
            continue
        out.append((node.lineno, name))
    return out


def test_no_file_is_opened_outside_the_bounded_reader():
    found = []
    for f in _sources():
        rel = f.relative_to(ROOT).as_posix()
        if rel == "pipeline/io.py":
            continue
        for line, name in _file_reads(ast.parse(f.read_text(encoding="utf-8"))):
            if (rel, name) not in NOT_AN_INPUT:
                found.append(f"{rel}:{line}: {name}(")
    assert found == []


def test_the_file_read_detector_finds_what_it_should():
    assert _file_reads(ast.parse('with open(p) as f:\n    json.load(f)')) == [(1, "open"), (2, "load")]
    assert _file_reads(ast.parse('data = path.read_bytes()'))
    assert _file_reads(ast.parse('t = Path(x).read_text(encoding="utf-8")'))
    assert not _file_reads(ast.parse('d = json.loads(s)'))


def test_the_bounded_reader_honours_the_limit(tmp_path, monkeypatch):
    from pipeline.errors import InputError
    from pipeline.io import read_bounded, read_bounded_text
    from pipeline.segment.official import parse_file

    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * ((1 << 20) + 1))
    monkeypatch.setenv("CRPIPE_MAX_INPUT_MB", "1")
    for read in (read_bounded, read_bounded_text, parse_file):
        with pytest.raises(InputError, match="CRPIPE_MAX_INPUT_MB"):
            read(big)
    assert read_bounded(big, limit=10, truncate=True) == b"x" * 10


def test_an_archive_skips_an_edition_over_the_limit(tmp_path, monkeypatch):
    from pipeline.diff.history import EditionArchive, _quick_meta

    (tmp_path / "2020-01-01.txt").write_bytes(b"x" * ((1 << 20) + 1))
    monkeypatch.setenv("CRPIPE_MAX_INPUT_MB", "1")
    assert "CRPIPE_MAX_INPUT_MB" in _quick_meta(tmp_path / "2020-01-01.txt")["error"]
    from pipeline.errors import InputError

    with pytest.raises(InputError, match="no readable"):
        EditionArchive(tmp_path, cache_dir=tmp_path / "cache")


def test_engine_and_rule_number_errors_are_crpipe_errors():
    from pipeline.engine.errors import EngineError, IllegalAction
    from pipeline.errors import CrpipeError
    from pipeline.rulenum import RuleNumber, RuleNumberError

    assert issubclass(EngineError, CrpipeError) and issubclass(IllegalAction, CrpipeError)
    with pytest.raises(CrpipeError):
        RuleNumber.parse("not a rule")
    assert issubclass(RuleNumberError, ValueError)  # callers that catch ValueError still work


def test_severity_is_a_closed_vocabulary():
    from pipeline.findings import Check, Severity

    assert [s.value for s in Severity] == ["error", "warning", "info"]
    assert Check("x.y", "structure", "warning", "…").severity is Severity.WARNING
    with pytest.raises(ValueError):
        Check("x.y", "structure", "fatal", "…")


def test_the_rule_number_patterns_come_from_rulenum():
    from pipeline import text
    from pipeline.rulenum import RULE_NUMBER_RE

    assert re.fullmatch(text.NUMBER, "702.79a") and re.fullmatch(text.NUMBER, "702")
    assert not re.fullmatch(text.NUMBER, "099.1")
    assert re.fullmatch(text.SUBRULE, "601.2f") and not re.fullmatch(text.SUBRULE, "601")
    assert text.RULE in RULE_NUMBER_RE.pattern
    assert text.fold("Ação’s  Árvore") == "acao's arvore"


# -- the pseudo-translation's wording (testkit/pseudo.py) ----------------------------------

def test_pseudo_translation_cites_rules_in_each_languages_own_wording():
    from testkit.pseudo import see_rule

    assert see_rule("pt", "601.2") == "consulte a regra 601.2"
    assert see_rule("es", "601.2") == "véase la regla 601.2"
    # Any other language had Spanish wording ("(see la rule …)"); English has its own.
    assert see_rule("en", "601.2") == "see rule 601.2"
    assert see_rule("fr", "601.2") == "see rule 601.2"  # no profile: English, never Spanish


def test_the_profiles_hold_the_language_facts():
    from pipeline.profiles import PROFILES

    en, pt, es = PROFILES["en"], PROFILES["pt"], PROFILES["es"]
    assert en.official and not pt.official and not es.official
    assert es.inverted_marks and not pt.inverted_marks
    assert es.quotes == ("«", "»") and pt.quotes == ("“", "”")
    assert dict(pt.number_words)["duas"] == 2 and dict(es.number_words)["dos"] == 2
    assert pt.spelling_variant == "pt-BR"


def test_the_serializer_leaves_out_what_the_fields_say():
    from pipeline.findings import Issue, Severity
    from pipeline.model import Finding, Layout

    i = Issue("a.b", "anchors", Severity.INFO, None, "m", span=(1, 2))
    assert i.to_dict() == {"check": "a.b", "category": "anchors", "severity": "info", "rule": None,
                           "message": "m", "span": [1, 2], "base_id": None}
    assert type(i.to_dict()["severity"]) is str
    assert Finding("k", "d", "error", line=3).to_dict() == {"kind": "k", "detail": "d", "severity": "error", "line": 3}
    assert Layout().to_dict() == {} and Layout(head=". ", breaks=[(3, "\n")]).to_dict() == {"head": ". ", "breaks": [[3, "\n"]]}


def test_function_level_imports_say_why():
    """An import inside a function hides a dependency: allowed only for a heavy or optional
    package, or a command's lazily loaded stage, with the reason on the line."""
    found = []
    for f in _sources():
        lines = f.read_text(encoding="utf-8").splitlines()
        for fn in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if isinstance(node, (ast.Import, ast.ImportFrom)) and "#" not in lines[node.end_lineno - 1]:
                        found.append(f"{f.relative_to(ROOT)}:{node.lineno}")
    assert found == []


# -- closed vocabularies: enum fields compared with enum members (issue 29) ----------------

_ENUM_BASES = {"Enum", "StrEnum", "IntEnum"}


def _names_in(annotation: ast.expr) -> set[str]:
    """The class names an annotation mentions (``Kind``, ``Kind | None``, ``list[m.Kind]``, ``"Kind"``)."""
    out = set()
    for n in ast.walk(annotation):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            try:
                out |= _names_in(ast.parse(n.value, mode="eval").body)
            except SyntaxError:
                pass
    return out


def enum_fields(trees: list[ast.AST]) -> tuple[dict[str, set[str]], set[str]]:
    """Attribute name -> the values of the enums typed on it (in any class: dataclasses, named
    tuples), and the names some class also types otherwise (``Finding.kind: str`` beside
    ``Change.kind: ChangeKind``)."""
    enums: dict[str, set[str]] = {}
    for tree in trees:
        for n in ast.walk(tree):
            if isinstance(n, ast.ClassDef) and any(
                    (b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "") in _ENUM_BASES
                    for b in n.bases):
                enums[n.name] = {s.value.value for s in n.body if isinstance(s, ast.Assign)
                                 and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)}
    typed: dict[str, set[str]] = {}
    other: set[str] = set()
    for tree in trees:
        for n in ast.walk(tree):
            if not isinstance(n, ast.ClassDef) or n.name in enums:
                continue
            for s in n.body:
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
                    hit = _names_in(s.annotation) & set(enums)
                    if hit:
                        typed.setdefault(s.target.id, set()).update(*(enums[e] for e in hit))
                    else:
                        other.add(s.target.id)
    return typed, other & set(typed)


def _enum_literal_comparisons(tree: ast.AST, typed: dict[str, set[str]], ambiguous: set[str]) -> list[tuple[int, str]]:
    """``x.kind == "rule"``, ``x.kind != "rule"``, ``x.kind in ("a", "b")``, ``"a" in (x.kind, y.kind)``,
    ``x.kind.value == "rule"`` where ``kind`` is an enum field.  A name some class also types as
    a plain string counts only when the literal is one of its enum values (else ``Finding.kind
    == "truncated"`` would be flagged)."""
    def field_of(n):
        if isinstance(n, ast.Attribute) and n.attr == "value" and isinstance(n.value, ast.Attribute):
            n = n.value
        return n.attr if isinstance(n, ast.Attribute) and n.attr in typed else None

    def literals(n):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            return [n.value]
        if isinstance(n, (ast.Tuple, ast.List, ast.Set)) and n.elts and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in n.elts):
            return [e.value for e in n.elts]
        return None

    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for a, b in zip(sides, sides[1:]):
            for x, y in ((a, b), (b, a)):
                fields_ = [field_of(x)]
                if isinstance(x, (ast.Tuple, ast.List, ast.Set)):
                    fields_ = [field_of(e) for e in x.elts]
                lits = literals(y)
                for name in fields_:
                    if name and lits is not None and (name not in ambiguous or set(lits) & typed[name]):
                        out.append((node.lineno, name))
    return sorted(set(out))


def test_no_string_literal_is_compared_with_an_enum_field():
    """A closed vocabulary is an enum, compared with its members: ``c.kind == "moved"`` with a
    typo is silently False, ``c.kind == ChangeKind.MOVED`` fails at import."""
    files = _sources(ROOT / "testkit")
    trees = {f: ast.parse(f.read_text(encoding="utf-8")) for f in files}
    typed, ambiguous = enum_fields(list(trees.values()))
    assert {"kind", "status", "level", "part", "severity", "format"} <= set(typed)  # the detector sees the model
    found = [f"{f.relative_to(ROOT)}:{line}: .{name}" for f, tree in trees.items()
             for line, name in _enum_literal_comparisons(tree, typed, ambiguous)]
    assert found == []


def test_the_enum_comparison_detector_finds_what_it_should():
    model = ast.parse(
        "class Kind(StrEnum):\n    RULE = 'rule'\n    GLOSSARY = 'glossary'\n"
        "@dataclass\nclass Change:\n    kind: Kind\n    level: 'Kind | None' = None\n"
        "@dataclass\nclass Finding:\n    kind: str\n    name: str\n")
    typed, ambiguous = enum_fields([model])
    assert typed == {"kind": {"rule", "glossary"}, "level": {"rule", "glossary"}} and ambiguous == {"kind"}

    def hits(src):
        return [name for _, name in _enum_literal_comparisons(ast.parse(src), typed, ambiguous)]

    assert hits('if c.level == "rulee":\n    pass') == ["level"]  # a typo: silently False before
    assert hits('ok = c.level != "rule"') == ["level"]
    assert hits('ok = c.kind in ("rule", "glossary")') == ["kind"]
    assert hits('ok = "rule" in (a.kind, b.kind)') == ["kind"]
    assert hits('ok = c.level.value == "rule"') == ["level"]
    assert hits('ok = f.kind == "truncated"') == []  # Finding.kind is a plain string; "truncated" no Kind
    assert hits('ok = c.kind == Kind.RULE and c.level is Kind.GLOSSARY and c.name == "rule"') == []

"""Issue 16: the citation audit on real citations from six public engine codebases, labelled
by reading the rules' history (tests/data/audit/citations-labelled.json, PROTOCOL.md), and
on the issue's own examples.  Figures on the ``tune`` half and on the whole set are fitted;
the ``test`` half was not looked at while tuning."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit_eval import NON_OK, audit, score
from conftest import EDITIONS, needs_shared

LATEST = "2026-01-16"


@pytest.fixture(scope="module")
def labelled():
    if not (EDITIONS / f"{LATEST}.txt").is_file():
        pytest.skip("shared data not found")
    return audit(EDITIONS)


def _check(res: dict, where: str) -> None:
    st = res["statuses"]
    assert res["found"] == res["citations"], f"{where}: citations not found"
    stale = st["stale-renumbered"]
    assert stale["recall"] >= 0.9, (where, stale)
    for s in NON_OK:
        if st[s]["given"]:
            assert st[s]["precision"] >= 0.9, (where, s, st[s])
    assert res["false_alarms"] * 200 <= res["ok"], (where, res["false_alarms"], res["ok"])
    assert res["unlabelled_not_ok"] == 0, where


@needs_shared
def test_labelled_set_whole_and_held_out(labelled):
    items, rep = labelled
    whole = score(items, rep)
    _check(whole, "whole set (fitted)")
    held_out = score([it for it in items if it["split"] == "test"], rep)
    _check(held_out, "held-out half")
    assert held_out["successor_right"] >= 0.9 * held_out["successor_total"]
    assert len({it["repo"] for it in items}) >= 5 and len(items) >= 300


# -- the issue's examples, against the latest edition with every edition's history ----------

@pytest.fixture(scope="module")
def resolve_line():
    if not (EDITIONS / f"{LATEST}.txt").is_file():
        pytest.skip("shared data not found")
    from conftest import edition
    from pipeline.audit.history import RuleHistory
    from pipeline.audit.report import _resolve_file
    from pipeline.audit.resolve import Resolver
    from pipeline.audit.scan import scan_text

    resolver = Resolver(edition(LATEST), RuleHistory(EDITIONS))

    def run(text: str, fam: str = "slash"):
        raw = scan_text(text, fam)
        return {rc.cited: r for rc, r in zip(raw, _resolve_file(resolver, raw))}
    return run


@needs_shared
@pytest.mark.parametrize("line, cited, status, suggested", [
    ("// CR 701.8: Discard", "701.8", "stale-renumbered", "701.9"),
    ("// CR 702.81: Devour N", "702.81", "stale-renumbered", "702.82"),
    ("// CR 702.34a: Madness — alternative cost", "702.34a", "stale-renumbered", "702.35a"),
    ("// CR 500.4: unspent mana empties from mana pools as steps end (phase drain)", "500.4", "stale-renumbered", "500.5"),
    ("// CR 310: Battle — a permanent type introduced in March of the Machine", "310", "ok", None),
    ("// CR 615: shields prevent damage before it is dealt", "615", "ok", None),
    ("// CR 601.2 governs spell casting", "601.2", "ok", None),
    ("// CR 702.19b: trample assigns lethal damage to blockers", "702.19b", "ok", None),
    ("// CR 702.90a: exalted triggers when a creature attacks alone", "702.90a", "wrong-topic", "702.83a"),
    ("// CR 701.10: Exile via ChangeZone", "701.10", "stale-renumbered", "701.13"),
    ("// CR 702.84a: exile cards from the top until you exile a nonland card (cascade)", "702.84a", "stale-renumbered", "702.85a"),
])
def test_issue_examples(resolve_line, line, cited, status, suggested):
    r = resolve_line(line)[cited]
    assert (r.status, r.suggested) == (status, suggested), r.evidence


@needs_shared
def test_outdated_quote_names_edition_and_differing_words(resolve_line):
    r = resolve_line('// CR 202.3e: "When calculating the converted mana cost of an object with an {X} in its mana cost"')["202.3e"]
    assert r.status == "outdated-quote" and r.suggested == "202.3e" and r.numbering[:4].isdigit()
    assert "converted mana cost" in r.evidence and "mana value" in r.evidence, r.evidence
    # The evidence shows where quote and rule part, not the same truncated beginning twice.
    quoted, _, now = r.evidence.partition("where the rule now reads")
    assert now and quoted.split("reworded since:")[-1].strip()[:40] != now.strip()[:40]


@needs_shared
def test_dated_notes_and_quoted_blocks_follow_their_edition(resolve_line):
    got = resolve_line("        //20091005 - 500.4/703.4n")
    assert got["500.4"].status == "stale-renumbered" and got["500.4"].suggested == "500.5"
    assert got["703.4n"].suggested == "703.4q"
    block = ("/**\n * 702.33. Madness\n *\n * 702.33b. Casting a spell using its madness ability follows the rules for\n"
             " * paying alternative costs in rules 601.2b and 601.2e-g.\n */")
    got = resolve_line(block)
    assert (got["702.33"].status, got["702.33"].suggested) == ("stale-renumbered", "702.35")
    assert got["702.33b"].status == "outdated-quote" and got["702.33b"].suggested == "702.35b"
    assert got["601.2b"].status == "ok"
    assert [(got[n].status, got[n].suggested) for n in ("601.2e", "601.2f", "601.2g")] == [
        ("stale-renumbered", "601.2f"), ("stale-renumbered", "601.2g"), ("stale-renumbered", "601.2h")]
    assert "601.2e-g: 3 of 3 members need attention" in got["601.2e"].evidence


# -- issue 30: the three misses an engine author met, and the forms they write -----------------

PERSIST_JAVA = """package engine;

/** Persist, see 702.78 persist. */
public class Persist {
    // see 702.78 persist
    // 702.78a: when it dies with no -1/-1 counters, return it
    void onDies() {}
}
"""


@pytest.fixture(scope="module")
def resolve_file(resolve_line):
    from conftest import edition
    from pipeline.audit.history import RuleHistory
    from pipeline.audit.report import _resolve_file
    from pipeline.audit.resolve import Resolver
    from pipeline.audit.scan import scan_text

    resolver = Resolver(edition(LATEST), RuleHistory(EDITIONS))

    def run(text: str, fam: str, name: str):
        raw = scan_text(text, fam, name)
        return [(rc.line, rc.cited, r) for rc, r in zip(raw, _resolve_file(resolver, raw))]
    return run


@needs_shared
def test_issue30_persist_forms_are_stale_renumbered(resolve_file):
    got = [(ln, n, r.status, r.suggested) for ln, n, r in resolve_file(PERSIST_JAVA, "slash", "Persist.java")]
    assert got == [(3, "702.78", "stale-renumbered", "702.79"), (5, "702.78", "stale-renumbered", "702.79"),
                   (6, "702.78a", "stale-renumbered", "702.79a")]
    py = "# Persist, see 702.78 persist.\n# 702.78a persist\n# 702.78 persist\n"
    got = [(n, r.status, r.suggested) for _, n, r in resolve_file(py, "hash", "persist.py")]
    assert got == [("702.78", "stale-renumbered", "702.79"), ("702.78a", "stale-renumbered", "702.79a"),
                   ("702.78", "stale-renumbered", "702.79")]


@needs_shared
def test_issue30_scope_names_the_rule_and_exalted_lower_case_is_wrong_topic(resolve_file):
    # A bare number in a class named Persist: the class names the keyword.
    (_, _, r), = resolve_file("public class Persist {\n    // 702.78a\n}\n", "slash", "Persist.java")
    assert (r.status, r.suggested, r.basis) == ("stale-renumbered", "702.79a", "scope"), r.evidence
    # The same number where the class says Conspire, its title now: ok.
    (_, _, r), = resolve_file("public class Conspire {\n    // 702.78a\n}\n", "slash", "Conspire.java")
    assert r.status == "ok", r.evidence
    # Lower-case topic words after a lettered number count.
    (_, _, r), = resolve_file("def exalted():\n    # 702.90a: exalted triggers when a creature attacks alone\n",
                              "hash", "keywords.py")
    assert (r.status, r.suggested) == ("wrong-topic", "702.83a"), r.evidence
    # A test function's name is the topic of the numbers its string literals cite.
    src = 'fn test_persist_returns_with_a_counter() {\n    cr!("702.78a", "704.5f");\n}\n'
    got = {n: (r.status, r.suggested) for _, n, r in resolve_file(src, "slash", "persist_test.rs")}
    assert got == {"702.78a": ("stale-renumbered", "702.79a"), "704.5f": ("ok", None)}


@needs_shared
def test_issue30_an_exact_old_quote_is_outdated_even_when_today_is_close(resolve_line):
    r = resolve_line('# CR 202.3e: "When calculating the converted mana cost of an object with an {X} in its mana '
                     'cost, X is treated as 0 while the object is not on the stack"', "hash")["202.3e"]
    assert (r.status, r.suggested) == ("outdated-quote", "202.3e"), r.evidence
    assert r.numbering and r.numbering.endswith("2021-02-24"), r.numbering  # the pre-2021 wording
    # Today's wording quoted is ok.
    r = resolve_line('# CR 202.3e: "When calculating the mana value of an object with an {X} in its mana cost, '
                     'X is treated as 0 while the object is not on the stack"', "hash")["202.3e"]
    assert r.status == "ok", r.evidence


@needs_shared
def test_issue30_held_out_half_of_batch_2_and_the_whole_held_out_half(labelled):
    """Acceptance 2: on the held-out half (both batches), stale-renumbered recall >= 0.95 and no
    ok citation flagged; batch 2's held-out half on its own: every citation found, none flagged."""
    items, rep = labelled
    held_out = score([it for it in items if it["split"] == "test"], rep)
    assert held_out["statuses"]["stale-renumbered"]["recall"] >= 0.95, held_out["statuses"]["stale-renumbered"]
    assert held_out["false_alarms"] == 0, [e for e in held_out["errors"] if e[4] == "ok"]
    b2 = score([it for it in items if it["split"] == "test" and it.get("batch") == 2], rep)
    assert b2["found"] == b2["citations"] and b2["false_alarms"] == 0

"""The diff on real edition pairs from the shared archive (acceptance 1, 2 and 6)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from conftest import EDITIONS, edition, needs_shared
from pipeline.cli import app
from pipeline.diff import diff_documents
from pipeline.diff.report_md import render_markdown
from pipeline.diff.text import normalize

pytestmark = needs_shared

CMC = re.compile(r"converted mana costs?", re.I)


@pytest.fixture(scope="module")
def mv_diff():
    return diff_documents(edition("2021-02-24"), edition("2021-04-19"))


def test_mana_value_rewording_is_modified_not_removed_and_added(mv_diff):
    old, new = edition("2021-02-24"), edition("2021-04-19")
    renamed = [r.id for r in old.rules if CMC.search(r.text)]
    assert len(renamed) >= 15
    for oid in renamed:
        nid = mv_diff.pairs.get(oid)
        assert nid is not None, f"{oid} was not matched"
        changes = mv_diff.find(old=oid, part="rule")
        assert [c.kind for c in changes] in (["modified"], ["moved_modified"]), oid
        # the word diff carries the rename
        removed = " ".join(t for op, t in changes[0].word_diff if op == "-")
        if "mana value" in new.rule(nid).text:
            assert "converted" in removed
    # nothing was removed because of the rename, and examples are diffed too
    assert not [c for c in mv_diff.changes if c.kind == "removed" and c.old_text and CMC.search(c.old_text)]
    examples = [(r.id, k) for r in old.rules for k, e in enumerate(r.examples) if CMC.search(e.text)]
    assert len(examples) >= 5
    for oid, k in examples:
        ex = [c for c in mv_diff.find(old=oid, part="example") if c.example["old"] == k + 1]
        assert [c.kind for c in ex] == ["modified"] and "mana value" in ex[0].new_text, (oid, k)
    gl = mv_diff.find(old="Converted Mana Cost", part="glossary")
    assert [(c.kind, c.new) for c in gl] == [("moved", "Mana Value")]


def test_persist_moves_with_its_subrules(mv_diff):
    assert mv_diff.pairs["702.78"] == "702.79"
    old = edition("2021-02-24")
    for sub in old.rule("702.78").children:
        assert mv_diff.pairs[sub] == "702.79" + sub[len("702.78"):]
        assert mv_diff.renumbering[sub] == mv_diff.pairs[sub]
    assert [c.kind for c in mv_diff.find(old="702.78a")] == ["moved"]
    # the keyword cascade is summarised once, not listed as hundreds of changes
    cascade = next(c for c in mv_diff.cascades if ("702.78", "702.79") in c.moves)
    assert cascade.step == 1 and len(cascade.moves) > 300
    listed = mv_diff.to_dict()["changes"]
    assert not any(c["old"] == "702.78a" for c in listed)
    assert any(c["old"] == "702.78a" for c in mv_diff.to_dict(expand_moves=True)["changes"])
    assert {"old": "702.78", "new": "702.79"} in mv_diff.to_dict()["renumbering"]
    # ward (inserted at 702.21) and demonstrate (appended) are the new keywords
    assert [c.new for c in mv_diff.changes if c.kind == "added" and (c.new or "").startswith("702.")] == \
        ["702.21", "702.21a", "702.144", "702.144a"]


def test_reference_only_updates_are_flagged(mv_diff):
    c = mv_diff.find(old="116.2h")[0]  # "See rule 702.142, Foretell" -> 702.143
    assert c.kind == "modified" and c.refs_only
    assert [(op, t) for op, t in c.word_diff if op != "="] == [("-", "702.142"), ("+", "702.143")]
    real = mv_diff.find(old="121.2c")[0]
    assert real.kind == "modified" and not real.refs_only


def test_summary_next_to_plain_line_diff(mv_diff):
    s = mv_diff.summary
    assert s["line_diff"]["lines_changed"] > 2 * s["changes"] - s["moves_in_cascades"]
    md = render_markdown(mv_diff)
    closing = md.rsplit("---", 1)[1]
    assert f"{s['changes']} changes" in closing and f"{s['line_diff']['lines_changed']} changed lines" in closing
    assert "702.21–702.142 renumbered 702.22–702.143 (+1)" in md
    assert "~~converted~~ mana ~~cost~~ **value**" in md
    assert "~~702.142~~**702.143**" in md


def test_costs_move_from_117_to_118_when_tokens_arrive():
    r = diff_documents(edition("2019-06-12"), edition("2019-07-12"))
    assert r.pairs["117.9d"] == "118.9d"
    assert [c.kind for c in r.find(old="117.9d")] == ["moved"]
    old = edition("2019-06-12")
    for rule in old.rules:
        if rule.id.startswith("117"):
            assert r.pairs[rule.id] == "118" + rule.id[3:], rule.id
    line = next(c.line for c in r.cascades if ("117", "118") in c.roots)
    assert line.startswith("111–121 renumbered 112–122 (+1)")
    assert r.find(new="111", part="title")[0].kind == "added"


def test_copying_moves_from_706_to_707():
    r = diff_documents(edition("2021-06-09"), edition("2021-07-12"))
    assert r.pairs["706.2"] == "707.2"
    assert r.find(new="706", part="title")[0].kind == "added"


def test_a_file_against_itself_has_no_changes():
    doc = edition("2025-11-14")
    r = diff_documents(doc, doc)
    assert r.changes == [] and r.renumbering == {} and r.cascades == []
    assert r.summary["rules_unchanged"] == len(doc.rules)


def test_cli_diff_writes_each_format(tmp_path):
    runner = CliRunner()
    old, new = EDITIONS / "2021-02-24.txt", EDITIONS / "2021-04-19.txt"
    for fmt in ("json", "md", "html"):
        out = tmp_path / f"d.{fmt}"
        res = runner.invoke(app, ["diff", str(old), str(new), "--format", fmt, "--out", str(out)])
        assert res.exit_code == 0, res.output
        text = out.read_text(encoding="utf-8")
        assert "702.143" in text
    html = (tmp_path / "d.html").read_text(encoding="utf-8")
    assert "<del>converted </del>" in html and "<script" not in html
    again = tmp_path / "again.json"
    runner.invoke(app, ["diff", str(old), str(new), "--out", str(again)])
    assert again.read_bytes() == (tmp_path / "d.json").read_bytes()  # deterministic


def test_cli_diff_rejects_a_non_cr_text(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("Shopping list\n\n100 eggs\n101.1 apples\nmilk\n", encoding="utf-8")
    out = tmp_path / "report.json"
    res = CliRunner().invoke(app, ["diff", str(EDITIONS / "2025-11-14.txt"), str(junk), "--out", str(out)])
    assert res.exit_code == 2
    assert res.output.startswith("crpipe: error: ") and "notes.txt" in res.output
    assert res.output.count("\n") == 1 and "Traceback" not in res.output
    assert not out.exists()


def test_unrelated_rules_text_is_refused_not_reported_as_all_changed():
    from pipeline.errors import InputError
    from pipeline.model import Document, Meta, Rule

    fake = Document(Meta(language="en", kind="paste", source_file="fake.txt"),
                    rules=[Rule(f"{100 + i}.1", f"Unrelated sentence number {i} about gardening and soup.", level="subrule")
                           for i in range(40)])
    with pytest.raises(InputError, match="fake.txt.*shares almost no rules"):
        diff_documents(edition("2025-11-14"), fake)


def test_diff_is_typography_blind():
    doc = edition("2025-11-14")
    import copy

    other = copy.deepcopy(doc)
    for r in other.rules:
        r.text = r.text.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    r = diff_documents(doc, other)
    assert r.changes == []
    assert r.summary["typography_only"] > 100
    assert normalize("a \u201cb\u201d") == normalize('a "b"')


def test_stale_references_in_new(mv_diff):
    # The 2021-04-19 glossary still cites 800.4h for last known information; that rule is 800.4i now.
    assert {"in": "glossary:Last Known Information", "ref": "800.4h", "now": "800.4i",
            "reason": "800.4h was renumbered 800.4i"} in mv_diff.stale_references
    # Updated citations are not stale: titles confirm "rule 712, Double-Faced Cards" after 711 -> 712 and
    # 712 -> 713, and the Owner entry cites both the new 111.2 (tokens) and 112.2 (the moved rule).
    assert diff_documents(edition("2021-06-09"), edition("2021-07-12")).stale_references == []
    assert diff_documents(edition("2019-06-12"), edition("2019-07-12")).stale_references == []


def test_json_output_follows_its_schema(mv_diff):
    import json
    from pathlib import Path

    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).parents[1] / "pipeline/data/diff.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(json.dumps(mv_diff.to_dict())), schema)
    jsonschema.validate(json.loads(json.dumps(mv_diff.to_dict(expand_moves=True))), schema)

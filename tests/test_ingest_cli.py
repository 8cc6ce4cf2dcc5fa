"""``crpipe parse`` on every kind of input: detection, overrides, JSON fields, clean errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from pipeline.cli import app
from tests.conftest import CORPUS, EDITIONS, needs_shared

runner = CliRunner()


def _seed(prefix):
    return str(sorted((CORPUS / "seeds").glob(f"{prefix}_*.txt"))[0])


def test_parse_json_has_inferred_numbers_and_language():
    r = runner.invoke(app, ["parse", _seed("001"), "--json", "-"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["meta"]["language"] == "es" and d["meta"]["format"] == "webcard"
    assert [x["inferred_number"] for x in d["rules"]] == [False, True, True, True]
    assert "base_edition" in d["meta"]


@needs_shared
def test_parse_json_base_edition_with_editions_folder():
    r = runner.invoke(app, ["parse", _seed("000"), "--editions", str(EDITIONS), "--json", "-"])
    assert r.exit_code == 0, r.output
    be = json.loads(r.stdout)["meta"]["base_edition"]
    assert (be["first"], be["last"]) == ("2018-08-10", "2019-06-12") and be["evidence"]


def test_lang_and_format_override(tmp_path):
    p = tmp_path / "card.txt"
    p.write_text("Rule 702.78 · Persist\nSubrules\nPersist is a triggered ability.", encoding="utf-8")
    r = runner.invoke(app, ["parse", str(p), "--json", "-"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["rules"][1]["id"] == "702.78a"
    r = runner.invoke(app, ["parse", _seed("000"), "--lang", "es", "--json", "-"])
    assert json.loads(r.stdout)["meta"]["language"] == "es"
    r = runner.invoke(app, ["parse", _seed("000"), "--format", "pdf"])
    assert r.exit_code == 2 and "not a PDF" in r.output


def test_bad_input_one_line_exit_2_no_output(tmp_path):
    bad = tmp_path / "noise.txt"
    bad.write_bytes(bytes(range(256)) * 50)
    out = tmp_path / "out.json"
    r = runner.invoke(app, ["parse", str(bad), "--json", str(out)])
    assert r.exit_code == 2
    assert r.output.startswith("crpipe: error: ") and str(bad) in r.output and "Traceback" not in r.output
    assert not out.exists()
    french = tmp_path / "fr.txt"
    french.write_text("Le joueur actif choisit une carte et la met dans sa main. Si le joueur ne peut pas "
                      "le faire, il perd la partie et le jeu continue avec les autres joueurs.", encoding="utf-8")
    r = runner.invoke(app, ["parse", str(french)])
    assert r.exit_code == 2 and "no rules found" in r.output


def test_json_of_pastes_and_cards_follows_the_schema():
    import jsonschema

    from tests.conftest import ROOT

    schema = json.loads((ROOT / "pipeline/data/document.schema.json").read_text(encoding="utf-8"))
    for prefix in ("000", "001"):
        r = runner.invoke(app, ["parse", _seed(prefix), "--json", "-"])
        jsonschema.validate(json.loads(r.stdout), schema)

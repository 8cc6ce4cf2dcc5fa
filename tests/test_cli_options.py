"""One --json for every command (pipeline/cli_options.py): PATH writes a file, '-' or --json
alone prints the JSON instead of the table."""

from __future__ import annotations

import json

import typer.main
from hypothesis import given, strategies as st
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.cli_options import json_alone

runner = CliRunner()


def _commands():
    def walk(cmd, path):
        yield path, cmd
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            yield from walk(sub, (*path, name))
    yield from walk(typer.main.get_command(app), ())


def test_every_json_option_takes_a_path_or_dash():
    with_json = []
    for path, cmd in _commands():
        for p in cmd.params:
            if "--json" in getattr(p, "opts", []):
                with_json.append(path)
                assert not p.is_flag and p.metavar == "PATH|-", path
                assert "'-' (or --json alone) prints it" in p.help, path
    assert len(with_json) >= 13 and ("show",) in with_json and ("editions",) in with_json


def test_json_alone_is_standard_output():
    assert json_alone(["601.2f", "--json"]) == ["601.2f", "--json", "-"]
    assert json_alone(["601.2f", "--json", "--edition", "X"]) == ["601.2f", "--json", "-", "--edition", "X"]
    assert json_alone(["601.2f", "--json", "out.json"]) == ["601.2f", "--json", "out.json"]
    assert json_alone(["601.2f", "--json", "-"]) == ["601.2f", "--json", "-"]
    assert json_alone(["--", "--json"]) == ["--", "--json"]  # after --, a positional
    assert json_alone(["--json=x.json"]) == ["--json=x.json"]


@given(st.lists(st.sampled_from(["--json", "-", "--", "a", "--x", "b.json"]), max_size=8))
def test_json_alone_only_ever_adds_a_dash_after_a_bare_json(args):
    out = json_alone(args)
    assert json_alone(out) == out  # once is enough
    head = args[:args.index("--")] if "--" in args else args
    bare = sum(a == "--json" and (i + 1 == len(head) and "--" not in args or i + 1 < len(head)
                                  and head[i + 1].startswith("-") and head[i + 1] != "-"
                                  or i + 1 == len(head) and "--" in args)
               for i, a in enumerate(head))
    assert len(out) - len(args) == bare
    assert [a for a in out if a != "-"] == [a for a in args if a != "-"]  # only dashes are added
    if "--" in args:  # nothing after -- is touched
        k = args.index("--")
        assert out[len(out) - (len(args) - k):] == args[k:]


def test_show_and_editions_write_a_file_or_print(tmp_path, monkeypatch):
    monkeypatch.delenv("CRPIPE_MIRROR", raising=False)
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path / "cache"))
    alone = runner.invoke(app, ["show", "601.2f", "--json", "--no-history"])
    dash = runner.invoke(app, ["show", "601.2f", "--json", "-", "--no-history"])
    assert alone.exit_code == dash.exit_code == 0 and alone.stdout == dash.stdout
    view = json.loads(alone.stdout)
    assert view["rule"] == "601.2f"
    to_file = runner.invoke(app, ["show", "601.2f", "--no-history", "--json", str(tmp_path / "v.json")])
    assert to_file.exit_code == 0 and "601.2f The player determines" in " ".join(to_file.stdout.split())
    assert json.loads((tmp_path / "v.json").read_text()) == view
    ed = runner.invoke(app, ["editions", "--json", str(tmp_path / "e.json")])
    assert ed.exit_code == 0 and "English editions" in ed.stdout
    assert len(json.loads((tmp_path / "e.json").read_text())["editions"]) == 110

"""Issue 28, acceptance 3: ``crpipe profile draft`` proposes a profile's words from a translation."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import SHARED
from pipeline.profiles import PROFILES
from pipeline.profiles.draft import compare, draft

# A language crpipe has no profile for, in a non-Latin script (Russian, written for this test).
RU = [
    ("601.2f The player determines the total cost. See rule 601.2b.", "601.2f Игрок определяет общую стоимость. См. правило 601.2b."),
    ("Example: A player casts a spell.", "Пример: Игрок разыгрывает заклинание."),
    ("117.1 Unless a rule says otherwise (see rule 117.3), a player may act.", "117.1 Если правило не говорит иное (см. правило 117.3), игрок может действовать."),
    ("See rules 117.8 and 117.9.", "См. правила 117.8 и 117.9."),
    ("Glossary", "Глоссарий"),
    ("Example: The player pays {2}.", "Пример: Игрок платит {2}."),
    ("The subrules of rule 601.2 apply.", "Подправила правила 601.2 применяются."),
]


def test_draft_in_a_language_without_a_profile():
    got = {p.field: p.values for p in draft(RU)}
    assert got["rule_words"][:2] == ["правило", "правила"]
    assert got["see_words"][0] == "см"
    assert got["example_markers"] == ["Пример"]
    assert got["glossary_heading"] == ["Глоссарий"]
    assert got["subrules_heading"] == ["Подправила"]


PO = SHARED / "corpus" / "translations" / "pt-BR" / "comprehensive-rules.pt-BR.po"


@pytest.mark.skipif(not PO.is_file(), reason=f"the pt-BR PO is not in {SHARED}")
def test_draft_of_the_real_po_matches_the_shipped_portuguese_profile():
    r = subprocess.run([sys.executable, "-m", "pipeline.cli", "profile", "draft", str(PO), "--json", "-"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    from pipeline.profiles.draft import Proposal

    props = [Proposal(p["field"], p["values"], p["evidence"], p["places"]) for p in doc["proposals"]]
    match = compare(props, PROFILES["pt"])
    assert sum(match.values()) >= 4, match  # acceptance: at least 4 of the 5


def test_bad_input_is_one_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pipeline.cli", "profile", "draft", str(tmp_path / "none.po")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr

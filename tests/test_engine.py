"""Issue 8: the rules engine, its scenarios, and property tests (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from pipeline.engine.casting import FREE, Announcement, CostChange, cast_spell, total_cost
from pipeline.engine.copies import copy_spell
from pipeline.engine.errors import EngineError, IllegalAction
from pipeline.engine.mana import ManaCost, Symbol, card_mana_value, mana_value
from pipeline.engine.objects import CardDef
from pipeline.engine.catalog import all_declarations
from pipeline.engine.registry import ENGINE_EDITION
from pipeline.engine.runner import load_scenarios, run_scenario

SCENARIOS = load_scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario_passes_and_cites_a_rule(scenario):
    assert scenario.rules, "every scenario cites at least one rule"
    result = run_scenario(scenario)
    assert result.passed, (result.error, result.mismatches)


def test_required_scenarios_present():
    ids = {s.id for s in SCENARIOS}
    for need in ("cr-707.2-ex1-chimeric-staff-clone", "cr-707.2-ex2-clone-face-down-grinning-demon",
                 "cr-614.12-ex1-voice-of-all-token-copy", "cr-614.12-ex2-yixlid-jailer-scarwood-treefolk",
                 "cr-614.12-ex3-orb-of-dreams-itself", "ruling-destined-lead-mana-value-off-stack",
                 "ruling-cooperate-copy-not-cast", "ruling-cooperate-copy-keeps-x", "ruling-cooperate-copy-same-mode",
                 "ruling-cooperate-alternative-cost-copied"):
        assert need in ids
    rulings = [s for s in SCENARIOS if s.rulings]
    assert all(r["card"] == "Refuse // Cooperate" and r["text"] for s in rulings for r in s.rulings)


def test_declarations_record_edition_and_terms(cr_2025):
    decls = all_declarations()
    assert decls and all(d.edition == ENGINE_EDITION for d in decls)
    for d in decls:
        rule = cr_2025.rule(d.rule)
        assert rule is not None, d.rule
        assert d.terms, f"{d.rule} ({d.function}) declares no key terms"


def test_a_scenario_without_a_rule_is_refused(tmp_path):
    from pipeline.errors import InputError

    (tmp_path / "bad.yaml").write_text("- id: x\n  action: mana_value\n  given: {cost: '{1}'}\n  expect: {mana_value: 1}\n")
    with pytest.raises(InputError, match="cites no rule"):
        load_scenarios(tmp_path)


# -- mana -------------------------------------------------------------------------------

def test_parse_rejects_junk():
    for bad in ("{Q}", "2R", "{W/W}", "{R}x", ""):
        if bad == "":
            assert ManaCost.parse(bad).symbols == ()
            continue
        with pytest.raises(EngineError):
            ManaCost.parse(bad)


def test_split_on_stack_needs_a_half():
    card = CardDef.from_data({"layout": "split", "faces": [{"name": "Fire", "mana_cost": "{1}{R}"}, {"name": "Ice", "mana_cost": "{1}{U}"}]})
    with pytest.raises(EngineError):
        card_mana_value(card.faces, on_stack=True)
    with pytest.raises(IllegalAction) as e:
        cast_spell(card, Announcement())
    assert e.value.rule == "709.3"


_COLOR = st.sampled_from("WUBRG")


@st.composite
def symbols(draw):
    kind = draw(st.sampled_from(["generic", "variable", "colored", "colorless", "snow", "hybrid", "twobrid",
                                 "phyrexian", "hybrid_phyrexian"]))
    if kind == "generic":
        return Symbol("generic", draw(st.integers(1, 20)))
    if kind == "variable":
        return Symbol("variable", letter="X")
    if kind in ("hybrid", "hybrid_phyrexian"):
        a, b = draw(st.lists(_COLOR, min_size=2, max_size=2, unique=True))
        return Symbol(kind, colors=(a, b))
    if kind in ("colored", "twobrid", "phyrexian"):
        return Symbol(kind, colors=(draw(_COLOR),))
    return Symbol(kind)


def rule_202_3(syms, x_on_stack):
    """202.3 written out independently: total mana, X per 202.3e, hybrid by largest part
    (202.3f), Phyrexian 1 (202.3g)."""
    per = {"colored": 1, "colorless": 1, "snow": 1, "hybrid": 1, "phyrexian": 1, "hybrid_phyrexian": 1, "twobrid": 2}
    total = 0
    for s in syms:
        if s.kind == "generic":
            total += s.amount
        elif s.kind == "variable":
            total += x_on_stack or 0
        else:
            total += per[s.kind]
    return total


@settings(max_examples=300, deadline=None)
@given(st.lists(symbols(), min_size=1, max_size=10), st.one_of(st.none(), st.integers(0, 30)))
def test_mana_value_is_the_202_3_sum(syms, x):
    text = "".join(str(s) for s in syms)
    cost = ManaCost.parse(text)
    assert str(cost) == text  # parse and print are inverse
    assert mana_value(cost, x) == rule_202_3(syms, x)
    assert mana_value(cost, None) == rule_202_3(syms, None)  # off the stack X is 0 (202.3e)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 20), st.integers(0, 2), st.sampled_from(["you", "opponent"]),
       st.booleans(), st.lists(st.sampled_from(["a", "b", "c"]), max_size=1))
def test_a_copy_carries_x_and_mode(x, mode, controller, retarget, legal):
    modes = ("deal X damage", "gain X life", "draw X cards")
    card = CardDef.from_data({"name": "Modal X", "mana_cost": "{X}{R}", "modes": list(modes), "targets": 1})
    spell = cast_spell(card, Announcement(modes=(modes[mode],), x=x, targets=("a",)))
    cp = copy_spell(spell, controller, {0: "b"} if retarget else None, legal or None)
    assert cp.x == spell.x == x
    assert cp.modes == spell.modes == (modes[mode],)
    assert cp.cast is False and cp.is_copy and cp.controller == controller
    assert cp.mana_value() == spell.mana_value() == x + 1


@settings(max_examples=200, deadline=None)
@given(st.lists(symbols(), min_size=1, max_size=6), st.lists(st.sampled_from(["{1}", "{2}", "{W}", "{U}", "{C}", "{G}"]), max_size=4))
def test_total_cost_never_below_zero(syms, reductions):
    syms = [s for s in syms if s.kind != "variable"]
    if not syms:
        return
    card = CardDef.from_data({"name": "Any", "mana_cost": "".join(str(s) for s in syms)})
    changes = [CostChange("reduce", ManaCost.parse(r)) for r in reductions]
    tc = total_cost(card, Announcement(), changes)
    assert mana_value(tc.mana) >= 0
    assert all(s.kind in ("generic", "colored", "colorless", "snow") for s in tc.mana.symbols)


def test_free_cast_with_alternative_x_cost():
    card = CardDef.from_data({"name": "Alt X", "mana_cost": "{X}{U}", "alternative_costs": {"alt": "{X}{X}"}})
    spell = cast_spell(card, Announcement(alternative_costs=("alt",), x=2))
    assert spell.x == 2 and str(spell.total_cost.mana) == "{4}"
    spell = cast_spell(card, Announcement(alternative_costs=(FREE,)))
    assert spell.x == 0

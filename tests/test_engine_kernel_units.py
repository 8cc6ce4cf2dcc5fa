"""Issue 25: the kernel's data loaders, printers and error messages, field by field.

Scenarios assert only what a rule says (a subset of each result), so a loader that dropped a
field no rule reads, or a message that lost its words, survived every mutant of mutmut's run.
These tests read every field back and match every message: a loader that forgets a field, a
to_dict that renames one, or an error that says nothing now fails.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine.casting import Announcement, CostChange, FREE, cast_spell
from pipeline.engine.copies import characteristics
from pipeline.engine.errors import EngineError
from pipeline.engine.mana import CardFaces, Face, ManaCost, Symbol, combined, parse_symbol
from pipeline.engine.objects import Ability, CardDef, Characteristics, Effect, Permanent, cost_colors
from pipeline.engine.persist import dies
from pipeline.engine.replacement import Event, enter_battlefield

P = ManaCost.parse


# -- loaders ---------------------------------------------------------------------------------

def test_carddef_reads_every_field():
    d = {"name": "Full", "mana_cost": "{2}{G}", "types": ["Creature"], "modes": ["a", "b"], "modes_to_choose": 2,
         "x_defined": True, "alternative_costs": {"evoke": "{G}"}, "additional_costs": {"kicker": "{1}"},
         "mandatory_additional": ["kicker"], "targets": 1}
    assert CardDef.from_data(d) == CardDef("Full", CardFaces((Face("Full", P("{2}{G}"), ("Creature",)),), "normal"),
                                           ("Creature",), ("a", "b"), 2, True, (("evoke", P("{G}")),),
                                           (("kicker", P("{1}")),), ("kicker",), 1)
    assert CardDef.from_data({"name": "Min"}) == CardDef("Min", CardFaces((Face("Min", None, ()),), "normal"))


def test_carddef_reads_split_faces():
    d = {"faces": [{"name": "Turn", "mana_cost": "{2}{U}", "types": ["Instant"]}, {"name": "Burn", "mana_cost": "{1}{R}"}]}
    c = CardDef.from_data(d)
    assert c == CardDef("Turn // Burn", CardFaces((Face("Turn", P("{2}{U}"), ("Instant",)), Face("Burn", P("{1}{R}"), ())),
                                                  "split"))
    assert CardDef.from_data({**d, "layout": "transform"}).faces.layout == "transform"
    assert str(c.mana_cost) == "{2}{U}{1}{R}"  # a split card's mana cost is both halves' (709.4)


def test_carddef_named_costs_and_their_errors():
    c = CardDef.from_data({"name": "K", "alternative_costs": {"evoke": "{G}"}, "additional_costs": {"kicker": "{1}"}})
    assert c.alt_cost("evoke") == P("{G}") and c.add_cost("kicker") == P("{1}")
    with pytest.raises(EngineError, match=r"K has no alternative cost named 'flash'"):
        c.alt_cost("flash")
    with pytest.raises(EngineError, match=r"K has no additional cost named 'buyback'"):
        c.add_cost("buyback")


def test_characteristics_read_every_field():
    d = {"name": "Bear", "mana_cost": "{1}{G}", "colors": ["G"], "types": ["Creature"], "subtypes": ["Bear"],
         "supertypes": ["Legendary"], "power": 2, "toughness": 3, "abilities": ["Trample", {"kind": "persist"}],
         "morph": "{2}{G}"}
    c = Characteristics.from_data(d)
    assert c == Characteristics("Bear", P("{1}{G}"), ("G",), ("Creature",), ("Bear",), ("Legendary",), 2, 3,
                                (Ability("text", "Trample"), Ability("persist"),
                                 Ability("morph", "Morph {2}{G}", (("cost", "{2}{G}"),))))
    assert c.to_dict() == {"name": "Bear", "mana_cost": "{1}{G}", "colors": ["G"], "types": ["Creature"],
                           "subtypes": ["Bear"], "supertypes": ["Legendary"], "power": 2, "toughness": 3,
                           "abilities": ["Trample", "persist", "Morph {2}{G}"]}
    assert Characteristics.from_data({}) == Characteristics()
    assert Characteristics.from_data({}).to_dict()["mana_cost"] is None


def test_colors_come_from_the_mana_cost_in_wubrg_order():
    assert Characteristics.from_data({"mana_cost": "{G}{W}{B}"}).colors == ("W", "B", "G")
    assert cost_colors(P("{R}{U}")) == ["U", "R"] and cost_colors(None) == []


def test_permanent_reads_every_field():
    d = {"name": "P", "types": ["Creature"], "owner": "opponent", "controller": "you", "face_down": True,
         "effects": [{"source": "e", "types": ["Artifact"], "subtypes": ["Golem"], "power": 1, "toughness": 4}],
         "counters": {"-1/-1": 1, "+1/+1": "2"}, "tapped": True, "token": True, "copy_of": {"name": "Q"},
         "choices": {"color": "red"}}
    p = Permanent.from_data(d)
    assert p == Permanent(Characteristics.from_data(d), "opponent", "you", True, Characteristics(name="Q"),
                          (Effect("e", ("Artifact",), ("Golem",), 1, 4),), (("+1/+1", 2), ("-1/-1", 1)), True, True,
                          (("color", "red"),))
    assert Permanent.from_data({"name": "M", "owner": "opponent"}) == \
        Permanent(Characteristics(name="M"), "opponent", "opponent")
    assert Effect.from_data({}) == Effect("effect")


def test_counters_are_added_one_by_default():
    p = Permanent(Characteristics(name="x"))
    assert p.with_counter("+1/+1").counters == (("+1/+1", 1),)
    assert p.with_counter("+1/+1").with_counter("+1/+1", 2).counter("+1/+1") == 3


def test_abilities_round_trip_and_keep_nested_params():
    d = {"kind": "k", "text": "t", "list": [1, [2, 3]], "map": {"b": [4], "a": 5}}
    a = Ability.from_data(d)
    assert a.params == (("list", (1, (2, 3))), ("map", (("a", 5), ("b", (4,)))))
    assert a.param("list") == (1, (2, 3)) and a.param("nothing") is None and a.param("nothing", 7) == 7
    assert Ability.from_data({"kind": "k"}).to_data() == {"kind": "k"}
    assert a.to_data() == {"kind": "k", "text": "t", "list": (1, (2, 3)), "map": (("a", 5), ("b", (4,)))}
    with pytest.raises(EngineError, match="an ability needs a 'kind'"):
        Ability.from_data({"text": "no kind"})


def test_announcement_reads_every_field():
    a = Announcement.from_data({"half": 1, "fused": True, "modes": ["m"], "alternative_costs": ["evoke"],
                                "alternative_cost": "dash", "without_paying_mana_cost": True,
                                "additional_costs": ["kicker"], "x": 3, "hybrid": ["G"], "phyrexian_life": [1, 0],
                                "targets": ["opponent"]})
    assert a == Announcement(1, True, ("m",), ("evoke", "dash", FREE), ("kicker",), 3, ("G",), (True, False),
                             ("opponent",))
    assert Announcement.from_data(None) == Announcement() == Announcement.from_data({})


def test_cost_changes_read_and_refuse():
    assert CostChange.from_data({"kind": "reduce", "cost": "{1}", "source": "s"}) == CostChange("reduce", P("{1}"), "s")
    assert CostChange.from_data({"kind": "increase", "cost": "{B}"}) == CostChange("increase", P("{B}"), "")
    with pytest.raises(EngineError, match="cost change kind must be increase or reduce"):
        CostChange.from_data({"kind": "double", "cost": "{1}"})


# -- printers --------------------------------------------------------------------------------

def test_a_spell_prints_every_field():
    card = CardDef.from_data({"name": "S", "mana_cost": "{X}{R}", "types": ["Sorcery"], "additional_costs": {"k": "{1}"},
                              "targets": 1})
    s = cast_spell(card, Announcement(x=2, additional_costs=("k",), targets=("opponent",)), controller="opponent")
    assert s.to_dict() == {"name": "S", "cast": True, "is_copy": False, "controller": "opponent", "owner": "opponent",
                           "x": 2, "modes": [], "targets": ["opponent"], "alternative_cost": None,
                           "additional_costs": ["k"], "half": None, "fused": False, "mana_value": 3,
                           "total_cost": {"mana": "{3}{R}", "life": 0},
                           "steps": ["601.2b:costs", "601.2b:X", "601.2c:targets", "601.2f:total cost"]}


def test_an_entering_event_prints_every_field():
    card = Permanent.from_data({"name": "B", "mana_cost": "{1}{G}", "types": ["Creature"], "subtypes": ["Bear"],
                                "power": 2, "toughness": 2, "counters": {"+1/+1": 2, "-1/-1": 1},
                                "abilities": [{"kind": "enters_tapped"}], "owner": "opponent", "controller": "you"})
    out = enter_battlefield(card, [], "hand").to_dict()
    assert {k: v for k, v in out.items() if k not in ("applied", "decided_by", "ignored")} == Event(
        enter_battlefield(card, [], "hand").event.obj, "hand", "battlefield").to_dict()
    assert out["zone"] == "battlefield" and out["name"] == "B" and out["types"] == ["Creature"]
    assert out["subtypes"] == ["Bear"] and out["colors"] == ["G"] and out["abilities"] == ["enters_tapped"]
    assert (out["power"], out["toughness"], out["tapped"]) == (3, 3, True)
    assert (out["controller"], out["owner"]) == ("you", "opponent")
    assert out["counters"] == {"+1/+1": 2, "-1/-1": 1}
    assert Event(Permanent(Characteristics(name="x")), "hand", "graveyard").to_dict()["power"] is None


def test_a_death_prints_every_field():
    card = Permanent.from_data({"name": "F", "types": ["Creature"], "power": 3, "toughness": 2,
                                "abilities": [{"kind": "persist"}]})
    out = dies(card, []).to_dict()
    assert set(out) == {"zone", "death_applied", "persist_triggered", "returned", "notes"}
    assert out["zone"] == "graveyard" and out["death_applied"] == [] and out["persist_triggered"] is True
    assert out["returned"]["counters"] == {"-1/-1": 1} and isinstance(out["notes"], list)


# -- mana ------------------------------------------------------------------------------------

def test_every_symbol_kind_parses_and_prints_back():
    for body, kind in [("3", "generic"), ("X", "variable"), ("Y", "variable"), ("Z", "variable"), ("G", "colored"),
                       ("C", "colorless"), ("S", "snow"), ("W/U", "hybrid"), ("2/B", "twobrid"), ("R/P", "phyrexian"),
                       ("G/W/P", "hybrid_phyrexian")]:
        s = parse_symbol(body)
        assert s.kind == kind and str(s) == "{" + body + "}", body
    assert parse_symbol("y").letter == "Y" and parse_symbol(" g ").colors == ("G",)
    assert parse_symbol("G/W/P").colors == ("G", "W")
    for bad in ("G/G", "G/G/P", "Q", "G/W/X", "2/2", "P/G"):
        with pytest.raises(EngineError, match=r"unknown mana symbol \{"):
            parse_symbol(bad)


def test_costs_refuse_junk_and_drop_zero():
    assert P("{0}{R}") == P("{R}") and str(P("{0}")) == "{0}" and P("") == ManaCost(())
    for bad in ("x{1}", "{1}x", "{1} x {2}", "nothing"):
        with pytest.raises(EngineError, match=r"not a mana cost: '"):
            P(bad)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["1", "2", "10", "X", "W", "U", "B", "R", "G", "C", "S", "W/U", "B/G", "2/W",
                                 "U/P", "R/G/P"]), min_size=1, max_size=8))
def test_a_cost_prints_as_it_parses(bodies):
    text = "".join("{" + b + "}" for b in bodies)
    assert str(P(text)) == text and P(str(P(text))) == P(text)


def test_combined_costs_add_in_order_and_skip_faces_without_one():
    assert combined([P("{2}{U}"), None, P("{1}{R}")]) == P("{2}{U}{1}{R}")
    assert combined([None]) == ManaCost(()) and combined([]) == ManaCost(())
    assert Symbol("generic", 2) == parse_symbol("2")


def test_entering_needs_the_choice_it_asks_for_and_a_copy_target():
    card = Permanent.from_data({"name": "Voice", "types": ["Creature"],
                                "abilities": [{"kind": "as_enters_choose", "choice": "color"}]})
    with pytest.raises(EngineError, match=r"Voice: as_enters_choose needs a choice of 'color'"):
        enter_battlefield(card, [], "hand")
    clone = Permanent.from_data({"name": "Clone", "types": ["Creature"], "abilities": [{"kind": "enter_as_copy"}]})
    with pytest.raises(EngineError, match=r"Clone: enter_as_copy: no 'Bears' on the battlefield to copy"):
        enter_battlefield(clone, [], "hand", choices={"copy": "Bears"})


def test_loader_defaults_and_stated_values_that_differ_from_the_derived_ones():
    # a stated color wins over the mana cost's (Ghostfire: {2}{R}, colorless)
    assert Characteristics.from_data({"name": "Ghostfire", "mana_cost": "{2}{R}", "colors": []}).colors == ()
    assert Permanent.from_data({"name": "M"}).owner == "you" == Permanent.from_data({"name": "M"}).controller
    # a split card's stated name is kept (else the halves' names joined)
    split = {"name": "Assault//Battery", "faces": [{"name": "Assault", "mana_cost": "{R}"},
                                                    {"name": "Battery", "mana_cost": "{3}{G}"}]}
    assert CardDef.from_data(split).name == "Assault//Battery"


def test_colorless_and_snow_symbols_of_a_total_cost_have_no_color():
    from pipeline.engine.casting import total_cost

    card = CardDef.from_data({"name": "Snow test", "mana_cost": "{2}{C}{S}{G}"})
    assert total_cost(card, Announcement()).mana.colors() == {"G"}


def test_add_counter_adds_n_counters_then_annihilates():
    from pipeline.engine.persist import add_counter

    p = Permanent.from_data({"name": "W", "types": ["Creature"], "counters": {"-1/-1": 1}})
    q = add_counter(p, "+1/+1", 3)
    assert (q.counter("+1/+1"), q.counter("-1/-1")) == (2, 0)


def test_an_event_prints_the_copy_and_face_down_state():
    bears = Characteristics(name="Bears", types=("Creature",), power=2, toughness=2)
    p = Permanent(Characteristics(name="Clone"), copy_of=bears, face_down=True)
    out = Event(p, "hand", "battlefield").to_dict()
    assert out["copy_of"] == "Bears" and out["face_down"] is True
    assert Event(Permanent(Characteristics(name="x")), "hand", "battlefield").to_dict()["copy_of"] is None

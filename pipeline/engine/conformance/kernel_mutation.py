"""The kernel's mutation score, as measured by a real mutation tool (mutmut).

``mutmut run`` (configured in ``[tool.mutmut]`` of pyproject.toml: the kernel's modules are
mutated, the kernel's scenarios and the CR examples it runs, with their controls, are the tests)
takes minutes, far too long for every ``validate-engine``.  So its outcome is recorded once:

    mutmut run && python -m pipeline.engine.conformance.kernel_mutation record

writes ``kernel-mutation.json`` beside this module: the tool and its version, the counts by
mutmut's own status, the score and a digest of the mutated sources.  Every surviving mutant
must be explained in ``kernel-mutation-survivors.yaml`` (why no scenario can or should kill
it); a test keeps both files in step with the kernel's sources, so an edit to the kernel
without a new run fails CI rather than reporting a stale score.

The score is killed / (killed + survived + not covered), timeouts counting as killed (mutmut's
own reading); explained survivors stay in the denominator: an explanation is not a kill.
"""

from __future__ import annotations

import hashlib
import json
import sys
from importlib import metadata
from pathlib import Path

import yaml

from ...io import read_bounded, read_bounded_text

ROOT = Path(__file__).resolve().parents[3]
#: The modules the mutation tool mutates (the rules kernel), as in pyproject's [tool.mutmut].
KERNEL_FILES = ("casting.py", "copies.py", "mana.py", "objects.py", "persist.py", "replacement.py")
RESULT_FILE = Path(__file__).with_name("kernel-mutation.json")
SURVIVORS_FILE = Path(__file__).with_name("kernel-mutation-survivors.yaml")

#: mutmut's exit codes (mutmut/stats.py) read as kill / survive / not covered.
_KILLED = {1, 3, 36, -24, 24, 152, 255, 37}
_SURVIVED = {0}
_NOT_COVERED = {5, 33}


def kernel_digest(folder: Path | None = None) -> str:
    base = folder or Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for name in KERNEL_FILES:
        h.update(name.encode() + b"\0" + read_bounded(base / name, what="kernel source") + b"\0")
    return h.hexdigest()


def load_result(path: Path = RESULT_FILE) -> dict | None:
    if not path.is_file():
        return None
    return json.loads(read_bounded_text(path))


def mutation_score() -> float | None:
    """The recorded score (0-1), or None when no run was recorded."""
    r = load_result()
    return None if r is None else r["score"]


def load_explanations(path: Path = SURVIVORS_FILE) -> dict[str, str]:
    if not path.is_file():
        return {}
    return {str(k): str(v) for k, v in (yaml.safe_load(read_bounded_text(path)) or {}).items()}


def collect(mutants_dir: Path) -> dict:
    """Read mutmut's per-file results (``mutants/**/*.meta``) into one record."""
    killed, survived, uncovered, other = [], [], [], []
    for meta in sorted(mutants_dir.rglob("*.py.meta")):
        rel = meta.relative_to(mutants_dir).as_posix()[: -len(".meta")]
        if Path(rel).name not in KERNEL_FILES:
            continue
        for key, code in sorted(json.loads(read_bounded_text(meta))["exit_code_by_key"].items()):
            name = key.replace("\u01c1", ".")
            (killed if code in _KILLED else survived if code in _SURVIVED
             else uncovered if code in _NOT_COVERED else other).append(name)
    total = len(killed) + len(survived) + len(uncovered)
    return {"tool": "mutmut", "version": metadata.version("mutmut"), "kernel_files": list(KERNEL_FILES),
            "kernel_digest": kernel_digest(), "mutants": total + len(other), "killed": len(killed),
            "survived": len(survived), "not_covered": len(uncovered), "not_checked": len(other),
            "score": round(len(killed) / total, 4) if total else 0.0,
            "survivors": sorted(survived + uncovered)}


def main(argv: list[str] | None = None) -> None:
    args = argv if argv is not None else sys.argv[1:]
    if args[:1] != ["record"]:
        raise SystemExit("usage: python -m pipeline.engine.conformance.kernel_mutation record [MUTANTS_DIR]  "
                         "(after `mutmut run`)")
    folder = Path(args[1]) if len(args) > 1 else ROOT / "mutants"
    if not folder.is_dir():
        raise SystemExit(f"{folder}: no mutmut results (run `mutmut run` first)")
    rec = collect(folder)
    if rec["not_checked"]:
        raise SystemExit(f"{folder}: {rec['not_checked']} mutants not checked: let `mutmut run` finish")
    tmp = RESULT_FILE.with_suffix(".tmp")
    tmp.write_text(json.dumps(rec, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(RESULT_FILE)
    print(f"mutmut {rec['version']}: {rec['killed']}/{rec['killed'] + rec['survived'] + rec['not_covered']} "
          f"killed, score {rec['score']}; {len(rec['survivors'])} survivors")


if __name__ == "__main__":
    main()

"""phase.rs's part of a run of the conformance suite, computed once: at release time into the
package, else once into the cache.

Running the 276 examples and their controls on phase.rs takes ~15 s of CPU, and every build
and ``validate-engine`` ran them again, although the outcome depends only on the driver (and
the code it imports), the suite's examples and cards, and the phase-python release: phase is
deterministic and the driver seeds nothing.  ``python -m pipeline.engine.conformance.phase_run``
runs them at release time into ``phase-run.json.xz`` beside this module, keyed by all of that
(:func:`key`); a run whose key differs (another phase-python release, an edited example or
driver) reads the cache under the same key, else runs phase and keeps the result there.
``tests/test_engine_conformance.py`` checks the shipped file is what running gives.

One format for both, xz-compressed JSON (:mod:`pipeline.release_data`): every field of each
:class:`PhaseResult` and :class:`ControlResult` (their observations are JSON values: a test
checks they come back equal).
"""

from __future__ import annotations

import functools
import sys
from dataclasses import fields
from pathlib import Path

from ...codekey import code_key, package_version
from ...io import cache_root, cache_write
from ...release_data import main as release_main, pack, read_any, unpack
from .controls import ControlResult, ControlStatus, ControlVerdict, run_phase_control
from .model import CARDS_FILE, EXAMPLES_DIR, Engine, Example, RunStatus, load_examples
from .phase_driver import DriveFailure, PhaseResult, PhaseSuite, skip_reason

#: Layout of the file; bump when it changes.
VERSION = 1
SHIPPED = Path(__file__).with_name("phase-run.json.xz")

_PHASE_ENUMS = {"status": RunStatus, "error": DriveFailure}
_CONTROL_ENUMS = {"engine": Engine, "status": ControlStatus, "verdict": ControlVerdict}


@functools.lru_cache(maxsize=1)
def key() -> str:
    """This module and all it imports (the driver, the controls), the suite's examples and cards,
    and the phase-python release."""
    data = [*sorted(EXAMPLES_DIR.glob("*.yaml")), CARDS_FILE]
    # The module by name: run as the release step (python -m) its __name__ is "__main__".
    return code_key(VERSION, "pipeline.engine.conformance.phase_run", data=data, extra=[package_version("phase-python")])


def _plain(obj) -> dict:
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


def dump(phase: dict[str, PhaseResult], controls: dict[str, list[ControlResult]]) -> bytes:
    body = {"phase": {k: _plain(v) for k, v in sorted(phase.items())},
            "controls": {k: [_plain(c) for c in cs] for k, cs in sorted(controls.items())},
            "phase_python": package_version("phase-python")}
    return pack(VERSION, key(), body)


def shipped_release() -> str | None:
    """The phase-python release the shipped run was made with (read whatever its key)."""
    data = read_any(SHIPPED)
    return data.get("phase_python") if data is not None else None


def _build(cls, enums: dict, d: dict):
    return cls(**{k: (enums[k](v) if k in enums else v) for k, v in d.items()})


def load(path: Path) -> tuple[dict[str, PhaseResult], dict[str, list[ControlResult]]] | None:
    """The run in ``path``, or None when absent, damaged, or made under another key."""
    body = unpack(path, VERSION, key())
    if body is None:
        return None
    try:
        phase = {k: _build(PhaseResult, _PHASE_ENUMS, d) for k, d in body["phase"].items()}
        controls = {k: [_build(ControlResult, _CONTROL_ENUMS, d) for d in cs] for k, cs in body["controls"].items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return phase, controls


def cache_path() -> Path:
    return cache_root() / "conformance-phase" / f"{key()}.json.xz"


def remembered() -> tuple[dict[str, PhaseResult], dict[str, list[ControlResult]]] | None:
    """The shipped run when its key is this code's and this phase-python's, else the cached one."""
    return load(SHIPPED) or load(cache_path())


def remember(phase: dict[str, PhaseResult], controls: dict[str, list[ControlResult]]) -> None:
    cache_write(cache_path(), dump(phase, controls))


def run_phase(examples: list[Example], progress=None) -> tuple[dict[str, PhaseResult], dict[str, list[ControlResult]]]:
    """Every example, and the control of each it could run, on phase.rs."""
    phase: dict[str, PhaseResult] = {}
    controls: dict[str, list[ControlResult]] = {}
    with PhaseSuite() as suite:
        for ex in examples:
            if progress:
                progress(ex.id)
            phase[ex.id] = suite.run(ex)
            if phase[ex.id].status != RunStatus.UNSUPPORTED:
                controls.setdefault(ex.id, []).append(run_phase_control(suite, ex))
    return phase, controls


def _make() -> tuple[bytes, str]:
    why = skip_reason()
    if why is not None:
        raise SystemExit(f"phase_run: {why}")
    phase, controls = run_phase(load_examples())
    return dump(phase, controls), f"{len(phase)} examples on phase-python {package_version('phase-python')}"


if __name__ == "__main__":  # pragma: no cover - the release step
    sys.exit(release_main(None, "Run the conformance suite on phase.rs once, into the package.", SHIPPED, _make))

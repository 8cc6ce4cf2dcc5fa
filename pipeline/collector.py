"""Python's cycle collector paused while a large model is built (a parse, a diff, a run of
matches): they make tens of thousands of containers and no reference cycle."""

from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def collector_paused():
    """Pause Python's cycle collector while a model is built: the parser makes tens of
    thousands of containers and no reference cycle, and each collection the allocations
    trigger scans every object alive -- with the archive's editions held in memory (history,
    the editions step, the benchmarks) that was half the time of parsing them.

    A model is long-lived (editions are kept for diffs, history, the editions step), so it
    then joins the oldest generation at once -- ``gc.freeze()`` + ``gc.unfreeze()`` move the
    tracked objects there by splicing two lists -- instead of being traversed by each younger
    generation's collections on its way there: another third of the time of parsing the 110
    editions.  Objects are still freed as soon as nothing refers to them; cyclic garbage
    made before the parse waits for the next full collection.  Skipped when the application
    froze objects itself (unfreezing would undo that)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()

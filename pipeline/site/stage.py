"""The build stage: the rules site in ``<out>/site/``, from this build's reports.

Publishes the latest edition, the translations' base and current editions and the
rulings' edition (see :func:`~pipeline.site.generate.default_editions`), with this build's
alignment and link reports.  Notebooks are not executed here (they take minutes); their
HTML is published by ``crpipe site --notebooks``.
"""

from __future__ import annotations

import os
import shutil

from ..errors import CrpipeError

STAGE = "rules site"


def stage_site(ctx) -> None:
    from .generate import write_site  # heavy: Jinja2 and the history load only when the stage runs

    if os.environ.get("CRPIPE_SITE", "1") == "0":
        # The site is ~25 MB; builds that only exercise the other outputs (the fault-injection
        # tests fill a small disk on purpose) leave it out, and the report says so.
        ctx.skip(STAGE, "disabled by CRPIPE_SITE=0")
        return
    if ctx.editions_dir is None:
        ctx.skip(STAGE, "no English editions are known")
        return
    try:
        # The build's staging folder is new and swapped in as a whole: the site is written
        # straight into it (build_site's own swap would leave its lock file among the outputs).
        files = write_site(ctx.out / "site", reports=ctx.out, catalog=ctx.editions_dir)
    except CrpipeError as e:
        # A half-written site is not an output: nothing of it goes into the build.
        shutil.rmtree(ctx.out / "site", ignore_errors=True)
        ctx.skip(STAGE, e.message)
        return
    for p in files:
        ctx.track(p)

"""``crpipe site``: the browsable static rules site."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .common import err_console, user_errors


def register(app: typer.Typer) -> None:
    @app.command()
    @user_errors
    def site(
        editions: Optional[List[str]] = typer.Option(None, "--editions", "-e",
                                                     help="An edition to publish (a date or 'latest'); repeat for more. "
                                                          "Always published: the latest edition, the translations' base "
                                                          "editions and the rulings' edition."),
        all_editions: bool = typer.Option(False, "--all", help="Publish every known edition (110: ~1 GB, minutes)."),
        out: Path = typer.Option(Path("site"), "--out", help="Folder to write the site into (replaced as a whole)."),
        reports: Optional[Path] = typer.Option(None, "--reports", help="A build's output folder whose align-*.json and "
                                               "links-*.json are published (default: the project's aligned/)."),
        pair: Optional[List[str]] = typer.Option(None, "--pair", help="Also publish the changes between two editions: "
                                                 "--pair 2019-06-12 --pair 2021-04-19 (pairs of values)."),
        notebooks: bool = typer.Option(False, "--notebooks", help="Execute notebooks/ (embedded data only) and publish "
                                       "their HTML; needs the 'notebooks' extra."),
    ):
        """Write a static rules site that opens from disk: one page per chapter with a stable
        anchor per rule (2025-11-14/702.html#702.79a), every reference a link, cited-by
        lists, a glossary, each rule's numbers and texts through every edition, change pages
        for each release and any pair, translations beside their English, rulings with
        their rules, and search.  Nothing needs a server.
        """
        from ..errors import InputError  # lazy: a command loads its stage only when it runs (CLI start-up time)
        from ..paths import default_out  # lazy: as above
        from ..site.generate import site_folder, write_site  # lazy: as above

        pairs = []
        if pair:
            if len(pair) % 2:
                raise InputError("--pair takes two editions: --pair OLD --pair NEW", "command line")
            pairs = list(zip(pair[::2], pair[1::2]))
        # The folder is checked (a user's file in it refuses the run) before the minutes of work.
        with site_folder(out) as folder:
            if notebooks:
                import tempfile  # lazy: only with --notebooks

                from ..site.notebooks import render_all  # lazy: only with --notebooks

                root = Path(__file__).resolve().parents[2]
                with tempfile.TemporaryDirectory() as tmp:
                    err_console.print("executing notebooks …")
                    pages = render_all(root / "notebooks", Path(tmp) / "html", Path(tmp) / "figures")
                    written = _site(write_site, folder.staging, editions, all_editions, reports or default_out(),
                                    pages, pairs)
            else:
                written = _site(write_site, folder.staging, editions, all_editions, reports or default_out(), [], pairs)
            folder.commit()
        files = [folder.final / p.relative_to(folder.staging) for p in written]
        size = sum(p.stat().st_size for p in files)
        from ..editions.catalog import default_catalog, default_edition  # lazy: as above

        err_console.print(f"site: {len(files)} files, {size / 1e6:.1f} MB, default edition "
                          f"{default_edition(default_catalog()).date} → {out}/index.html")


def _site(write_site, out, editions, all_editions, reports, pages, pairs):
    from rich.status import Status  # lazy: only when the command runs

    with Status("building the site", console=err_console) as st:
        return write_site(out, editions=editions, all_editions=all_editions, reports=reports, notebooks=pages,
                          pairs=pairs, progress=lambda m: st.update(m))

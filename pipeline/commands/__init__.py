"""CLI commands, one module each; shared helpers in :mod:`pipeline.commands.common`."""

"""The ``majiang`` command: one module per group of subcommands."""

from majiang.cli.main import main

__all__ = ["main"]

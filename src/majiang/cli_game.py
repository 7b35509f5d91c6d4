"""Subcommands about playing and scoring: score, simulate, play, replay."""

from __future__ import annotations


def register(sub) -> None:
    """Add the game subcommands to the ``majiang`` parser."""

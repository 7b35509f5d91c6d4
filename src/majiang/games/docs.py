"""Rewrite the options tables of ``docs/RULES.md`` from the games' declarations (run from a
checkout: ``python -m majiang.games.docs``; ``tests/games/test_rules_declared.py`` fails when stale)."""

from __future__ import annotations

import sys
from pathlib import Path

from majiang.games import GAMES
from majiang.games.declare import with_options_tables

RULES_MD = Path(__file__).resolve().parents[3] / "docs" / "RULES.md"


def main() -> int:
    if not RULES_MD.exists():
        print(f"majiang.games.docs: no {RULES_MD}: run it in a source checkout", file=sys.stderr)
        return 2
    text = RULES_MD.read_text(encoding="utf-8")
    RULES_MD.write_text(with_options_tables(text, GAMES.values()), encoding="utf-8")
    print(f"wrote the options tables of {RULES_MD}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

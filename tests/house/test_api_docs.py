"""The documentation site (mkdocs.yml: the guides in docs/ and the API reference in docs/api/) builds
from the pages and the docstrings without a warning (``--strict``), into a temporary folder: the
checkout is left as it was."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings")
pytest.importorskip("mkdocstrings_handlers.python")


def test_api_reference_builds_without_warnings(tmp_path):
    site = tmp_path / "site"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}  # hooks.py leaves no __pycache__ in docs/
    out = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                          str(ROOT / "mkdocs.yml"), "--site-dir", str(site)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "WARNING" not in out.stderr, out.stderr[-3000:]
    for guide in ("PLAYING", "LIBRARY", "BOTS", "RL", "NATIVE", "OPERATORS", "BENCHMARKS", "ARCHITECTURE", "RULES",
                  "SECURITY", "PROTOCOL"):  # the README's links into the site: each guide is a page of it
        assert (site / guide / "index.html").exists(), guide
    pages = {p: (site / "api" / p / "index.html").read_text(encoding="utf-8")
             for p in ("majiang", "engine", "bots", "play", "rl")}
    for name in ("majiang.engine.game.Game", "majiang.games.scoring.score", "majiang.games.rules.rules_for",
                 "majiang.engine.log.replay", "majiang.core.hand.Hand", "majiang.core.analysis.shanten",
                 "majiang.core.analysis.waits", "majiang.engine.notation.PositionError",
                 "majiang.engine.safety.unsafe_tiles", "majiang.engine.safety.safe_choices"):
        assert f'id="{name}"' in pages["majiang"], name
    assert 'id="majiang.bots.ExpertAgent"' in pages["bots"] and 'id="majiang.bots.make_agent"' in pages["bots"]
    assert 'id="majiang.engine.Game"' in pages["engine"]
    assert 'id="majiang.rl.batch.BatchEnv"' in pages["rl"] and 'id="majiang.rl.pettingzoo.env"' in pages["rl"]
    assert 'id="majiang.play.arena.run_arena"' in pages["play"]
    assert 'id="majiang.play.arena.ArenaResult.summary"' in pages["play"]
    assert 'id="majiang.play.review.review_hand"' in pages["play"]
    assert 'id="majiang.play.review.HandReview"' in pages["play"]
    assert 'class="language-pycon"' in pages["majiang"]  # doctests shown as code, not as quotes

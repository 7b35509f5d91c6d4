"""The optional compiled core (setup.py, ``MAJIANG_COMPILE=1``) plays exactly like the
interpreted one: the same engine fingerprint (every event of every hand, across presets)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mypyc") is None or not (shutil.which("cc") or shutil.which("gcc")),
    reason="the compiled core needs mypy (mypyc) and a C compiler")


def _fingerprint(path: Path, hands: int = 15) -> tuple[str, str]:
    env = dict(os.environ, PYTHONPATH=str(path))
    where = subprocess.run([sys.executable, "-c", "import majiang.engine.game as e; print(e.__file__)"], env=env,
                           capture_output=True, text=True, check=True, timeout=120).stdout.strip()
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "engine_fingerprint.py"), "--hands", str(hands)],
                         env=env, capture_output=True, text=True, check=True, timeout=600).stdout.strip()
    return where, out


def test_compiled_core_keeps_the_engine_fingerprint(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so"))
    for name in ("pyproject.toml", "setup.py", "mypyc.ini", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp_path / "dist"), str(tree)],
                   env=dict(os.environ, MAJIANG_COMPILE="1"), check=True, timeout=900)
    wheel = next((tmp_path / "dist").glob("majiang-*.whl"))
    installed = tmp_path / "installed"
    zipfile.ZipFile(wheel).extractall(installed)

    compiled_at, compiled = _fingerprint(installed)
    plain_at, plain = _fingerprint(ROOT / "src")
    assert compiled_at.endswith(".so") and plain_at.endswith(".py")
    assert compiled == plain

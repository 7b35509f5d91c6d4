"""The Rust crate's own checks: its unit tests (``cargo test``), ``cargo clippy -D warnings`` and
``cargo fmt --check``. Each skips cleanly when cargo (or that cargo tool) is not installed; cargo
is found as ``scripts/test.sh`` finds it (on PATH, else ~/.cargo/bin). They share ``native/target``
with ``python -m majiang.native build``, so a built checkout recompiles little."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CRATE = ROOT / "native"
MANIFEST = ["--manifest-path", str(CRATE / "Cargo.toml")]
TARGET = ["--target-dir", str(CRATE / "target")]


def _cargo() -> str | None:
    found = shutil.which("cargo")
    if found:
        return found
    home = Path.home() / ".cargo" / "bin" / "cargo"
    return str(home) if os.access(home, os.X_OK) else None


CARGO = _cargo()

pytestmark = pytest.mark.skipif(CARGO is None or not (CRATE / "Cargo.toml").exists(),
                                reason="needs cargo and the crate (a source checkout)")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # cargo's own directory first, so it finds rustc, clippy-driver and rustfmt beside it
    env["PATH"] = str(Path(CARGO).parent) + os.pathsep + env.get("PATH", "")
    return env


def _has(tool: str) -> bool:
    """Whether ``cargo <tool>`` is installed (clippy and rustfmt are optional rustup components)."""
    r = subprocess.run([CARGO, tool, "--version"], check=False, capture_output=True, text=True, env=_env(), timeout=60)
    return r.returncode == 0


def _cargo_ok(*args: str) -> None:
    r = subprocess.run([CARGO, *args], check=False, capture_output=True, text=True, env=_env(), cwd=ROOT,
                       timeout=1800)
    assert r.returncode == 0, f"cargo {' '.join(args)} failed:\n{r.stdout[-6000:]}\n{r.stderr[-6000:]}"


def test_crate_unit_tests():
    _cargo_ok("test", "--release", "--quiet", *MANIFEST, *TARGET)


def test_clippy_finds_nothing():
    if not _has("clippy"):
        pytest.skip("cargo clippy is not installed")
    # every feature: the CPython binding (feature ``python``) too
    _cargo_ok("clippy", "--release", "--quiet", "--all-targets", "--all-features", *MANIFEST, *TARGET, "--", "-D",
              "warnings")


def test_rustfmt_leaves_the_crate_as_is():
    if not _has("fmt"):
        pytest.skip("cargo fmt (rustfmt) is not installed")
    _cargo_ok("fmt", "--check", *MANIFEST)

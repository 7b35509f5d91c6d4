"""What a wheel holds: built where cargo is, it ships the native engine (a platform wheel whose
users need no Rust toolchain); built without cargo, it still builds and plays on the Python
engine. The crate needs nothing from crates.io, so a build never downloads. The loader looks in
the package first, then in the checkout's cargo output."""

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from majiang import native

ROOT = Path(__file__).resolve().parents[2]
LIB = native._LIB_NAME
HOME_CARGO = Path.home() / ".cargo" / "bin" / "cargo"  # rustup's, found as setup.py finds it
CARGO = shutil.which("cargo") or (str(HOME_CARGO) if os.access(HOME_CARGO, os.X_OK) else None)
needs_cargo = pytest.mark.skipif(CARGO is None, reason="needs cargo")


def _tree(tmp_path: Path) -> Path:
    """The files a clone holds that the build reads (no build output, no library built in place)."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "src", tree / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so", "*.dylib", "*.dll", "*.tmp"))
    shutil.copytree(ROOT / "native", tree / "native", ignore=shutil.ignore_patterns("target"))
    for name in ("pyproject.toml", "setup.py", "README.md", "MANIFEST.in"):
        shutil.copy(ROOT / name, tree / name)
    return tree


def _wheel(tmp_path: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                           "-w", str(tmp_path / "dist"), str(_tree(tmp_path))], env=env, capture_output=True,
                          text=True, timeout=900)


def _without_cargo(tmp_path: Path) -> dict:
    """An environment where setup.py finds no cargo: not on PATH, no CARGO, no ~/.cargo."""
    env = {k: v for k, v in os.environ.items() if k not in ("CARGO", "MAJIANG_NATIVE", "CARGO_TARGET_DIR")}
    env["PATH"] = os.pathsep.join(d for d in env.get("PATH", "").split(os.pathsep)
                                  if d and not (Path(d) / "cargo").exists())
    env["HOME"] = str(tmp_path / "home")
    return env


def _installed(tmp_path: Path, code: str) -> str:
    """Run ``code`` with the wheel built into tmp_path/dist as the only majiang on the path."""
    wheel = next((tmp_path / "dist").glob("majiang-*.whl"))
    installed = tmp_path / "installed"
    zipfile.ZipFile(wheel).extractall(installed)
    env = {k: v for k, v in os.environ.items() if k != "MAJIANG_NATIVE_LIB"}
    env["PYTHONPATH"] = str(installed)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                          timeout=120, cwd=tmp_path).stdout


def test_the_crate_needs_nothing_from_crates_io():
    lock = (ROOT / "native" / "Cargo.lock").read_text()
    assert lock.count("[[package]]") == 1 and 'name = "majiang_native"' in lock
    toml = (ROOT / "native" / "Cargo.toml").read_text()
    deps = re.search(r"^\[dependencies\]\n(.*?)(?=^\[|\Z)", toml, re.S | re.M)
    assert deps is not None and not deps.group(1).strip()
    assert "[build-dependencies]" not in toml and "[dev-dependencies]" not in toml


def test_the_loader_looks_in_the_package_then_in_the_checkout(monkeypatch):
    monkeypatch.delenv("MAJIANG_NATIVE_LIB", raising=False)
    assert native.library_paths() == [ROOT / "src" / "majiang" / LIB, ROOT / "native" / "target" / "release" / LIB]
    monkeypatch.setenv("MAJIANG_NATIVE_LIB", "/elsewhere/lib.so")
    assert native.library_paths() == [Path("/elsewhere/lib.so")]


@pytest.mark.skipif(native.np is None or not (ROOT / "native/target/release" / LIB).exists(),
                    reason="needs numpy and the checkout's cargo build")
def test_a_package_library_that_does_not_load_gives_way_to_the_cargo_build(tmp_path, monkeypatch):
    package = tmp_path / "majiang"
    package.mkdir()
    (package / LIB).write_bytes(b"not a library")
    monkeypatch.delenv("MAJIANG_NATIVE_LIB", raising=False)
    for name, value in (("_HERE", package), ("_lib", None), ("_lib_path", None), ("_load_error", None)):
        monkeypatch.setattr(native, name, value)
    assert native.available() and native.library_path() == ROOT / "native" / "target" / "release" / LIB
    monkeypatch.setattr(native, "_CRATE", tmp_path / "no-crate")
    monkeypatch.setattr(native, "_lib", None)
    assert not native.available()
    assert native.unavailable_reason().startswith(f"no native engine at {package / LIB} (")  # why it did not load


@needs_cargo
def test_a_wheel_built_where_cargo_is_ships_the_engine(tmp_path):
    # the checkout's cargo output is reused (CARGO_TARGET_DIR): the same crate, so nothing to recompile
    env = {k: v for k, v in os.environ.items() if k != "MAJIANG_NATIVE"}
    env.update(CARGO=CARGO, CARGO_TARGET_DIR=str(ROOT / "native" / "target"))
    built = _wheel(tmp_path, env)
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = next((tmp_path / "dist").glob("majiang-*.whl"))
    assert "none-any" not in wheel.name  # a platform wheel
    names = zipfile.ZipFile(wheel).namelist()
    assert f"majiang/{LIB}" in names
    if native.PYTHON_FEATURE:  # the hand analysis' compiled path, from the same build, for every Python 3.11+
        assert f"majiang/core/{native.ANALYSIS_NAME}" in names and "-abi3-" in wheel.name
    assert not any(n.endswith(".c") or "_speedups" in n for n in names)
    code = ("from majiang import native; from majiang.bots import make_agent; from majiang.games.rules import "
            "rules_for; from majiang.core import analysis; g = native.NativeGame(rules_for('kawuxing'), seed=1); "
            "print(native.library_path(), g.to_act(), make_agent('expert').native is native, "
            "analysis.rust is not None and analysis.shanten is analysis.rust.shanten)")
    out = _installed(tmp_path, code).split()
    assert out[0] == str(tmp_path / "installed" / "majiang" / LIB)
    assert out[1:] == ["0", "True", str(native.PYTHON_FEATURE)]


def test_a_wheel_built_without_cargo_plays_on_the_python_engine(tmp_path):
    built = _wheel(tmp_path, _without_cargo(tmp_path))
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = next((tmp_path / "dist").glob("majiang-*.whl"))
    assert not any(name.endswith((LIB, native.ANALYSIS_NAME)) for name in zipfile.ZipFile(wheel).namelist())
    code = ("import warnings; from majiang import native; from majiang.bots import make_agent\n"
            "with warnings.catch_warnings(record=True) as seen:\n"
            "    warnings.simplefilter('always'); agent = make_agent('expert')\n"
            "print(native.available(), agent.native, len(seen)); print(seen[0].message)")
    flags, message = _installed(tmp_path, code).splitlines()
    assert flags == "False None 1"
    assert message.startswith("expert: its search runs in Python") and "platform wheel" in message


@needs_cargo
def test_an_editable_install_where_cargo_is_builds_the_engine_into_the_checkout(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "MAJIANG_NATIVE"}
    env.update(CARGO=CARGO, CARGO_TARGET_DIR=str(ROOT / "native" / "target"))  # nothing to recompile
    built = subprocess.run([sys.executable, "setup.py", "-q", "editable_wheel", "--dist-dir", str(tmp_path / "ed")],
                           cwd=_tree(tmp_path), env=env, capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stderr[-3000:]
    assert (tmp_path / "tree" / "src" / "majiang" / LIB).exists()
    assert (tmp_path / "tree" / "src" / "majiang" / "core" / native.ANALYSIS_NAME).exists() == native.PYTHON_FEATURE


def test_an_editable_install_without_cargo_goes_on_with_one_warning(tmp_path):
    built = subprocess.run([sys.executable, "setup.py", "editable_wheel", "--dist-dir", str(tmp_path / "ed")],
                           cwd=_tree(tmp_path), env=_without_cargo(tmp_path), capture_output=True, text=True,
                           timeout=900)
    assert built.returncode == 0, built.stderr[-3000:]
    assert not (tmp_path / "tree" / "src" / "majiang" / LIB).exists()
    said = [line for line in (built.stdout + built.stderr).splitlines() if "native engine is not built" in line]
    assert len(said) == 1 and "cargo not found" in said[0] and "Python engine" in said[0], said


def test_majiang_native_1_without_cargo_stops_the_build(tmp_path):
    env = dict(_without_cargo(tmp_path), MAJIANG_NATIVE="1")
    built = _wheel(tmp_path, env)
    assert built.returncode != 0 and "cargo not found" in built.stderr + built.stdout
    assert not list((tmp_path / "dist").glob("*.whl"))


def test_the_sdist_carries_the_crate_without_its_build_output(tmp_path):
    tree = _tree(tmp_path)
    (tree / "native" / "target").mkdir()
    (tree / "native" / "target" / "stale.rlib").write_text("build output")
    subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(tmp_path / "sdist")], cwd=tree,
                   check=True, capture_output=True, timeout=300)
    with tarfile.open(next((tmp_path / "sdist").glob("majiang-*.tar.gz"))) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"native/Cargo.toml", "native/Cargo.lock", "native/src/lib.rs", "native/src/python.rs"} <= names
    assert not any(n.endswith((".c", ".so")) for n in names)  # no C left, nothing built
    assert not any(n.startswith("native/target") for n in names)

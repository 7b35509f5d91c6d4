"""Packaging is in pyproject.toml; this file only adds the optional compiled parts.

The native engine (``native/``, Rust, no crates.io dependencies): a wheel or a normal install
(``pip wheel .``, ``pip install .``) builds it with ``cargo --frozen`` (offline, from the crate's
own lock file) when cargo is found (``CARGO``, on PATH, or ``~/.cargo/bin``) and ships it inside
the package, so a wheel made where cargo is installed gives its users the fast ``expert`` bot and
RL backend with no Rust toolchain. The same build (cargo feature ``python``) is the hand
analysis' compiled path, the extension module ``majiang/core/_analysis.abi3.so`` (the stable ABI:
one file for every Python from 3.11). Without cargo, or when the build fails, the install goes on
(one warning says why) and the Python engine and analysis answer. ``MAJIANG_NATIVE=1`` makes the
build required (no cargo or a failure stops the install), ``MAJIANG_NATIVE=0`` skips it.
Editable installs (the README's first command) build it the same way and put both files in
``src/majiang/``, so a checkout with cargo plays on it from the first command;
``python -m majiang.native build`` rebuilds them after the crate changes.

``MAJIANG_COMPILE=1 pip install --no-build-isolation .`` (with ``mypy`` installed) compiles the
rules engine and hand analysis with mypyc: the same behaviour (``scripts/engine_fingerprint.py``
gives the same hash), about twice the engine speed. Without the variable nothing is compiled.
Not for editable installs: compiled modules would shadow the edited sources.
"""

import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

COMPILED = ["core/hand", "core/analysis", "engine/game", "engine/claims", "engine/settlement", "games/scoring",
            "games/base", "games/kawuxing/fans", "games/kawuxing/play", "games/sichuan/fans", "games/sichuan/play"]
HERE = Path(__file__).resolve().parent


def _load_cargo_module():
    """``majiang.native.cargo`` (how the crate is built and where its build goes), by its path: the
    package is not installed yet."""
    spec = importlib.util.spec_from_file_location("_majiang_cargo", HERE / "src" / "majiang" / "native" / "cargo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cargo_build = _load_cargo_module()


def native_choice() -> str:
    """``MAJIANG_NATIVE``: "1" (required), "0" (skipped) or "auto" (when cargo is found)."""
    value = os.environ.get("MAJIANG_NATIVE", "auto").strip().lower() or "auto"
    return {"true": "1", "yes": "1", "false": "0", "no": "0"}.get(value, value)


def find_cargo() -> str | None:
    """cargo as ``scripts/test.sh`` finds it: ``CARGO``, then PATH, then rustup's ``~/.cargo/bin``."""
    if os.environ.get("CARGO"):
        return os.environ["CARGO"]
    home = Path.home() / ".cargo" / "bin" / "cargo"
    return shutil.which("cargo") or (str(home) if os.access(home, os.X_OK) else None)


def build_native(cargo: str) -> Path:
    """The crate built in release mode, offline and from its lock file, with the CPython binding
    where it is built (``majiang.native.cargo``); returns the library."""
    crate = HERE / "native"
    target = Path(os.environ.get("CARGO_TARGET_DIR") or crate / "target")  # cargo's own variable, if set
    env = dict(os.environ)
    env["PATH"] = str(Path(cargo).parent) + os.pathsep + env.get("PATH", "")  # rustc beside cargo
    cmd = cargo_build.cargo_command(cargo, crate / "Cargo.toml", True,
                                    ("--frozen", "--quiet", "--target-dir", str(target)))
    subprocess.run(cmd, check=True, env=env)
    return target / "release" / cargo_build.LIB_NAME


class BuildWithNative(build_py):
    """Also build the native engine with cargo and ship it inside the package (see above)."""

    def run(self) -> None:
        super().run()
        choice = native_choice()
        editable = getattr(self, "editable_mode", False)
        if choice == "0" or not (HERE / "native" / "Cargo.toml").exists():
            return
        cargo = find_cargo()
        try:
            if cargo is None:
                raise FileNotFoundError("cargo not found (install Rust: rustup.rs, or set CARGO)")
            built = build_native(cargo)
        except (OSError, subprocess.CalledProcessError) as exc:
            if choice == "1":
                raise
            self.warn(f"the native engine is not built ({exc}): this install plays on the Python engine "
                      "and analyses hands in Python")
            return
        cargo_build.install(built, (HERE / "src" if editable else Path(self.build_lib)) / "majiang")


class MaybeBinaryDistribution(Distribution):
    """A wheel that may hold the native library is for one platform."""

    def has_ext_modules(self) -> bool:
        return native_choice() != "0" or super().has_ext_modules()


ext_modules = []
if os.environ.get("MAJIANG_COMPILE"):
    from mypyc.build import mypycify

    ext_modules += mypycify(["--config-file", "mypyc.ini"] + [f"src/majiang/{m}.py" for m in COMPILED])

# what is compiled is version-independent (a ctypes library, a stable-ABI module) unless mypyc ran
options = {} if os.environ.get("MAJIANG_COMPILE") else {"bdist_wheel": {"py_limited_api": "cp311"}}
setup(ext_modules=ext_modules, cmdclass={"build_py": BuildWithNative}, distclass=MaybeBinaryDistribution,
      options=options)

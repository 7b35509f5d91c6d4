"""Packaging is in pyproject.toml; this file only adds the optional compiled parts.

The native engine (``native/``, Rust, no crates.io dependencies): a wheel or a normal install
(``pip wheel .``, ``pip install .``) builds it with ``cargo --frozen`` (offline, from the crate's
own lock file) when cargo is found (``CARGO``, on PATH, or ``~/.cargo/bin``) and ships it inside
the package, so a wheel made where cargo is installed gives its users the fast ``expert`` bot and
RL backend with no Rust toolchain. Without cargo, or when the build fails, the install goes on
(a warning says why) and the Python engine answers. ``MAJIANG_NATIVE=1`` makes the build
required (no cargo or a failure stops the install), ``MAJIANG_NATIVE=0`` skips it. Editable
installs (the README's first command) build it the same way and put it in ``src/majiang/``, so a
checkout with cargo plays on it from the first command; ``python -m majiang.native build``
rebuilds it after the crate changes.

``MAJIANG_COMPILE=1 pip install --no-build-isolation .`` (with ``mypy`` installed) compiles the
rules engine and hand analysis with mypyc: the same behaviour (``scripts/engine_fingerprint.py``
gives the same hash), about twice the engine speed. Without the variable nothing is compiled.
Not for editable installs: compiled modules would shadow the edited sources.

Always, when a C compiler is there: the hand analysis' hot path (``src/majiang/core/_speedups.c``,
shanten and waits of one hand per call) as an extension module. It is optional: if it does not
compile, the install goes on and the pure-Python analysis (the reference) answers. Editable
installs build it in place; ``python setup.py build_ext --inplace`` rebuilds it in a checkout.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution, Extension, setup
from setuptools.command.build_py import build_py

COMPILED = ["core/hand", "core/analysis", "engine/game", "engine/claims", "engine/settlement", "games/scoring",
            "games/base", "games/kawuxing/fans", "games/kawuxing/play", "games/sichuan/fans", "games/sichuan/play"]
HERE = Path(__file__).resolve().parent
NATIVE_LIB = {"darwin": "libmajiang_native.dylib", "win32": "majiang_native.dll"}.get(sys.platform,
                                                                                       "libmajiang_native.so")


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
    """The crate built in release mode, offline and from its lock file; returns the library."""
    crate = HERE / "native"
    target = Path(os.environ.get("CARGO_TARGET_DIR") or crate / "target")  # cargo's own variable, if set
    env = dict(os.environ)
    env["PATH"] = str(Path(cargo).parent) + os.pathsep + env.get("PATH", "")  # rustc beside cargo
    subprocess.run([cargo, "build", "--release", "--frozen", "--quiet", "--manifest-path", str(crate / "Cargo.toml"),
                    "--target-dir", str(target)], check=True, env=env)
    return target / "release" / NATIVE_LIB


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
            self.warn(f"the native engine is not built ({exc}): this install plays on the Python engine")
            return
        dest = (HERE / "src" if editable else Path(self.build_lib)) / "majiang" / NATIVE_LIB
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_suffix(".tmp")
        shutil.copyfile(built, tmp)
        os.replace(tmp, dest)  # a library already loaded keeps its old file


class MaybeBinaryDistribution(Distribution):
    """A wheel that may hold the native library is for one platform (so is the C extension's)."""

    def has_ext_modules(self) -> bool:
        return native_choice() != "0" or super().has_ext_modules()


# optional: a failed compile is a warning, and analysis.py then runs on its Python path
ext_modules = [Extension("majiang.core._speedups", ["src/majiang/core/_speedups.c"], optional=True)]
if os.environ.get("MAJIANG_COMPILE"):
    from mypyc.build import mypycify

    ext_modules += mypycify(["--config-file", "mypyc.ini"] + [f"src/majiang/{m}.py" for m in COMPILED])

setup(ext_modules=ext_modules, cmdclass={"build_py": BuildWithNative}, distclass=MaybeBinaryDistribution)

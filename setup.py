"""Packaging is in pyproject.toml; this file only adds the optional compiled parts.

``MAJIANG_NATIVE=1 pip install .`` (or ``pip wheel``) builds the native engine (``native/``, Rust:
needs ``cargo``; no crates are downloaded) into the package, for the RL environments' fast
backend (``majiang.native``). In a checkout, ``python -m majiang.native build`` does the same in
place, for editable installs.

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


class BuildWithNative(build_py):
    """Also build the native engine with cargo and ship it inside the package."""

    def run(self) -> None:
        super().run()
        if not os.environ.get("MAJIANG_NATIVE"):
            return
        crate = HERE / "native"
        target = crate / "target"
        cargo = os.environ.get("CARGO") or shutil.which("cargo") or str(Path.home() / ".cargo" / "bin" / "cargo")
        subprocess.run([cargo, "build", "--release", "--quiet", "--manifest-path", str(crate / "Cargo.toml"),
                        "--target-dir", str(target)], check=True)
        dest = Path(self.build_lib) / "majiang" / NATIVE_LIB
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(target / "release" / NATIVE_LIB, dest)


class MaybeBinaryDistribution(Distribution):
    """A wheel with the native library in it is for one platform."""

    def has_ext_modules(self) -> bool:
        return bool(os.environ.get("MAJIANG_NATIVE")) or super().has_ext_modules()


# optional: a failed compile is a warning, and analysis.py then runs on its Python path
ext_modules = [Extension("majiang.core._speedups", ["src/majiang/core/_speedups.c"], optional=True)]
if os.environ.get("MAJIANG_COMPILE"):
    from mypyc.build import mypycify

    ext_modules += mypycify(["--config-file", "mypyc.ini"] + [f"src/majiang/{m}.py" for m in COMPILED])

setup(ext_modules=ext_modules, cmdclass={"build_py": BuildWithNative}, distclass=MaybeBinaryDistribution)

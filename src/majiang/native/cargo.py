"""How the crate is built and where its one build goes, defined once for ``setup.py`` (which loads
this file by its path, before the package is installed: standard library only) and
``python -m majiang.native build``.

One cargo run builds the library (``LIB_NAME``, loaded with ctypes) and, with the cargo feature
``python``, the hand analysis' CPython binding in the same file, put a second time where Python
imports it (``ANALYSIS_NAME`` in ``majiang/core``). The binding needs the interpreter's symbols
when it loads: on macOS the library is linked to look them up then; on Windows, where it would have
to link against one Python's import library, the feature is left out and the analysis runs in
Python.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

LIB_NAME = {"darwin": "libmajiang_native.dylib", "win32": "majiang_native.dll"}.get(sys.platform,
                                                                                    "libmajiang_native.so")
ANALYSIS_NAME = "_analysis.abi3.so"  # the stable ABI: one file for every Python from 3.11
PYTHON_FEATURE = sys.platform != "win32"


def cargo_command(cargo: str, manifest: Path, release: bool = True, options: tuple[str, ...] = ()) -> list[str]:
    """The command line that builds the library (with the binding where it is built); ``options``
    are cargo's own (``--frozen``, ``--quiet``, ``--target-dir …``)."""
    darwin = sys.platform == "darwin" and PYTHON_FEATURE
    cmd = [cargo, "rustc" if darwin else "build", "--lib", "--manifest-path", str(manifest),
           *(["--release"] if release else []), *options]
    if PYTHON_FEATURE:
        cmd += ["--features", "python"]
    if darwin:  # the interpreter's symbols are looked up when the module loads
        cmd += ["--", "-C", "link-arg=-undefined", "-C", "link-arg=dynamic_lookup"]
    return cmd


def put(built: Path, dest: Path) -> None:
    """Copy a built library into place through a temporary file: a process that has the old one
    loaded keeps its old file."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_suffix(".tmp")
    shutil.copyfile(built, tmp)
    os.replace(tmp, dest)


def install(built: Path, package: Path) -> None:
    """The one build into the package folder ``package`` (``…/majiang``): the library, and the
    analysis' module where the binding is built."""
    put(built, package / LIB_NAME)
    if PYTHON_FEATURE:
        put(built, package / "core" / ANALYSIS_NAME)

"""Packaging is in pyproject.toml; this file only adds the optional compiled core.

``MAJIANG_COMPILE=1 pip install --no-build-isolation .`` (with ``mypy`` installed) compiles the
rules engine and hand analysis with mypyc: the same behaviour (``scripts/engine_fingerprint.py``
gives the same hash), about twice the engine speed. Without the variable nothing is compiled.
Not for editable installs: compiled modules would shadow the edited sources.
"""

import os

from setuptools import setup

COMPILED = ["hand", "analysis", "engine", "scoring", "sichuan", "kawuxing"]

ext_modules = []
if os.environ.get("MAJIANG_COMPILE"):
    from mypyc.build import mypycify

    ext_modules = mypycify(["--config-file", "mypyc.ini"] + [f"src/majiang/{m}.py" for m in COMPILED])

setup(ext_modules=ext_modules)

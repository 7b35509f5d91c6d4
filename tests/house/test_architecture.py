"""The architecture as a test: the layers of ``pyproject.toml``'s import contracts (import-linter,
imports inside functions included), and no package reaching into another's private names."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "majiang"


def test_imports_follow_the_layers():
    pytest.importorskip("importlinter")
    lint = Path(sys.executable).parent / "lint-imports"
    command = [str(lint)] if lint.exists() else [sys.executable, "-m", "importlinter.cli"]
    result = subprocess.run(command + ["--config", str(ROOT / "pyproject.toml"), "--no-cache"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]


def _part(module: str) -> str:
    """The package a module belongs to for privacy: ``majiang.rl.encoder`` → ``majiang.rl``."""
    parts = module.split(".")
    return ".".join(parts[:2])


def test_no_package_imports_another_packages_private_names():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("majiang"):
                for alias in node.names:
                    private = alias.name.startswith("_") and not alias.name.endswith("__")
                    if private and _part(node.module) != _part(module):
                        offenders.append(f"{module} imports {node.module}.{alias.name}")
    assert not offenders, offenders


def test_the_core_and_engine_import_no_project_module_by_name():
    """import-linter sees only import statements: a module named in a string (``importlib.import_module``,
    ``__import__``, an entry point's ``load``) would hide an edge from the layers, so the two lowest
    layers that play have none (``core.batch`` may find numpy's C API so; it is no project module)."""
    offenders = []
    for layer in ("core", "engine"):
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(node, ast.Call):
                    continue
                called = ast.unparse(node.func)
                if not (called.endswith("import_module") or called == "__import__" or called.endswith("entry_points")):
                    continue
                named = node.args[0] if node.args else None
                outside = (isinstance(named, ast.Constant) and isinstance(named.value, str)
                           and named.value.split(".")[0] not in ("majiang", ""))
                if not outside:
                    offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node)}")
    assert not offenders, offenders


def test_the_tree_shows_the_layers():
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert {"core", "games", "engine", "native", "bots", "play", "rl", "server", "cli"} <= packages
    loose = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__", "__main__"}
    assert not loose, f"modules outside the layers: {sorted(loose)}"


def test_the_core_games_and_engine_type_check():
    """mypy over the stdlib-only layers, with no error class silenced (``mypyc.ini``)."""
    pytest.importorskip("mypy")
    result = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "mypyc.ini"),
                             str(PACKAGE / "core"), str(PACKAGE / "games"), str(PACKAGE / "engine")],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:]


def _imports_of(path: Path) -> set[str]:
    """The majiang modules a file imports at run time, at the top or inside functions."""
    found = set()
    tree = ast.parse(path.read_text(), str(path))
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(block.test) for stmt in block.body for n in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in typing_only:  # for annotations only: no import at run time
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("majiang") and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("majiang"))
    return found


def test_no_two_modules_import_each_other():
    """A cycle hidden in function-level imports is still a cycle (bots.expert and bots.expert_setup were one)."""
    modules = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): p
               for p in PACKAGE.rglob("*.py")}
    imports = {m: _imports_of(p) & set(modules) for m, p in modules.items()}
    pairs = sorted({tuple(sorted((a, b))) for a, seen in imports.items() for b in seen
                    if a != b and a in imports.get(b, ()) and not a.startswith(b + ".") and not b.startswith(a + ".")})
    assert not pairs, pairs


def test_import_majiang_stays_light():
    """``import majiang`` loads the standard-library core only; the engine's names load when first
    used."""
    code = ("import sys, majiang; "
            "heavy = [m for m in ('numpy', 'majiang.engine', 'majiang.bots') if m in sys.modules]; print(heavy); "
            "majiang.Game; print('majiang.engine' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.split() == ["[]", "True"]


def test_ruff_finds_nothing():
    """The lint rules chosen in pyproject.toml (``[tool.ruff.lint]``), with the ruff the test extra
    pins: a finding fails here, not in a reviewer's eye."""
    try:
        import ruff  # noqa: F401
    except ImportError:
        pytest.skip("ruff is not installed (the test extra pins it)")
    found = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "src", "tests", "benchmarks",
                            "scripts", "examples"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert found.returncode == 0, found.stdout + found.stderr

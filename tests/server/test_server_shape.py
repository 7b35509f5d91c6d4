"""The server's shape (issue 45): no class holds more than 20 attributes, the live table's behaviour
mixins included, and a room's rules (``room.py``) import nothing that does I/O."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "majiang" / "server"
MAX_ATTRIBUTES = 20


def _classes() -> dict[str, ast.ClassDef]:
    out = {}
    for path in SERVER.glob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                out[f"{path.stem}.{node.name}"] = node
    return out


def _assigned(cls: ast.ClassDef) -> set[str]:
    """The attributes a class's methods assign on ``self`` (properties' setters aside)."""
    names = set()
    for node in ast.walk(cls):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AnnAssign, ast.AugAssign)) else []
        for t in targets:
            for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                if isinstance(el, ast.Attribute) and isinstance(el.value, ast.Name) and el.value.id == "self":
                    names.add(el.attr)
    return names


def test_no_server_class_holds_more_than_twenty_attributes():
    classes = _classes()
    by_name = {name.split(".")[1]: c for name, c in classes.items()}
    for name, cls in classes.items():
        attrs = set(_assigned(cls))
        for base in cls.bases:  # a class's mixins assign on the same object
            if isinstance(base, ast.Name) and base.id in by_name:
                attrs |= _assigned(by_name[base.id])
        setters = {f.name for f in ast.walk(cls) if isinstance(f, ast.FunctionDef)
                   and any(isinstance(d, ast.Attribute) and d.attr == "setter" for d in f.decorator_list)}
        attrs -= setters  # a property's setter stores under its own private name, counted there
        assert len(attrs) <= MAX_ATTRIBUTES, (name, sorted(attrs))
    assert len(_assigned(by_name["LiveTable"])) >= 15  # (the scan sees the table's attributes)


def test_the_room_transition_imports_nothing_that_does_io():
    tree = ast.parse((SERVER / "room.py").read_text(encoding="utf-8"))
    modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert modules <= {"__future__", "json", "dataclasses", "typing", "majiang.server.clock",
                       "majiang.server.errors", "majiang.server.match", "majiang.server.seating"}, modules

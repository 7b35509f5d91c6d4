"""The page's protocol types (types/protocol.d.ts) are generated from the server's JSON Schemas by
scripts/page_types.py: regenerating gives the committed file byte for byte, so the two cannot drift
(tsc then holds the page to them: tests/page/test_page_js.py)."""

from __future__ import annotations

import importlib.util
import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def generator():
    spec = importlib.util.spec_from_file_location("page_types", os.path.join(ROOT, "scripts", "page_types.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_types_are_what_the_schemas_generate():
    with open(os.path.join(ROOT, "types", "protocol.d.ts"), encoding="utf-8", newline="") as f:
        committed = f.read()
    assert generator().generate() == committed, "types/protocol.d.ts is stale: run python scripts/page_types.py"


def test_the_snapshot_is_typed_from_both_schemas():
    text = generator().generate()
    assert "  interface Snapshot {" in text and "    view: Observation | null;" in text
    assert "  interface Observation {" in text and "  interface Player {" in text
    assert "    code: " in text  # an Error's code: the catalogue's codes, not any string


def test_a_construct_the_generator_does_not_know_is_refused():
    writer = generator().Writer({"$defs": {"x": {"type": "object", "properties": {"a": {"not": {}}}}}})
    with pytest.raises(ValueError, match="not understood"):
        writer.declarations("test")

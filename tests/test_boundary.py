"""The Python–Rust boundary is defined once (``majiang.native.spec``): the crate's constants are
generated from it, so they cannot drift apart by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from majiang.native import spec

SPEC_RS = Path(__file__).resolve().parent.parent / "native" / "src" / "spec.rs"


@pytest.mark.skipif(not SPEC_RS.exists(), reason="needs the crate (a source checkout)")
def test_the_crate_constants_are_generated_from_the_python_spec():
    assert SPEC_RS.read_text() == spec.rust_source(), \
        "native/src/spec.rs is stale: run `python -m majiang.native spec` and rebuild"


def test_the_abi_version_follows_from_the_constants(monkeypatch):
    before = spec._abi_version()
    monkeypatch.setattr(spec, "OBS_SIZE", spec.OBS_SIZE + 1)
    assert spec._abi_version() != before
    assert spec.ABI_VERSION == before


def test_the_layout_adds_up():
    assert spec.OBS_SIZE == spec.OBS_TAIL + 1 + spec.N_PHASES + 30 + 4 + 4 + 4
    assert spec.OBS_TAIL == spec.OBS_SLOTS + 4 * spec.SLOT
    assert spec.SLOT == spec.SLOT_PRESENT + 1
    assert spec.ACTION_EXCHANGE + 3 == spec.N_ACTIONS
    assert (spec.OBS_COMPACT_MONEY, spec.OBS_COMPACT_SIZE) == (spec.OBS_SIZE, spec.OBS_SIZE + 4 * 4)  # 4 × int32
    assert {spec.OBS_KIND_FLOAT32, spec.OBS_KIND_COMPACT} == {0, 1}
    assert len(spec.PHASES) == spec.N_PHASES

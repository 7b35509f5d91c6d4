"""The Python–Rust boundary is defined once (``majiang.native.spec``): the crate's constants are
generated from it, so they cannot drift apart by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from majiang.native import spec

SPEC_RS = Path(__file__).resolve().parents[2] / "native" / "src" / "spec.rs"


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


ABI_RS = SPEC_RS.with_name("abi.rs")
LIB_RS = SPEC_RS.with_name("lib.rs")


@pytest.mark.skipif(not ABI_RS.exists(), reason="needs the crate (a source checkout)")
def test_the_crate_signature_checks_are_generated_from_the_python_spec():
    assert ABI_RS.read_text() == spec.rust_abi_source(), \
        "native/src/abi.rs is stale: run `python -m majiang.native spec` and rebuild"


@pytest.mark.skipif(not LIB_RS.exists(), reason="needs the crate (a source checkout)")
def test_every_entry_point_of_the_crate_is_declared_once_in_the_spec():
    """An entry point added to lib.rs is declared in ``spec.FUNCTIONS`` too (its ctypes prototype and
    its compile-time signature check are generated from there, and the ABI version hashes it)."""
    import re

    exported = re.findall(r'pub (?:unsafe )?extern "C" fn (mj_\w+)', LIB_RS.read_text())
    declared = [name for name, _, _ in spec.FUNCTIONS]
    assert sorted(exported) == sorted(declared) and len(set(declared)) == len(declared)


def test_the_abi_version_follows_from_the_signatures(monkeypatch):
    before = spec._abi_version()
    name, ret, args = spec.FUNCTIONS[2]
    monkeypatch.setattr(spec, "FUNCTIONS", ((name, ret, tuple(reversed(args))),) + spec.FUNCTIONS[3:])
    assert spec._abi_version() != before


def test_every_prototype_is_set_from_the_spec():
    import ctypes

    native = pytest.importorskip("majiang.native")
    if not native.available():
        pytest.skip(native.unavailable_reason())
    lib = native.require()
    for name, ret, args in spec.FUNCTIONS:
        fn = getattr(lib, name)
        assert fn.restype is spec.ctypes_type(ret)
        assert list(fn.argtypes) == [spec.ctypes_type(a.split(":")[1].strip()) for a in args]
    assert spec.ctypes_type("*const i64") is ctypes.c_void_p

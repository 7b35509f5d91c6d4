"""The server says once, in its log at start, that the native engine does not load (why, and what would load it)."""

import logging

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from majiang.bots import base  # noqa: E402
from majiang.server import app as server  # noqa: E402


def test_start_without_the_native_engine_logs_one_line(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(base, "native_engine", lambda: None)
    monkeypatch.setattr(server, "_noted_python_engine", False)
    with caplog.at_level(logging.WARNING, logger="majiang.server"):
        for name in ("a", "b"):  # two apps in one process: said once
            with TestClient(server.create_app(f"sqlite:///{tmp_path / name}.sqlite3", bot_delay=0.0)):
                pass
    lines = [r.getMessage() for r in caplog.records if "the bots think in Python" in r.getMessage()]
    assert len(lines) == 1 and "platform wheel" in lines[0] and "python -m majiang.native build" in lines[0]


def test_nothing_is_said_when_it_is_built(monkeypatch):
    monkeypatch.setattr(server, "_noted_python_engine", False)
    assert server.note_python_engine(native_built=True) is None
    assert server._noted_python_engine is False

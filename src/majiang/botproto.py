"""Bots in any language over JSON lines on stdin/stdout (see docs/BOTS.md).

For every decision the harness writes one line::

    {"type": "decide", "id": 17, "seat": 2, "observation": {...}, "legal": [{"type": "discard", "tile": "5p"}, ...]}

and the bot answers with exactly one line naming one of the legal actions::

    {"id": 17, "action": {"type": "discard", "tile": "5p"}}

A reply that is late (``timeout`` seconds), malformed, for another id, or not legal is replaced by
a safe default (pass if allowed, else discard the drawn tile, else the first legal action) and
counted in ``stats``. The process is started on first use and kept for the agent's life.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
import time

from .engine import Action
from .errors import IllegalActionError


def safe_default(obs: dict, legal: list[Action]) -> Action:
    for a in legal:
        if a.type == "pass":
            return a
    drawn = obs.get("drawn")
    for a in legal:
        if a.type == "discard" and drawn is not None and str(a.tile) == drawn:
            return a
    for a in legal:
        if a.type == "discard":
            return a
    return legal[0]


class SubprocessAgent:
    def __init__(self, command: str, timeout: float = 1.0) -> None:
        self.command = command
        self.name = f"cmd:{command}"
        self.timeout = timeout
        self.stats = {"decisions": 0, "timeouts": 0, "malformed": 0, "illegal": 0}
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._next_id = 0

    def _start(self) -> None:
        self._proc = subprocess.Popen(shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, bufsize=1)
        proc = self._proc

        def pump() -> None:
            for line in proc.stdout:
                self._lines.put(line)
            self._lines.put(None)

        threading.Thread(target=pump, daemon=True).start()

    def act(self, obs: dict, legal: list[Action]) -> Action:
        if self._proc is None or self._proc.poll() is not None:
            self._start()
        self._next_id += 1
        rid = self._next_id
        self.stats["decisions"] += 1
        prompt = {"type": "decide", "id": rid, "seat": obs.get("seat"), "observation": obs,
                  "legal": [a.to_json() for a in legal]}
        try:
            self._proc.stdin.write(json.dumps(prompt, ensure_ascii=False) + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.stats["malformed"] += 1
            return safe_default(obs, legal)
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stats["timeouts"] += 1
                return safe_default(obs, legal)
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                self.stats["timeouts"] += 1
                return safe_default(obs, legal)
            if line is None:
                self.stats["malformed"] += 1
                return safe_default(obs, legal)
            try:
                reply = json.loads(line)
                if not isinstance(reply, dict):
                    raise ValueError
            except ValueError:
                self.stats["malformed"] += 1
                return safe_default(obs, legal)
            if reply.get("id") != rid:
                continue  # a stale answer to an earlier prompt: drop it and keep waiting
            try:
                action = Action.from_json(reply.get("action"))
            except IllegalActionError:
                self.stats["malformed"] += 1
                return safe_default(obs, legal)
            if action not in legal:
                self.stats["illegal"] += 1
                return safe_default(obs, legal)
            return action

    def close(self) -> None:
        if self._proc is not None:
            try:
                self._proc.stdin.close()
                self._proc.wait(timeout=2)
            except Exception:  # noqa: BLE001 - best effort on shutdown
                self._proc.kill()
            self._proc = None

    def __del__(self) -> None:  # pragma: no cover
        try:
            self.close()
        except Exception:  # noqa: BLE001
            pass

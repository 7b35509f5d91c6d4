"""Bots in any language over JSON lines on stdin/stdout (see docs/BOTS.md, protocol version 2).

When the process starts the harness writes ``{"type": "hello", "protocol": 2}``; at the start of
each hand, for each seat the process plays, ``{"type": "hand", "seat": 2, "variant": ..., "dealer":
..., "rules": {...}}``; and for every decision one line::

    {"type": "decide", "id": 17, "seat": 2, "observation": {...}, "legal": [{"type": "discard", "tile": "5p"}, ...]}

(the observation without ``rules`` and ``legal``, which the hand message and the prompt carry).
The bot answers only decisions, with exactly one line naming one of the legal actions::

    {"id": 17, "action": {"type": "discard", "tile": "5p"}}

A reply that is late (``timeout`` seconds), malformed, for another id, or not legal is replaced by
a safe default (pass if allowed, else discard the drawn tile, else the first legal action) and
counted in ``stats``. The process is started on first use and kept for the agent's life; if it
dies, the last lines of its stderr (its traceback) are printed and it is started again at the next
decision. Its stderr is kept: in a file (``stderr=PATH``), passed through to ours (``stderr="-"``),
and in any case its last lines in memory (``stderr_tail``).
"""

from __future__ import annotations

import collections
import json
import queue
import shlex
import subprocess
import sys
import threading
import time

from majiang.core.errors import IllegalActionError
from majiang.engine import Action

PROTOCOL = 2
MAX_DEATH_REPORTS = 3  # a bot that dies at every start is reported this many times, then counted only


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


def prompt_observation(obs: dict) -> dict:
    """The observation as a prompt carries it: without ``rules`` (sent once per hand) and ``legal``."""
    return {k: v for k, v in obs.items() if k not in ("rules", "legal")}


def traceback_excerpt(lines, limit: int = 20) -> list[str]:
    """The last traceback in ``lines`` (from its ``Traceback`` line), else the last lines."""
    lines = [ln.rstrip("\n") for ln in lines]
    start = max((i for i, ln in enumerate(lines) if ln.startswith("Traceback")), default=None)
    if start is not None:
        return lines[start:start + limit]
    return lines[-limit:]


class SubprocessAgent:
    def __init__(self, command: str, timeout: float = 1.0, stderr: str | None = None,
                 label: str | None = None) -> None:
        self.command = command
        self.name = f"cmd:{command}"
        self.label = label or self.name
        self.timeout = timeout
        self.stderr = stderr
        self.stats = {"decisions": 0, "timeouts": 0, "malformed": 0, "illegal": 0, "crashes": 0}
        self.seat_stats: dict = {}  # the same counts per seat (a shared process plays several)
        self.stderr_tail: collections.deque = collections.deque(maxlen=200)
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._err_thread: threading.Thread | None = None
        self._next_id = 0
        self._hand_sent: dict = {}  # seat -> (rules, tiles_left at its last prompt) of the hand announced
        self._reported = 0

    # ------------------------------------------------------------------ the process

    def _start(self) -> None:
        self._proc = subprocess.Popen(shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, bufsize=1)
        proc = self._proc
        self._lines = lines = queue.Queue()
        self._hand_sent = {}

        def pump() -> None:
            for line in proc.stdout:
                lines.put(line)
            lines.put(None)

        def pump_err() -> None:
            sink = open(self.stderr, "a", encoding="utf-8") if self.stderr not in (None, "-") else None
            try:
                for line in proc.stderr:
                    self.stderr_tail.append(line)
                    if sink is not None:
                        sink.write(line)
                        sink.flush()
                    elif self.stderr == "-":
                        sys.stderr.write(f"[{self.label}] {line}")
                        sys.stderr.flush()
            finally:
                if sink is not None:
                    sink.close()

        threading.Thread(target=pump, daemon=True).start()
        self._err_thread = threading.Thread(target=pump_err, daemon=True)
        self._err_thread.start()
        self._send({"type": "hello", "protocol": PROTOCOL})

    def _send(self, msg: dict) -> bool:
        try:
            self._proc.stdin.write(json.dumps(msg, ensure_ascii=False, separators=(",", ":")) + "\n")
            self._proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def _count(self, kind: str, seat) -> None:
        self.stats[kind] += 1
        per = self.seat_stats.setdefault(seat, dict.fromkeys(self.stats, 0))
        per[kind] += 1

    def _died(self, seat=None) -> None:
        """The process exited: count it, and print the end of its stderr (its traceback)."""
        proc, self._proc = self._proc, None
        try:
            rc = proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = proc.wait()
        if self._err_thread is not None:
            self._err_thread.join(timeout=2)
        self._count("crashes", seat)
        self._reported += 1
        if self._reported <= MAX_DEATH_REPORTS:
            where = f" (stderr in {self.stderr})" if self.stderr not in (None, "-") else ""
            msg = [f"majiang: bot {self.label} exited with status {rc}{where}"]
            msg += [f"  | {ln}" for ln in traceback_excerpt(self.stderr_tail)]
            if self._reported == MAX_DEATH_REPORTS:
                msg.append(f"majiang: further exits of {self.label} are counted, not shown")
            print("\n".join(msg), file=sys.stderr, flush=True)
        self.stderr_tail.clear()

    # ------------------------------------------------------------------ the game

    def start_hand(self, seat: int) -> None:
        """A new hand begins (``play_hand`` calls this): announce it before this seat's next prompt."""
        self._hand_sent.pop(seat, None)

    def _announce(self, seat, obs: dict) -> bool:
        rules = obs.get("rules")
        sent = self._hand_sent.get(seat)
        # a hand is new when play_hand said so, the rules changed, or the wall grew back
        if sent is not None and sent[0] == rules and obs.get("tiles_left", 0) <= sent[1]:
            self._hand_sent[seat] = (rules, obs.get("tiles_left", 0))
            return True
        self._hand_sent[seat] = (rules, obs.get("tiles_left", 0))
        return self._send({"type": "hand", "seat": seat, "variant": obs.get("variant"), "dealer": obs.get("dealer"),
                           "rules": rules})

    def act(self, obs: dict, legal: list[Action]) -> Action:
        seat = obs.get("seat")
        if self._proc is not None and self._proc.poll() is not None:
            self._died(seat)
        if self._proc is None:
            self._start()
        self._next_id += 1
        rid = self._next_id
        self._count("decisions", seat)
        prompt = {"type": "decide", "id": rid, "seat": seat, "observation": prompt_observation(obs),
                  "legal": [a.to_json() for a in legal]}
        if not (self._announce(seat, obs) and self._send(prompt)):
            self._count("malformed", seat)
            return safe_default(obs, legal)
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._count("timeouts", seat)
                return safe_default(obs, legal)
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                self._count("timeouts", seat)
                return safe_default(obs, legal)
            if line is None:  # stdout closed: the process is gone (or going)
                self._count("malformed", seat)
                self._died(seat)
                return safe_default(obs, legal)
            try:
                reply = json.loads(line)
                if not isinstance(reply, dict):
                    raise ValueError
            except ValueError:
                self._count("malformed", seat)
                return safe_default(obs, legal)
            if reply.get("id") != rid:
                continue  # a stale answer to an earlier prompt: drop it and keep waiting
            try:
                action = Action.from_json(reply.get("action"))
            except IllegalActionError:
                self._count("malformed", seat)
                return safe_default(obs, legal)
            if action not in legal:
                self._count("illegal", seat)
                return safe_default(obs, legal)
            return action

    def close(self) -> None:
        if self._proc is not None:
            proc, self._proc = self._proc, None
            try:
                proc.stdin.close()
                proc.wait(timeout=2)
            except Exception:  # noqa: BLE001 - best effort on shutdown
                proc.kill()
            if self._err_thread is not None:
                self._err_thread.join(timeout=2)

    def __del__(self) -> None:  # pragma: no cover
        try:
            self.close()
        except Exception:  # noqa: BLE001
            pass

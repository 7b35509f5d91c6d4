"""Bots in any language over JSON lines on stdin/stdout (see docs/BOTS.md, protocol version 2).

When the process starts the harness writes ``{"type": "hello", "protocol": 2}``; at the start of
each hand, for each seat the process plays, ``{"type": "hand", "seat": 2, "variant": ..., "dealer":
..., "rules": {...}}``; and for every decision one line::

    {"type": "decide", "id": 17, "seat": 2, "observation": {...}, "legal": [{"type": "discard", "tile": "5p"}, ...]}

(the observation without ``rules`` and ``legal``, which the hand message and the prompt carry).
The bot answers only decisions, with exactly one line naming one of the legal actions::

    {"id": 17, "action": {"type": "discard", "tile": "5p"}}

A reply that is late (``timeout`` seconds), malformed (not JSON, not UTF-8, a line over a
megabyte), for another id, or not legal is replaced by a safe default (pass if allowed, else
discard the drawn tile, else the first legal action), counted in ``stats`` and, the first few,
kept with the reason in ``rejected`` (and noted in its stderr file). Prompts are written by a
thread of their own, so a bot that never reads its stdin costs each decision its timeout, no more. The process is
started on first use and kept for the agent's life; if it
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
MAX_LINE = 1 << 20  # a reply longer than this (bytes, newline not met) is refused and skipped, never held
MAX_UNREAD = 1 << 20  # prompts (bytes) a bot may leave unread before it counts as not reading its stdin
MAX_REJECTIONS = 20  # rejected replies kept, with their reasons, for the arena's report


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


class Refused:
    """A line from the bot that was not read as text: too long, or not UTF-8."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def read_lines(stream, limit: int = MAX_LINE):
    """Lines of a byte stream as text; a line over ``limit`` bytes or not UTF-8 as a ``Refused``.
    A long line is skipped as it arrives, so memory stays within ``limit`` whatever the bot writes."""
    while chunk := stream.readline(limit + 1):
        if len(chunk) > limit and not chunk.endswith(b"\n"):
            while (more := stream.readline(limit + 1)) and not more.endswith(b"\n"):
                pass
            yield Refused(f"a line longer than {limit:,} bytes")
            continue
        try:
            yield chunk.decode("utf-8")
        except UnicodeDecodeError:
            yield Refused("a line that is not UTF-8")


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
        self._outbox: queue.Queue = queue.Queue()
        self._unread = [0]
        self._writer: threading.Thread | None = None
        self.rejected: list[dict] = []  # the first MAX_REJECTIONS rejected replies: seat, reason, reply

    # ------------------------------------------------------------------ the process

    def _start(self) -> None:
        self._proc = subprocess.Popen(shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE)
        proc = self._proc
        self._lines = lines = queue.Queue()
        self._outbox = outbox = queue.Queue()
        self._unread = [0]  # bytes queued for the bot and not yet written to its pipe
        unread = self._unread
        self._hand_sent = {}

        def pump() -> None:
            for line in read_lines(proc.stdout):
                lines.put(line)
            lines.put(None)

        def write() -> None:  # blocks on a full pipe (a bot that does not read) without blocking a decision
            try:
                while (data := outbox.get()) is not None:
                    proc.stdin.write(data)
                    proc.stdin.flush()
                    unread[0] -= len(data)
            except (OSError, ValueError):
                pass
            try:
                proc.stdin.close()
            except (OSError, ValueError):
                pass

        def pump_err() -> None:
            sink = open(self.stderr, "a", encoding="utf-8") if self.stderr not in (None, "-") else None
            try:
                for raw in iter(lambda: proc.stderr.readline(MAX_LINE), b""):  # a long line in pieces
                    line = raw.decode("utf-8", "replace")
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
        self._writer = threading.Thread(target=write, daemon=True)
        self._writer.start()
        self._err_thread = threading.Thread(target=pump_err, daemon=True)
        self._err_thread.start()
        self._send({"type": "hello", "protocol": PROTOCOL})

    def _send(self, msg: dict) -> bool:
        """Queue one message for the bot; False when it is gone or has left too much unread."""
        if self._proc is None or self._unread[0] > MAX_UNREAD:
            return False
        data = (json.dumps(msg, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        self._unread[0] += len(data)
        self._outbox.put(data)
        return True

    def _reject(self, seat, kind: str, reason: str, reply=None) -> None:
        """Count a rejected reply; keep the first few with their reason (the arena reports them)."""
        self._count(kind, seat)
        if len(self.rejected) >= MAX_REJECTIONS:
            return
        shown = reply if reply is None or len(reply) <= 120 else reply[:117] + "..."
        self.rejected.append({"seat": seat, "reason": reason, "reply": shown})
        note = f"majiang: rejected a reply of seat {seat}: {reason}" + (f": {shown}" if shown else "")
        if self.stderr == "-":
            print(f"[{self.label}] {note}", file=sys.stderr, flush=True)
        elif self.stderr is not None:
            try:
                with open(self.stderr, "a", encoding="utf-8") as f:
                    f.write(note + "\n")
            except OSError:
                pass

    def _count(self, kind: str, seat) -> None:
        self.stats[kind] += 1
        per = self.seat_stats.setdefault(seat, dict.fromkeys(self.stats, 0))
        per[kind] += 1

    def _died(self, seat=None) -> None:
        """The process exited: count it, and print the end of its stderr (its traceback)."""
        proc, self._proc = self._proc, None
        self._outbox.put(None)  # its writer stops
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
            self._reject(seat, "timeouts", "the bot is not reading its stdin" if self._proc is not None
                         else "the bot could not be started")
            return safe_default(obs, legal)
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise queue.Empty
                line = self._lines.get(timeout=left)
            except queue.Empty:
                self._reject(seat, "timeouts", f"no reply within {self.timeout:g} s")
                return safe_default(obs, legal)
            if line is None:  # stdout closed: the process is gone (or going)
                self._reject(seat, "malformed", "the bot exited before replying")
                self._died(seat)
                return safe_default(obs, legal)
            if isinstance(line, Refused):
                self._reject(seat, "malformed", line.reason)
                return safe_default(obs, legal)
            try:
                reply = json.loads(line)
                if not isinstance(reply, dict):
                    raise ValueError("not a JSON object")
            except (ValueError, RecursionError) as exc:
                self._reject(seat, "malformed", f"not a JSON object ({exc})"[:120], line.strip())
                return safe_default(obs, legal)
            if reply.get("id") != rid:
                continue  # a stale answer to an earlier prompt: drop it and keep waiting
            try:
                action = Action.from_json(reply.get("action"))
            except IllegalActionError as exc:
                self._reject(seat, "malformed", str(exc)[:120], line.strip())
                return safe_default(obs, legal)
            if action not in legal:
                self._reject(seat, "illegal", f"'{action}' is not legal now", line.strip())
                return safe_default(obs, legal)
            return action

    def close(self) -> None:
        if self._proc is not None:
            proc, self._proc = self._proc, None
            self._outbox.put(None)  # the writer closes the bot's stdin once what is queued is written
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:  # still running (or never reading): stop it
                proc.kill()
                proc.wait()
            if self._err_thread is not None:
                self._err_thread.join(timeout=2)

    def __del__(self) -> None:  # pragma: no cover
        try:
            self.close()
        except Exception:  # noqa: BLE001
            pass

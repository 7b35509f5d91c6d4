"""The built-in agents, one module each, and ``make_agent`` to make one by name.


``random``  a uniformly random legal action.
``greedy``  wins when it can, otherwise keeps the best shanten (ties: the most useful tiles);
            claims a pong or kong only when it does not slow the hand; picks the void suit with
            the fewest tiles, passes three of its weakest suit, declares 亮倒 whenever ready.
``strong``  plays for value (清一色, 七对, 对对胡, 卡五星, 根), counts unseen tiles (effective
            tiles of each discard), defends against revealed hands (亮倒, 跳舞), void suits and
            late-game threats, folds hopeless Kawuxing hands, decides 亮倒 (唱歌/跳舞) and kongs
            by expected value (kong money and the hand's value against the change in its chance
            of winning, from a small model of the rest of the hand), and between close discards
            looks ahead by sampling the unseen tiles (determinised Monte Carlo) within a
            per-move budget of work, not time, so a seed replays the same on any machine. Its
            weights differ per game (see
            ``StrongAgent.WEIGHTS``): Sichuan blood battle is a race where speed and safety pay
            more than size, and a Sichuan hand not ready at the draw pays 查大叫, so it never folds.
``cmd:…``   an external program speaking the JSON-lines protocol (``majiang.botproto``).
"""

from __future__ import annotations

from majiang.bots.base import Agent, SeatView
from majiang.bots.greedy import GreedyAgent
from majiang.bots.random import RandomAgent
from majiang.bots.strong import StrongAgent

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "strong": StrongAgent}


def make_agent(spec: str, seed: int = 0, timeout: float = 1.0, stderr: str | None = None,
               label: str | None = None):
    """An agent from its name, or ``cmd:PROGRAM ARGS`` for an external bot (``stderr``: a file for
    its stderr, or ``"-"`` to pass it through; ``label`` names it in messages)."""
    if spec.startswith("cmd:"):
        from majiang.bots.external import SubprocessAgent
        return SubprocessAgent(spec[4:], timeout=timeout, stderr=stderr, label=label)
    try:
        return AGENTS[spec](seed)
    except KeyError:
        from majiang.core.errors import MajiangError
        raise MajiangError(f"unknown agent {spec!r} (known: {', '.join(AGENTS)}, or cmd:PROGRAM)") from None


__all__ = ["AGENTS", "Agent", "GreedyAgent", "RandomAgent", "SeatView", "StrongAgent", "make_agent"]

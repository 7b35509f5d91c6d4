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
            ``GameSpec.bots["strong"]``): Sichuan blood battle is a race where speed and safety pay
            more than size, and a Sichuan hand not ready at the draw pays 查大叫, so it never folds.
``expert``  ``strong`` steered by look-ahead, each game its best measured setting: in Kawuxing
            the outlook (``majiang.bots.outlook``: every discard and pong valued over sampled
            orders of the seat's own next draws, plans 清一色/七对 included, the others as a
            per-round model of how soon the hand ends and what they cost), in Sichuan a
            determinized Monte Carlo search of the discards (hidden tiles sampled consistently
            with what the seat has seen, every candidate played to the end of the deal by
            ``greedy``, in the native engine when built). Bounded by work, not time: ``expert:orders=200``,
            ``expert:samples=96,work=480`` (``ExpertAgent``'s keyword arguments).
``cmd:…``   an external program speaking the JSON-lines protocol (``majiang.botproto``).
"""

from __future__ import annotations

from majiang.bots.base import Agent, SeatView
from majiang.bots.expert import ExpertAgent
from majiang.bots.greedy import GreedyAgent
from majiang.bots.random import RandomAgent
from majiang.bots.strong import StrongAgent

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "strong": StrongAgent, "expert": ExpertAgent}


def parse_spec(spec: str) -> tuple[str, dict]:
    """``name:key=value,...`` as the name and its keyword arguments (numbers where they parse):
    ``expert:samples=200`` gives ``("expert", {"samples": 200})``."""
    name, _, rest = spec.partition(":")
    options: dict = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip().isidentifier():
            from majiang.core.errors import MajiangError
            raise MajiangError(f"bad agent option {item!r} in {spec!r} (want name:key=value,...)")
        value = value.strip()
        for cast in (int, float):
            try:
                value = cast(value)
                break
            except ValueError:
                continue
        options[key.strip()] = value
    return name.strip(), options


def split_bots(text: str) -> list[str]:
    """A comma-separated list of agents, one per seat, where an agent's options continue after a
    comma: ``expert:samples=200,work=500,strong,strong`` is two entries of options and two
    ``strong`` (a piece ``key=value`` with no ``:`` belongs to the entry before it)."""
    out: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if out and "=" in piece and ":" not in piece and ":" in out[-1] and not out[-1].startswith("cmd:"):
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


def agent_options(cls) -> list[str] | None:
    """The keyword options an agent class takes (``None``: it takes any)."""
    import inspect

    params = list(inspect.signature(cls).parameters.values())
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return [p.name for p in params[1:] if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]  # after seed


def make_agent(spec: str, seed: int = 0, timeout: float = 1.0, stderr: str | None = None,
               label: str | None = None):
    """An agent from its name, with options as ``name:key=value,...`` (``expert:samples=200``), or
    ``cmd:PROGRAM ARGS`` for an external bot (``stderr``: a file for its stderr, or ``"-"`` to pass
    it through; ``label`` names it in messages)."""
    if spec.startswith("cmd:"):
        from majiang.bots.external import SubprocessAgent
        return SubprocessAgent(spec[4:], timeout=timeout, stderr=stderr, label=label)
    from majiang.core.errors import MajiangError

    name, options = parse_spec(spec)
    if name not in AGENTS:
        raise MajiangError(f"unknown agent {name!r} (known: {', '.join(AGENTS)}, or cmd:PROGRAM)")
    known = agent_options(AGENTS[name])
    unknown = [k for k in options if known is not None and k not in known]
    if unknown:
        listed = ", ".join(known) if known else "none"
        raise MajiangError(f"agent {name!r} has no option {unknown[0]!r} in {spec!r} (its options: {listed})")
    try:
        return AGENTS[name](seed, **options)
    except (TypeError, ValueError) as exc:
        raise MajiangError(f"bad options for agent {name!r} in {spec!r}: {exc}") from None


__all__ = ["AGENTS", "Agent", "ExpertAgent", "GreedyAgent", "RandomAgent", "SeatView", "StrongAgent", "make_agent",
           "parse_spec", "split_bots"]

"""The bot driver's one interface: every seat's bot is a ``TableBot``, whatever decides inside it.

Three kinds of deciders exist (a level sent to the runner's worker processes, the native greedy
policy that reads the game's position, an agent object that reads an observation); ``as_table_bot``
adapts each to ``decide`` once, where the bot is made, so the driver never asks what it holds. No
slow decision runs on the event loop: what a decision reads of the game is taken on the loop (the
game changes only there), the thinking runs in a thread or a worker process; only a bounded native
greedy choice (one library call, well under a millisecond) is made on the loop itself.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Protocol

from majiang.bots import make_agent
from majiang.bots.native_greedy import NativeGreedyAgent
from majiang.bots.native_greedy import available as native_greedy_available
from majiang.engine import Action, Game
from majiang.server.bots import BotRunner

log = logging.getLogger("majiang.server")

IN_PLACE = ("random",)  # levels whose choice costs less than a trip to a worker process (a thread decides)
_THREADS: list[ThreadPoolExecutor] = []


def _thinking() -> ThreadPoolExecutor:
    """The threads where light bots decide (one per process; a decision takes microseconds)."""
    if not _THREADS:
        _THREADS.append(ThreadPoolExecutor(2, thread_name_prefix="majiang-bot"))
    return _THREADS[0]


class TableBot(Protocol):
    async def decide(self, game: Game, seat: int, legal: list[Action], seconds: float) -> Action:
        """The bot's choice among ``legal`` for ``seat``, within about ``seconds``. Reads ``game`` only
        before its first await (the table may move on while it thinks)."""
        ...


class PooledBot:
    """A level decided by the runner (worker processes): a searching bot keeps to the table's timer,
    half of it, then ``strong`` decides."""

    def __init__(self, runner: BotRunner, level: str, seed: int, table: str = "?") -> None:
        self.runner, self.level, self.seed, self.table = runner, level, seed, table

    async def decide(self, game: Game, seat: int, legal: list[Action], seconds: float) -> Action:
        obs = game.observation(seat)
        try:
            return await asyncio.wait_for(self.runner.decide(self.level, self.seed, obs, legal), seconds / 2)
        except asyncio.TimeoutError:
            log.warning("table %s: %s bot at seat %d overran its time; strong decides", self.table, self.level, seat)
            return await self.runner.decide("strong", self.seed, obs, legal)


class PositionBot:
    """An agent that decides from the game itself (the native greedy policy): what it reads of the
    game is taken on the loop (``plan``). A bounded decision (a win, or one native library call of
    tens of microseconds, no search) is made right there: sending it to a thread costs the loop
    more than deciding (at 1,000 tables the threads' GIL hand-offs queued behind the loop and
    doubled the median round trip). The Python agent's decisions (a shanten per discard) run in a
    thread."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent

    async def decide(self, game: Game, seat: int, legal: list[Action], seconds: float) -> Action:
        think, bounded = self.agent.plan(game, seat, list(legal))
        if bounded:
            return think()
        return await asyncio.get_running_loop().run_in_executor(_thinking(), think)


class AgentBot:
    """An agent object that reads an observation (``act``): the observation is taken on the loop,
    the choice made in a thread."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent

    async def decide(self, game: Game, seat: int, legal: list[Action], seconds: float) -> Action:
        obs = game.observation(seat) if getattr(self.agent, "needs_observation", True) else None
        return await asyncio.get_running_loop().run_in_executor(_thinking(), self.agent.act, obs, list(legal))


def as_table_bot(bot: Any, runner: BotRunner | None = None, table: str = "?") -> TableBot:
    """Any bot as a ``TableBot``: one already, a (level, seed) for the runner, or an agent object."""
    if callable(getattr(bot, "decide", None)) and not hasattr(bot, "act"):
        return bot
    if isinstance(bot, tuple):
        return PooledBot(runner or BotRunner(0), bot[0], bot[1], table)
    if callable(getattr(bot, "plan", None)):
        return PositionBot(bot)
    return AgentBot(bot)


def seat_bots(seats: list[dict], runner: BotRunner, table: str = "?",
              randbits: Callable[[int], int] = secrets.randbits) -> list[TableBot]:
    """A bot per seat, fresh randomness per table (nobody replays a bot's tie-breaks): ``greedy`` in
    one native library call on the loop when the native engine is built, ``random`` in a thread, any other
    level in the runner's workers."""
    bots: list[TableBot] = []
    for s in seats:
        level, seed = s.get("bot") or "greedy", randbits(32)
        if level == "greedy" and native_greedy_available():
            bots.append(PositionBot(NativeGreedyAgent(seed)))
        elif level in IN_PLACE:
            bots.append(AgentBot(make_agent(level, seed=seed)))
        else:
            bots.append(PooledBot(runner, level, seed, table))
    return bots

"""Driving a deal: ask each pending seat's agent, apply its answer, until the deal is over."""

from __future__ import annotations

from majiang.engine import Game


def play_hand(game: Game, agents: list, check=None) -> Game:
    """Run a hand to the end, asking each pending seat's agent (lowest seat first). An agent with a
    ``start_hand(seat)`` method (external bots) is told first that a hand begins."""
    for seat, agent in enumerate(agents):
        start = getattr(agent, "start_hand", None)
        if start is not None:
            start(seat)
    while not game.over:
        seat = game.pending_seats()[0]
        legal = game.legal_actions(seat)
        agent = agents[seat]
        obs = game.observation(seat) if getattr(agent, "needs_observation", True) else None
        action = agent.act(obs, legal)
        game.apply(seat, action)
        if check is not None:
            check(game)
    return game

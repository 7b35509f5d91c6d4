"""How much could ``expert``'s search gain at all? The same search, given what a fair seat cannot see.

    python scripts/search_ceiling.py --variant kawuxing --peek hands --games 300 --seed 2027 --out DIR
    majiang arena-merge DIR            # the report, as for any arena run

The table is the arena's (``majiang arena``): duplicate deals, every deal in every seat rotation,
the same walls, dealers and agent seeds, ``expert`` (with ``--options``) as entry 0 against
``strong`` in every other seat. Only the search's samples of the hidden tiles change (``--peek``):

- ``none``: drawn as ``expert`` draws them (the fair agent: the same points as ``majiang arena``
  with ``--bots expert:OPTIONS,strong,…``, deal for deal, which ``tests/bots/test_search_ceiling.py``
  checks);
- ``wall``: which of the unseen tiles are in the wall (the wall's real tiles in a shuffled order;
  the undeclared opponents' real hidden tiles as one pool, dealt among them at random): what
  knowing where the live tiles are is worth, without knowing who holds the rest;
- ``hands``: every opponent's real concealed tiles, the wall still shuffled (a perfect read of the
  hands: the most any inference from discards and claims can give this search);
- ``all``: the real hands and the real order of the wall (clairvoyance: the luck of the draw too).

No agent that plays fair can do better than ``hands`` with the same search and rollouts, so the
difference between ``none`` and ``hands`` is what better opponent modelling in the samples can
still win, and ``hands`` itself bounds what the search can reach (docs/BOTS-LAB.md, "How far search
can go"). A diagnostic only: the peeking agent is not in ``majiang.bots`` and cannot be chosen in
the arena or the web game.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import zlib

from majiang.bots import make_agent, parse_spec
from majiang.bots.expert import ExpertAgent
from majiang.cli.common import Progress
from majiang.core.variants import get_variant
from majiang.engine import Game
from majiang.engine.position import position_of
from majiang.games.rules import rules_for, rules_to_json
from majiang.play.arena import ArenaResult, empty_entry, tally

PEEKS = ("none", "wall", "hands", "all")


class PeekingExpert(ExpertAgent):
    """``expert`` whose search samples what ``peek`` lets it see of the real deal (``game``, set
    before every decision)."""

    name = "expert"

    def __init__(self, seed: int = 0, peek: str = "none", **options) -> None:
        if peek not in PEEKS:
            raise ValueError(f"peek must be one of {', '.join(PEEKS)}, not {peek!r}")
        super().__init__(seed, **options)
        self.peek = peek
        self.game: Game | None = None

    def prepare(self, obs: dict) -> tuple:
        self.seat = obs["seat"]
        return super().prepare(obs)

    def sample(self, prepared: tuple, rng):
        if self.peek == "none":
            return super().sample(prepared, rng)
        pos = position_of(self.game)
        if self.peek == "all":
            return pos
        wall = list(pos.wall)
        rng.shuffle(wall)
        pos.wall = wall
        if self.peek == "wall":
            held = [s for s, sp in enumerate(pos.seats) if s != self.seat and not sp.out and not sp.declared]
            pool = [k for s in held for k in range(30) for _ in range(pos.seats[s].counts[k])]
            rng.shuffle(pool)
            for s in held:
                n = sum(pos.seats[s].counts)
                counts = [0] * 30
                for k in pool[:n]:
                    counts[k] += 1
                pos.seats[s].counts, pool = counts, pool[n:]
        return pos


def play_deal(rules, options: dict, peek: str, seed, deal: int) -> dict:
    """One deal in every rotation, as ``majiang.play.arena.play_deal`` plays it, entry 0 peeking."""
    n = get_variant(rules.variant).players
    out = {"deal": deal, "entries": [empty_entry() for _ in range(n)]}
    for r in range(n):
        entry_at = [(s + r) % n for s in range(n)]
        agents = []
        for s in range(n):
            agent_seed = zlib.crc32(f"{seed}/{deal}/{r}/{s}".encode())
            agents.append(PeekingExpert(agent_seed, peek, **options) if entry_at[s] == 0
                          else make_agent("strong", agent_seed))
        game = Game(rules, seed=seed, hand_index=deal, dealer=deal % n)
        while not game.over:
            s = game.pending_seats()[0]
            agent = agents[s]
            if isinstance(agent, PeekingExpert):
                agent.game = game
            game.apply(s, agent.act(game.observation(s), game.legal_actions(s)))
        for s in range(n):
            tally(out["entries"][entry_at[s]], game, s)
    for e in out["entries"]:
        e["points"] /= n
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="peek: none = the fair agent (the arena's numbers); wall = which unseen "
                                        "tiles are in the "
                                        "wall; hands = every opponent's real hand; all = the hands and the wall's "
                                        "real order. Example: --variant sichuan --peek hands --games 400 --seed "
                                        "2027 --out DIR, then majiang arena-merge DIR")
    ap.add_argument("--variant", choices=("kawuxing", "sichuan"), required=True)
    ap.add_argument("--peek", choices=PEEKS, default="hands", help="what the search's samples are given (below)")
    ap.add_argument("--options", default="", help="expert's options, as after 'expert:' in the arena")
    ap.add_argument("--games", type=int, default=100, help="duplicate deals")
    ap.add_argument("--first-deal", type=int, default=0)
    ap.add_argument("--seed", default="0", help="the arena's --seed (the same deals as an arena run)")
    ap.add_argument("--out", help="a folder for deals.jsonl (majiang arena-merge reads it)")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = ap.parse_args(argv)
    rules = rules_for(args.variant)
    _, options = parse_spec("expert:" + args.options if args.options else "expert")
    n = get_variant(rules.variant).players
    label = "expert" + (f":{args.options}" if args.options else "") + f" [peek={args.peek}]"
    result = ArenaResult(rules.variant, rules.preset, [label] + ["strong"] * (n - 1), args.seed,
                         rules=rules_to_json(rules))
    sink = None
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        sink = open(os.path.join(args.out, "deals.jsonl"), "w", encoding="utf-8")
        sink.write(json.dumps(result.header(args.first_deal, args.games), ensure_ascii=False) + "\n")
    bar = Progress(args.games, "deals")
    for deal in range(args.first_deal, args.first_deal + args.games):
        d = play_deal(rules, options, args.peek, args.seed, deal)
        result.deals.append(d)
        if sink:
            sink.write(json.dumps(d, separators=(",", ":")) + "\n")
            sink.flush()
        bar.step()
    summary = result.summary()
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        me = summary["agents"][0]
        lo, hi = me["ci95"]
        print(f"{label}: {me['mean_points']:+.3f} [{lo:+.3f}, {hi:+.3f}] points/hand against strong over "
              f"{summary['deals']} deals; win {me['win_rate']:.1%}, deal-in {me['deal_in_rate']:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A Python agent of your own in the duplicate arena, against the built-in bots.

    python examples/arena_agent.py --games 50

The agent plays like ``greedy`` but takes no pongs: whether that is better shows in the report,
with its 95% interval. Like the built-in bots (all but random) it never discards a tile a revealed hand (亮倒,
跳舞) waits on while it holds another: ``majiang.unsafe_tiles`` and ``majiang.safe_choices`` say
which, the one notion of safety the library's bots, 托管 and hints share.
"""

import argparse

import majiang
from majiang.bots import GreedyAgent
from majiang.play.arena import run_arena


class CarefulAgent:
    name = "careful"  # the arena's report names the entry by this

    def __init__(self, seed: int = 0) -> None:
        self.greedy = GreedyAgent(seed)

    def act(self, obs: dict, legal: list) -> majiang.Action:
        wins = [a for a in legal if a.type == "win"]
        if wins:
            return wins[0]
        if any(a.type == "pass" for a in legal) and all(a.type in ("pass", "pong") for a in legal):
            return next(a for a in legal if a.type == "pass")  # no pongs
        # no discard into a shown wait while another is legal (greedy keeps to this too)
        return self.greedy.act(obs, majiang.safe_choices(legal, majiang.unsafe_tiles(obs)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="kawuxing", choices=["kawuxing", "sichuan"])
    ap.add_argument("--games", type=int, default=50)
    args = ap.parse_args()
    rules = majiang.rules_for(args.variant)
    seats = 3 if args.variant == "kawuxing" else 4
    bots = [CarefulAgent()] + ["greedy"] * (seats - 1)  # agent objects and names alike
    summary = run_arena(rules, bots, args.games, seed=1).summary()
    for e in summary["agents"]:
        lo, hi = e["ci95"]
        print(f"{e['agent']:<10} {e['mean_points']:+.3f} points/hand  95% [{lo:+.3f}, {hi:+.3f}]  "
              f"win {e['win_rate']:.1%}  deal-in {e['deal_in_rate']:.1%}")


if __name__ == "__main__":
    main()

"""How good are ``expert``'s searched decisions, one by one? Regret against the real hands.

    python scripts/search_regret.py --variant sichuan --hands 60 --seed 2 \\
        --try fair= --try wall=peek=wall --try peek=peek=hands

An arena run needs thousands of deals to see a tenth of a point a hand; this sees a change in how
``expert`` samples the hidden tiles in minutes. ``strong`` plays every seat of ``--hands`` hands;
at a share (``--rate``) of the decisions where the search has more than one candidate
(``ExpertAgent.candidates``), every candidate is valued by ``--rollouts`` rollouts from the *real*
position (the opponents' real hands, the wall shuffled anew for each rollout, every candidate on
the same rollouts): the yardstick, what the search would conclude with a perfect read of the hands
and a large budget. Then each ``--try`` entry (a label, ``=``, and ``expert``'s options as after
``expert:`` in the arena, plus ``peek=``: none, wall, hands or all, as in ``scripts/search_ceiling.py``)
searches the same decision its own way, and its choice scores its regret: the yardstick's best value less the
yardstick's value of the candidate it chose. Lower is better; ``peek=hands`` shows how low a
perfect read of the hands gets with the search's own budget. The differences are paired per
decision against the first entry.

A diagnostic for work on the search (docs/BOTS-LAB.md, "How far search can go"); the yardstick is the
search's own model of play (its rollout players), so a lower regret here says the search decides
more as it would knowing the hands, not by itself that it plays better at the table.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_ceiling import PEEKS, PeekingExpert  # noqa: E402  (a script beside this one)

from majiang.bots import StrongAgent, parse_spec  # noqa: E402
from majiang.bots.base import SeatView  # noqa: E402
from majiang.bots.expert import GAME_DEFAULTS, search_kinds  # noqa: E402
from majiang.cli.common import Progress  # noqa: E402
from majiang.core.analysis import waits_counts  # noqa: E402
from majiang.core.hand import Hand  # noqa: E402
from majiang.engine import Game  # noqa: E402
from majiang.engine.position import position_of  # noqa: E402
from majiang.games import play_for  # noqa: E402
from majiang.games.rules import rules_for  # noqa: E402


def parse_try(text: str, base: dict) -> tuple[str, str, dict]:
    """``LABEL=OPTIONS`` → (label, peek, expert options over ``base``)."""
    label, sep, spec = text.partition("=")
    if not sep or not label:
        raise ValueError(f"--try wants LABEL=OPTIONS (OPTIONS may be empty), not {text!r}")
    _, options = parse_spec("expert:" + spec if spec else "expert")
    options = {**base, **options}
    peek = str(options.pop("peek", "none"))
    if peek not in PEEKS:
        raise ValueError(f"peek must be one of {', '.join(PEEKS)}, not {peek!r}")
    return label, peek, options


def wait_reader(rules):
    """``waits(counts, melds, void)``: the kinds completing a hand of 3n+1 tiles (none when it is
    not ready), by the analysis the engine and the agents use."""
    variant = play_for(rules).variant

    def waits(counts, melds, void) -> set[int]:
        totals = Hand(tuple(counts), tuple(melds)).all_counts()
        return set(waits_counts(counts, totals, variant, void, closed=not melds))

    return waits


def dealt_in(waits, pos, seat: int) -> set[int]:
    """The kinds some other seat still in the hand would win on, in position ``pos``."""
    out: set[int] = set()
    for o, sp in enumerate(pos.seats):
        if o != seat and not sp.out:
            out |= set(sp.waits) if sp.declared else waits(sp.counts, sp.melds, sp.void)
    return out


def auc(pairs: list[tuple[float, bool]]) -> float | None:
    """The chance a tile that deals in is given a higher probability than one that does not."""
    pos = sorted(p for p, y in pairs if y)
    neg = sorted(p for p, y in pairs if not y)
    if not pos or not neg:
        return None
    won = sum(bisect.bisect_left(neg, p) + 0.5 * (bisect.bisect_right(neg, p) - bisect.bisect_left(neg, p))
              for p in pos)
    return won / (len(pos) * len(neg))


def mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else float("inf")
    return m, 1.96 * sd / math.sqrt(n)


def run(variant: str, hands: int, seed: int, tries: list[tuple[str, str, dict]], base: dict,
        rollouts: int = 160, rate: float = 0.3, progress: bool = True, waits_samples: int = 16) -> dict:
    """Every decision's regret for every entry; the summary as ``main`` prints it."""
    rules = rules_for(variant)
    rng = random.Random(seed)
    judge = PeekingExpert(seed, "none", **base)
    if judge.search_option == "auto":
        judge.search_kinds = search_kinds(GAME_DEFAULTS[variant]["search"])
    if not judge.search_kinds:
        raise ValueError("the options search nothing: give search=discard (or another kind) in --options")
    agents = []
    for i, (label, peek, options) in enumerate(tries):
        agent = PeekingExpert(seed * 1000 + i, peek, **options)
        if agent.search_option == "auto":
            agent.search_kinds = judge.search_kinds
        agents.append((label, agent))
    waits = wait_reader(rules)
    regret: dict[str, list[float]] = {label: [] for label, _ in agents}
    danger: dict[str, list[tuple[float, bool]]] = {label: [] for label, _ in agents}
    best: dict[str, int] = {label: 0 for label, _ in agents}
    bar = Progress(hands, "hands") if progress else None
    for h in range(hands):
        game = Game(rules, seed=f"regret/{seed}", hand_index=h)
        players = [StrongAgent(rng.getrandbits(32), samples=0) for _ in range(game.n)]
        while not game.over:
            s = game.pending_seats()[0]
            obs, legal = game.observation(s), game.legal_actions(s)
            truth = position_of(game)
            if obs["phase"] in ("turn", "claim") and len(legal) > 1 and truth is not None \
                    and "win" not in {a.type for a in legal} and rng.random() < rate:
                choice = judge.strong.act(obs, legal)
                candidates = judge.candidates(SeatView(obs), legal, choice)
                if len(candidates) > 1:
                    crn = random.Random(rng.getrandbits(64))
                    positions, keys = [], []
                    for _ in range(rollouts):
                        pos = position_of(game)
                        crn.shuffle(pos.wall)
                        positions.append(pos)
                        keys.append([crn.getrandbits(32) for _ in range(game.n)])
                    values = [sum(judge.play(obs, positions, keys, range(rollouts), c)) / rollouts
                              for c in candidates]
                    top = max(values)
                    real = dealt_in(waits, truth, s) if obs["phase"] == "turn" else None
                    for i, (label, agent) in enumerate(agents):
                        agent.game = game
                        agent.seat = s
                        if real is not None:  # how well its samples tell which discards deal in
                            prepared = agent.prepare(obs)
                            draws = random.Random(f"{seed}/{h}/{len(regret[label])}/{i}")
                            hits = [0] * 30
                            for _ in range(waits_samples):
                                for k in dealt_in(waits, agent.sample(prepared, draws), s):
                                    hits[k] += 1
                            for k in {a.tile for a in legal if a.type == "discard"}:
                                danger[label].append(((hits[k] + 0.5) / (waits_samples + 1), int(k) in real))
                        chosen = candidates.index(agent.search(obs, candidates, choice))
                        regret[label].append(top - values[chosen])
                        best[label] += values[chosen] == top
            game.apply(s, players[s].act(obs, legal))
        if bar:
            bar.step()
    first = agents[0][0]
    rows = []
    for label, agent in agents:
        xs = regret[label]
        if not xs:
            raise ValueError("no searched decision met: more --hands or a higher --rate")
        m, ci = mean_ci(xs)
        dm, dci = mean_ci([a - b for a, b in zip(xs, regret[first])]) if label != first else (0.0, 0.0)
        pairs = danger[label]
        rows.append({"label": label, "peek": agent.peek, "regret": m, "ci95": ci, "best_rate": best[label] / len(xs),
                     "minus_first": dm, "minus_first_ci95": dci, "deal_in_auc": auc(pairs),
                     "deal_in_predicted": sum(p for p, _ in pairs) / len(pairs) if pairs else None,
                     "deal_in_real": sum(y for _, y in pairs) / len(pairs) if pairs else None})
    return {"variant": variant, "hands": hands, "seed": seed, "decisions": len(regret[first]),
            "rollouts": rollouts, "options": base, "entries": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Example: --variant kawuxing --options value=strong,search=discard,"
                                        "rollout=careful --try fair= --try peek=peek=hands --hands 80")
    ap.add_argument("--variant", choices=("kawuxing", "sichuan"), required=True)
    ap.add_argument("--options", default="", help="expert options every entry (and the yardstick) starts from")
    ap.add_argument("--try", dest="tries", action="append", metavar="LABEL=OPTIONS",
                    help="an entry: a label, '=', and expert options (peek=none|wall|hands|all too); "
                         "repeat it (default: fair= and peek=peek=hands)")
    ap.add_argument("--hands", type=int, default=40, help="hands of strong self-play (default 40)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rollouts", type=int, default=160, help="the yardstick's rollouts per candidate (default 160)")
    ap.add_argument("--rate", type=float, default=0.3, help="share of searched decisions measured (default 0.3)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args(argv)
    if args.hands < 1 or args.rollouts < 2 or not 0 < args.rate <= 1:
        ap.error("--hands ≥ 1, --rollouts ≥ 2 and 0 < --rate ≤ 1")
    try:
        _, base = parse_spec("expert:" + args.options if args.options else "expert")
        tries = [parse_try(t, base) for t in (args.tries or ["fair=", "peek=peek=hands"])]
        result = run(args.variant, args.hands, args.seed, tries, base, args.rollouts, args.rate)
    except ValueError as e:
        ap.error(str(e))
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    print(f"{args.variant}, {result['decisions']} searched decisions in {args.hands} hands of strong self-play "
          f"(seed {args.seed}), yardstick {args.rollouts} rollouts from the real hands")
    print(f"{'entry':<24} {'regret':>8} {'95%':>7} {'best':>6} {'minus first':>16} {'deal-in AUC':>12} "
          f"{'predicted':>10} {'real':>6}")
    for r in result["entries"]:
        diff = "" if r["label"] == result["entries"][0]["label"] else \
            f"{r['minus_first']:+.3f} ± {r['minus_first_ci95']:.3f}"
        read = "" if r["deal_in_auc"] is None else \
            f"{r['deal_in_auc']:12.3f} {r['deal_in_predicted']:10.1%} {r['deal_in_real']:6.1%}"
        print(f"{r['label']:<24} {r['regret']:8.3f} {r['ci95']:7.3f} {r['best_rate']:6.1%} {diff:>16} {read}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

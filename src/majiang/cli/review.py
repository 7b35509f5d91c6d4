"""``majiang review``: 复盘, a logged hand's decisions of one seat beside the ``expert`` search's."""

from __future__ import annotations

import json
import sys

from majiang.cli.common import Progress, UsageError, can_encode
from majiang.cli.replay import read_log
from majiang.engine import Action
from majiang.play.review import BIG_LOSS, DEFAULT_BUDGET, MAX_BUDGET, NOISE_Z, HandReview, review_hand


def cmd_review(args) -> int:
    if not 2 <= args.budget <= MAX_BUDGET:
        raise UsageError(f"--budget must be 2 to {MAX_BUDGET:,} samples a decision, got {args.budget}")
    if args.top < 1:
        raise UsageError(f"--top must be 1 or more, got {args.top}")
    records = read_log(args.log)
    bar: Progress | None = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = Progress(total, "reviewing")
        bar.step()

    review = review_hand(records, args.seat, budget=args.budget, seed=args.seed, hand=args.hand, top=args.top,
                         progress=progress)
    if args.json:
        print(json.dumps(review.to_json(), ensure_ascii=not can_encode(sys.stdout, "五")))
    else:
        print(render_review(review, chinese=can_encode(sys.stdout, "复盘打碰杠胡过五筒条万白发中±✗")))
    return 0


def action_label(action: Action, chinese: bool = True) -> str:
    """``str(action)``, with its tile's Chinese name after it when ``chinese``: ``discard 5p 五筒``."""
    text = str(action)
    if chinese and action.tile is not None:
        text += f" {action.tile.chinese}"
    return text


def _cells(text: str) -> int:
    """Terminal columns ``text`` takes: a Chinese character two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _cells(text))


def render_review(review: HandReview, chinese: bool = True) -> str:
    """The text report: a line a decision (its step in the log, the hand, what was played, the
    reviewer's best and the loss with its standard error), the top options under a costly one."""
    pm = "±" if chinese else "+-"
    title = "复盘 review" if chinese else "review"
    lines = [(f"{title}: seat {review.seat}, hand {review.hand_index} of {review.variant}/{review.preset}; "
              f"the seat made {review.points:+d} points"),
             (f"reviewer: expert's search from this seat's view, {review.budget} samples a decision, every option "
              f"played out by greedy; a loss counts beyond {NOISE_Z:g} standard errors, "
              f"a loss of {BIG_LOSS:g} point{'' if BIG_LOSS == 1 else 's'} or more is big"),
             ""]
    width = max([_cells(action_label(a, chinese)) for d in review.decisions for a in (d.played, d.best)] + [8])
    lines.append(f"{'step':>5}  {'phase':<8} {'hand':<18} {_pad('played', width)}  {_pad('best', width)}  loss")
    for d in review.decisions:
        loss = "-" if d.loss == 0 else f"{d.loss:.2f} {pm}{d.loss_stderr:.2f}  {d.severity}"
        best = "= played" if d.best == d.played else action_label(d.best, chinese)
        lines.append(f"{d.index:>5}  {d.phase:<8} {d.hand:<18} {_pad(action_label(d.played, chinese), width)}  "
                     f"{_pad(best, width)}  {loss}")
        if d.loss > 0:
            lines.append(" " * 7 + "options: " + "; ".join(
                f"{action_label(o.action, chinese)} {o.value:+.2f} {pm}{o.stderr:.2f}" for o in d.options))
    for s in review.skipped:
        lines.append(f"{s['index']:>5}  not reviewed ({s['played']}): {s['reason']}")
    n = len(review.decisions)
    if not n:
        lines.append("no decision of this seat had more than one option")
        return "\n".join(lines)
    counts = {s: sum(d.severity == s for d in review.decisions) for s in ("none", "small", "big")}
    lines.append("")
    lines.append(f"{n} decisions: {counts['none']} as good as the best within the noise "
                 f"(match rate {review.match_rate:.0%}; the best itself {review.top_match_rate:.0%}), "
                 f"{counts['small']} small and {counts['big']} big losses; "
                 f"{review.total_loss:.2f} {pm}{review.total_loss_stderr:.2f} expected points given away")
    return "\n".join(lines)


def register(sub) -> None:
    p = sub.add_parser("review", help="复盘: one seat's decisions in a logged hand beside the expert search's",
                       description="Review a finished hand from its JSON-lines log (majiang simulate --log, the "
                       "arena's, the server's export): at each decision of SEAT, every option is valued by "
                       "expert's search from that seat's view only (never the hidden wall or hands), and the "
                       "played option's cost in expected points is shown where it exceeds its noise. "
                       "A log that is unfinished or does not replay is refused.")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--seat", type=int, required=True, metavar="N", help="the seat reviewed (0 is the first)")
    p.add_argument("--hand", type=int, metavar="K", help="which hand of a log of several (0 is the first)")
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET, metavar="N",
                   help=f"samples a decision (default {DEFAULT_BUDGET}: a hand in a few seconds of one core; "
                   "more is slower and surer: the noise falls as its square root)")
    p.add_argument("--seed", type=int, default=0, help="the reviewer's seed: the same seed, the same review")
    p.add_argument("--top", type=int, default=5, metavar="K", help="options kept a decision (the played one too)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_review)

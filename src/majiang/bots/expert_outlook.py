"""``expert``'s discards and pongs by ``majiang.bots.outlook``: each option's value over this seat's
own sampled futures, the other seats as a model, against ``strong``'s choice.

``strong`` picks first (shanten, then live tiles, a little value); the outlook then values every
discard it would allow (never a revealed wait while another is legal) and leaves ``strong``'s
choice only for one worth more than ``gain`` points more: its values are a model's, so small
differences are noise and ``strong``'s speed is kept where the outlook sees no clear gain
(measured in docs/BOTS-LAB.md). 亮倒 with the chosen tile is ``strong``'s decision by default
(``declare="strong"``), else the outlook's (the better of hidden and declared).
"""

from __future__ import annotations

from majiang.bots.base import SeatView
from majiang.bots.outlook import ALL_PLANS, evaluate, evaluate_waiting, model_for
from majiang.core.hand import Meld
from majiang.engine import Action

PLAN_NAMES = {"flush": 0b01110, "pairs": 0b10000}


def plans_mask(text: str) -> int:
    """``all``, ``none`` (the hand as it is only) or plan names joined by ``+`` (``flush``,
    ``pairs``) as the ``OUTLOOK_PLANS`` bits."""
    if text == "all":
        return ALL_PLANS
    mask = 1  # the hand as it is, always valued
    if text == "none":
        return mask
    for name in str(text).split("+"):
        if name not in PLAN_NAMES:
            raise ValueError(f"plans must be all, none or {'+'.join(PLAN_NAMES)} joined by +, not {text!r}")
        mask |= PLAN_NAMES[name]
    return mask


def _values(agent, view: SeatView, counts, melds, unseen, model, candidates) -> list[tuple[int, float, str, bool]]:
    """(kind, value, plan, declare) of each candidate discard, in the native library when built."""
    key = agent.rng.getrandbits(32)
    if agent.native is not None:
        return agent.native.outlook(view.rules, counts, melds, view.void, unseen, model, agent.orders, key,
                                    candidates, agent.plans)
    return [(int(v.tile), v.value, v.plan, v.declare) for v in
            evaluate(view.rules, counts, melds, view.void, unseen, model, agent.orders, key, candidates, agent.plans)]


def _waiting_value(agent, view: SeatView, model) -> float:
    key = agent.rng.getrandbits(32)
    unseen = view.unseen()
    if agent.native is not None:
        return agent.native.outlook_waiting(view.rules, view.counts, view.melds, view.void, unseen, model,
                                            agent.orders, key, agent.plans)[0]
    return evaluate_waiting(view.rules, view.counts, view.melds, view.void, unseen, model, agent.orders, key,
                            agent.plans)[0]


def outlook_turn(agent, view: SeatView, legal: list[Action], choice: Action) -> Action:
    """The turn's discard (and 亮倒 with it) by the outlook, ``choice`` being ``strong``'s."""
    if choice.type not in ("discard", "declare", "sing") or view.obs["players"][view.seat]["declared"]:
        return choice
    plain = [a for a in legal if a.type == "discard"]
    if len(plain) < 2:
        return choice
    unseen = view.unseen()
    _, forbidden = agent.strong._danger(view, unseen)
    allowed = sorted({int(a.tile) for a in plain if a.tile not in forbidden} or {int(a.tile) for a in plain})
    model = model_for(view, agent.model_params)
    rows = _values(agent, view, view.counts, view.melds, unseen, model, allowed)
    agent.outlooks += 1
    best = max(rows, key=lambda r: r[1])  # the first of equals: kind order
    mine = next((r for r in rows if r[0] == int(choice.tile)), None)
    if best[0] == int(choice.tile) or (mine is not None and best[1] - mine[1] <= agent.gain):
        return choice
    agent.overruled += 1
    pick = next(a for a in plain if int(a.tile) == best[0])
    declares = [a for a in legal if a.type == "declare" and a.tile == pick.tile]
    if declares:
        if agent.declare == "strong":
            return agent.strong._declare_by_value(view, unseen, pick, declares)
        if best[3]:
            return declares[0]
    return pick


def outlook_claim(agent, view: SeatView, legal: list[Action], choice: Action) -> Action:
    """碰 or pass by the outlook: the hand as it waits (its draws from its place in the order after
    the discarder) against the pong and its best discard; ``choice`` is ``strong``'s (a kong is
    kept)."""
    pong = next((a for a in legal if a.type == "pong"), None)
    pass_action = next((a for a in legal if a.type == "pass"), None)
    if pong is None or pass_action is None or choice.type == "kong":
        return choice
    obs = view.obs
    discarder = obs["last_discard"]["seat"]
    n = len(obs["players"])
    order = [(discarder + i) % n for i in range(1, n + 1)]
    order = [s for s in order if not obs["players"][s]["out"]]
    v_pass = _waiting_value(agent, view, model_for(view, agent.model_params, position=order.index(view.seat) + 1))
    t = int(view.last_discard)
    counts = list(view.counts)
    counts[t] -= 2
    melds = view.melds + [Meld.pong(t)]
    unseen = view.unseen()
    _, forbidden = agent.strong._danger(view, unseen)
    allowed = [k for k in range(30) if counts[k] and k not in forbidden] or [k for k in range(30) if counts[k]]
    v_pong = max(r[1] for r in _values(agent, view, counts, melds, unseen, model_for(view, agent.model_params),
                                       allowed))
    agent.outlooks += 1
    if choice.type == "pong":
        return choice if v_pong >= v_pass - agent.gain else pass_action
    return pong if v_pong > v_pass + agent.gain else choice


__all__ = ["outlook_claim", "outlook_turn", "plans_mask"]

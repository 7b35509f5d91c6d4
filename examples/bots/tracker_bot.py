#!/usr/bin/env python3
"""A bot that keeps per-seat state: what each opponent has discarded this hand.

Run it in the arena, one process per seat (the default):
    majiang arena --variant sichuan --bots "cmd:python examples/bots/tracker_bot.py",greedy,greedy,greedy --games 10
or against itself, four seats:
    majiang arena --variant sichuan --bots "$(printf 'cmd:python examples/bots/tracker_bot.py,%.0s' 1 2 3 4)" --games 10

State is kept per seat, so the same process also works when seats share it (--share-bots): a
`hand` message starts that seat's hand afresh. It wins whenever it can, takes kongs, passes other
claims, and otherwise discards the least useful tile (fewest copies and neighbours in the hand),
between equals the safest: one that more opponents have discarded themselves (a player seldom
waits on a tile it threw away), then one with more copies already visible.
Standard library only. Protocol 2 (docs/BOTS.md).
"""

import json
import sys
from collections import Counter

PROTOCOL = 2
state = {}  # seat -> {"rules", "discarded": {opponent: Counter}, "seen": {opponent: how many discards read}}


def parse(tiles):
    """'123m55p' -> ['1m', '2m', '3m', '5p', '5p']"""
    out, digits = [], ""
    for ch in tiles:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return out


def new_hand(msg):
    state[msg["seat"]] = {"rules": msg["rules"], "discarded": {}, "seen": {}}


def track(seat, obs):
    """Add the opponents' discards made since this seat's last prompt (state kept between prompts)."""
    st = state[seat]
    for p in obs["players"]:
        if p["seat"] == seat:
            continue
        done = st["seen"].get(p["seat"], 0)
        counts = st["discarded"].setdefault(p["seat"], Counter())
        for tile in p["discards"][done:]:
            counts[tile] += 1
        st["seen"][p["seat"]] = len(p["discards"])
        if sum(counts.values()) != len(p["discards"]):  # would mean two seats' prompts got mixed
            print(f"tracker: seat {seat} lost count of seat {p['seat']}'s discards", file=sys.stderr, flush=True)


def neighbours(tile, hand):
    if tile[1] == "z":
        return hand.count(tile) - 1
    n, suit = int(tile[0]), tile[1]
    near = sum(hand.count(f"{n + d}{suit}") for d in (-2, -1, 1, 2) if 1 <= n + d <= 9)
    return 2 * (hand.count(tile) - 1) + near


def choose(seat, obs, legal):
    by_type = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    for kind in ("win", "concealed_kong", "added_kong", "kong"):
        if kind in by_type:
            return by_type[kind][0]
    if "void" in by_type:  # 定缺: the suit we hold least of
        hand = parse(obs["players"][seat]["hand"])
        return min(by_type["void"], key=lambda a: sum(t[1] == a["suit"] for t in hand))
    if "exchange" in by_type:
        return by_type["exchange"][0]
    if "discard" not in by_type:
        return by_type.get("pass", legal)[0]
    hand = parse(obs["players"][seat]["hand"])
    discarded = state[seat]["discarded"]
    visible = obs["visible"]

    def score(a):
        t = a["tile"]
        safe = sum(1 for c in discarded.values() if c[t])  # opponents who threw this tile themselves
        return (-neighbours(t, hand), safe, visible.get(t, 0), t)

    return max(by_type["discard"], key=score)


def main():
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if msg["protocol"] != PROTOCOL:
                print(f"tracker: written for protocol {PROTOCOL}, got {msg['protocol']}", file=sys.stderr, flush=True)
        elif kind == "hand":
            new_hand(msg)
        elif kind == "decide":
            seat = msg["seat"]
            track(seat, msg["observation"])
            action = choose(seat, msg["observation"], msg["legal"])
            sys.stdout.write(json.dumps({"id": msg["id"], "action": action}) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

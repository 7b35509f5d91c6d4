"""What each seat may see of a deal, and the records that describe it (nothing here changes it).

``observation(game, seat)`` is all a seat's agent is given: its own tiles, everyone's melds and
discards, revealed hands, counts; never another seat's concealed tiles or the wall."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from majiang.core.hand import MeldKind
from majiang.core.tiles import ALL_TILES, Tile, format_tiles, from_counts, parse_tiles
from majiang.engine.wall import RNG_VERSION
from majiang.games.base import Phase
from majiang.games.rules import rules_to_json

if TYPE_CHECKING:
    from majiang.engine.game import Game


LOG_FORMAT = 1  # the version of a start record (and of the events after it) that this code writes and reads


def tiles_text(counts) -> str:
    """A count vector as mpsz text (cached: a table shows the same hands again and again)."""
    return _counts_text(tuple(counts))


@functools.lru_cache(maxsize=16384)
def _counts_text(counts: tuple[int, ...]) -> str:
    return format_tiles(from_counts(counts))

def observation(game: Game, seat: int | None) -> dict:
    """What ``seat`` may see (``None``: a spectator, who sees no concealed tile).

    What every seat sees alike (discards, open melds, revealed hands, the public part of
    ``visible``) is worked out once per state of the deal and shared by every seat's observation
    (a server builds one per event for the bots and one per frame for each person); the result is
    always a fresh dict of fresh lists, so whoever holds one may change it."""
    if game.over:
        return _observation_uncached(game, seat)
    shared = _shared(game)
    players = []
    for s in range(game.n):
        pub = shared["players"][s]
        p = {"seat": s, "melds": [dict(m) for m in (pub["own_melds"] if s == seat else pub["melds"])],
             "discards": list(pub["discards"]), "claimed": list(pub["claimed"]), "tiles": pub["tiles"],
             "declared": pub["declared"], "won_tiles": list(pub["won_tiles"]), "out": pub["out"],
             "void": game.seats[s].void if (shared["void_public"] or s == seat) else None}
        if s == seat:
            p["hand"] = tiles_text(game.seats[s].counts)
        elif pub["revealed"] is not None:
            p["revealed"] = {k: list(v) if isinstance(v, list) else v for k, v in pub["revealed"].items()}
        players.append(p)
    obs = _assemble(game, seat, players, [dict(w) for w in shared["wins"]], list(shared["totals"]),
                    None if shared["last_discard"] is None else dict(shared["last_discard"]))
    if seat is not None:
        seen = list(shared["seen"])
        for k in shared["players"][seat]["shown"]:  # its own revealed tiles are in its hand, counted next
            seen[k] -= 1
        for k, c in enumerate(game.seats[seat].counts):
            seen[k] += c
        for m in game.seats[seat].melds:
            if m.kind is MeldKind.CONCEALED_KONG:
                seen[m.tile] += m.size
        for s, p in enumerate(players):
            p["hidden"] = 0 if s == seat else shared["players"][s]["hidden"]
        obs["visible"] = {str(k): seen[k] for k in game.variant.kinds}
    return obs


def _shared(game: Game) -> dict:
    """The part of every observation that does not depend on who looks, for this state of the deal.
    Every change of the deal appends an event, moves the phase, the turn or the wall, so that stamp
    says when it must be worked out again (tests/engine/test_observation.py checks it against the uncached
    observation at every step of many deals)."""
    stamp = (len(game.events), game.phase, game.current, game.tiles_left, game.last_draw, game.over)
    cached = game.caches.get("observation_shared")
    if cached is not None and cached[0] == stamp:
        return cached[1]
    seen = [0] * 30
    players = []
    for s in range(game.n):
        st = game.seats[s]
        revealed = game.play.revealed(game, s) if st.declared else None
        hidden = sum(st.counts)
        shown: list[int] = []  # tiles of its concealed hand that others see
        if revealed is not None and revealed.get("tiles"):  # 亮倒: the declared hand, less triplets kept hidden
            shown.extend(_kinds(revealed["tiles"]))
        if st.out and (hidden - len(shown)) % 3 == 2:  # 血战: the winning tile went into the hidden hand
            shown.append(int([w for w in game.wins if w.seat == s][-1].tile))
        for t in shown:
            seen[t] += 1
        hidden -= len(shown)
        for m in st.melds:
            if m.kind is MeldKind.CONCEALED_KONG:
                hidden += m.size  # the viewer's own: added back to its own ``seen`` in ``observation``
            else:
                seen[m.tile] += m.size
        for t, claimed in zip(st.discards, st.claimed):
            if not claimed:  # a claimed discard is counted where it went: a meld, or a win
                seen[t] += 1
        for t in st.won_tiles:  # 血流成河: set aside, face up
            seen[t] += 1
        players.append({
            "melds": [m.to_json() if m.kind is not MeldKind.CONCEALED_KONG else {"kind": "concealed_kong", "tile": None}
                      for m in st.melds],
            "own_melds": [m.to_json() for m in st.melds],
            "discards": [str(t) for t in st.discards], "claimed": list(st.claimed), "tiles": sum(st.counts),
            "declared": st.declared_kind, "won_tiles": [str(t) for t in st.won_tiles], "out": st.out,
            "revealed": revealed, "hidden": hidden, "shown": shown})
    shared = {"players": players, "seen": seen, "void_public": game.phase not in ("exchange", "void"),
              "wins": [w.to_json() for w in game.wins], "totals": game.totals(),
              "last_discard": None if game.last_discard is None else
              {"seat": game.last_discard[0], "tile": str(game.last_discard[1])}}
    game.caches["observation_shared"] = (stamp, shared)
    return shared


@functools.lru_cache(maxsize=4096)
def _kinds(text: str) -> tuple[int, ...]:
    return tuple(int(t) for t in parse_tiles(text))


def _observation_uncached(game: Game, seat: int | None) -> dict:
    """The observation worked out from scratch: a finished deal (everything shown), and the
    reference the cached one is tested against."""
    players = []
    for s in range(game.n):
        p = {
            "seat": s,
            "melds": [m.to_json() if (m.kind is not MeldKind.CONCEALED_KONG or s == seat or game.over)
                      else {"kind": "concealed_kong", "tile": None} for m in game.seats[s].melds],
            "discards": [str(t) for t in game.seats[s].discards],
            "claimed": list(game.seats[s].claimed),
            "tiles": sum(game.seats[s].counts),
            "declared": game.seats[s].declared_kind,
            "won_tiles": [str(t) for t in game.seats[s].won_tiles],
            "out": game.seats[s].out,
            "void": game.seats[s].void if (game.phase not in ("exchange", "void") or s == seat) else None,
        }
        if s == seat or game.over:
            p["hand"] = tiles_text(game.seats[s].counts)
        elif game.seats[s].declared:
            p["revealed"] = game.play.revealed(game, s)
        players.append(p)
    last = None if game.last_discard is None else {"seat": game.last_discard[0], "tile": str(game.last_discard[1])}
    obs = _assemble(game, seat, players, [w.to_json() for w in game.wins], game.totals(), last)
    if seat is not None:
        obs["visible"] = visible(game, seat, players)
    return obs


def _assemble(game: Game, seat: int | None, players: list[dict], wins: list[dict], totals: list[int],
              last_discard: dict | None) -> dict:
    obs = {
        "variant": game.play.name,
        "rules": rules_json(game),
        "seat": seat,
        "dealer": game.dealer,
        "phase": game.phase,
        "current": game.current,
        "tiles_left": game.tiles_left,
        "players": players,
        "wins": wins,
        "totals": totals,
        "last_discard": last_discard,
    }
    if seat is not None:
        obs["legal"] = [a.to_json() for a in game.legal_actions(seat)]
        if seat == game.current and game.phase == Phase.TURN:  # always there on a turn: null after a claim
            obs["drawn"] = str(game.last_draw) if game.drawn_from_wall and game.last_draw is not None else None
    return obs


def visible(game: Game, seat: int, players: list[dict]) -> dict[str, int]:
    """Every tile ``seat`` can see, by kind (a view only: nothing here changes the game). Also
    sets each player's ``hidden``: its tiles ``seat`` cannot see. The visible tiles plus the
    wall (``tiles_left``) plus every ``hidden`` count make the whole set (84 / 108 tiles)."""
    seen = [0] * 30
    for s in range(game.n):
        p = players[s]
        hand = game.seats[s].counts
        hidden = 0
        if s == seat or game.over:
            for k, c in enumerate(hand):
                seen[k] += c
        else:
            hidden = sum(hand)
            shown = p.get("revealed", {}).get("tiles")
            if shown:  # 亮倒: the declared hand, less any triplets kept hidden
                for t in parse_tiles(shown):
                    seen[t] += 1
                    hidden -= 1
            if game.seats[s].out and hidden % 3 == 2:  # 血战: the winning tile went into the hidden hand
                seen[[w for w in game.wins if w.seat == s][-1].tile] += 1
                hidden -= 1
        for m in game.seats[s].melds:
            if m.kind is MeldKind.CONCEALED_KONG and s != seat and not game.over:
                hidden += m.size
            else:
                seen[m.tile] += m.size
        for t, claimed in zip(game.seats[s].discards, game.seats[s].claimed):
            if not claimed:  # a claimed discard is counted where it went: a meld, or a win
                seen[t] += 1
        for t in game.seats[s].won_tiles:  # 血流成河: set aside, face up
            seen[t] += 1
        p["hidden"] = hidden
    return {str(k): seen[k] for k in game.variant.kinds}


def rules_json(game: Game) -> dict:
    cached = game.caches.get("rules_json")
    if cached is None:
        cached = game.caches["rules_json"] = rules_to_json(game.rules)
    return dict(cached)


def start_record(game: Game) -> dict:
    record = {"type": "start", "format": LOG_FORMAT, "rng": RNG_VERSION, "rules": rules_json(game),
              "seed": game.seed, "hand_index": game.hand_index, "dealer": game.dealer,
              "dice": list(game.dice), "wall": [str(ALL_TILES[t]) for t in game.wall]}
    if game.dealer_dice:
        record["dealer_dice"] = list(game.dealer_dice)
    return record


def settlement(game: Game) -> dict:
    return {"result": game.result, "wins": [w.to_json() for w in game.wins],
            "payments": [p.to_json() for p in game.payments], "totals": game.totals(),
            "next_dealer": game.next_dealer() if game.over else None}


_MELD_NAMES = {"pong": "碰", "kong": "明杠", "concealed_kong": "暗杠"}
DECLARATION_NAMES = {"liangdao": "亮倒", "sing": "唱歌", "dance": "跳舞"}


def describe(game: Game, seat: int | None = None, names: list[str] | None = None) -> str:
    """The table as ``seat`` sees it, as text: each seat's melds, pond (discards; a claimed one in
    brackets), revealed hand and money, the wall count, and the viewer's own hand. ``seat=None``
    shows a spectator's view (no concealed tile); ``names`` labels the seats (default: "you" for
    ``seat``, nothing for the others). The CLI's table, ``str(game)`` and the envs' ``render``.

    >>> from majiang.games.rules import rules_for
    >>> from majiang.engine import Game
    >>> print(describe(Game(rules_for("kawuxing"), seed=7), 0))  # doctest: +ELLIPSIS
    kawuxing/standard · hand 0 · wall 44 · seat 0 to play (turn)
      seat 0 · dealer · you · 14 tiles
        pond: -
      seat 1 · 13 tiles
        pond: -
      seat 2 · 13 tiles
        pond: -
    your hand: 1123456p16899s57z   ...
    """
    obs = game.observation(seat)
    phase = str(obs["phase"].value if hasattr(obs["phase"], "value") else obs["phase"])
    waiting = game.pending_seats()
    status = "over: " + str(getattr(game.result, "value", game.result)) if game.over else \
        f"seat{'s' if len(waiting) > 1 else ''} {', '.join(map(str, waiting))} to play ({phase})"
    lines = [f"{obs['variant']}/{game.rules.preset} · hand {game.hand_index} · wall {obs['tiles_left']} · {status}"]
    for p in obs["players"]:
        s = p["seat"]
        label = (names[s] if names else ("you" if s == seat else ""))
        tags = ["dealer"] * (s == obs["dealer"]) + [label] * bool(label)
        if p["declared"]:
            tags.append(DECLARATION_NAMES.get(p["declared"], p["declared"]))
        if p["void"]:
            tags.append(f"缺{p['void']}")
        if p["out"]:
            tags.append("won")
        melds = " ".join(f"[{_MELD_NAMES.get(m['kind'], m['kind'])} {m['tile'] or '??'}]" for m in p["melds"])
        money = obs["totals"][s]
        lines.append(f"  seat {s}" + "".join(f" · {t}" for t in tags) + f" · {p['tiles']} tiles"
                     + (f" · {melds}" if melds else "") + f" · money {money:+d}" * bool(money))
        pond = [f"({t})" if claimed else t for t, claimed in zip(p["discards"], p["claimed"])]
        lines.append(f"    pond: {' '.join(pond) or '-'}")
        if p.get("won_tiles"):
            lines.append(f"    won on: {' '.join(p['won_tiles'])}")
        if "revealed" in p:
            lines.append("    " + revealed_text(p["revealed"]))
        elif s != seat and game.over and "hand" in p:
            lines.append(f"    hand: {p['hand']}")
    if obs["last_discard"] is not None and not game.over:
        last = obs["last_discard"]
        lines.append(f"last discard: seat {last['seat']} {last['tile']} ({Tile.parse(last['tile']).chinese})")
    if seat is not None:
        tiles = from_counts(game.seats[seat].counts)
        lines.append(f"your hand: {format_tiles(tiles)}   {format_tiles(tiles, 'unicode')}")
        if "drawn" in obs and obs["drawn"] is not None:
            lines.append(f"you drew {obs['drawn']} ({Tile.parse(obs['drawn']).chinese})")
    return "\n".join(lines)


def revealed_text(revealed: dict) -> str:
    """A revealed hand (亮倒, 跳舞) as tiles and waits: ``shows 234m567p99s, waits 1m 4m``."""
    parts = []
    if revealed.get("tiles"):
        parts.append(f"shows {revealed['tiles']}")
    if revealed.get("waits"):
        parts.append("waits " + " ".join(revealed["waits"]))
    elif revealed.get("ready"):
        parts.append("ready (听牌)")
    return ", ".join(parts) or "revealed"

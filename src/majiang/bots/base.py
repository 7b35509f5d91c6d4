"""What every built-in agent shares: the ``Agent`` protocol, ``SeatView`` (one seat's observation,
decoded once per decision) and small tile helpers. Agents see only observations, never the game."""

from __future__ import annotations

from typing import Protocol

from majiang.core.analysis import isolation, shanten_counts
from majiang.core.hand import Meld, MeldKind
from majiang.core.tiles import Tile, parse_tiles, to_counts
from majiang.engine import Action, play_for
from majiang.games import get_game
from majiang.games.rules import rules_from_json


class Agent(Protocol):
    name: str

    def act(self, obs: dict, legal: list[Action]) -> Action: ...


_VARIANT_CACHE: dict = {}


class SeatView:
    """What one seat knows, decoded from its observation once per decision."""

    def __init__(self, obs: dict) -> None:
        self.obs = obs
        self.seat = seat = obs["seat"]
        key = tuple(sorted((k, str(v)) for k, v in obs["rules"].items()))
        if key not in _VARIANT_CACHE:
            rules = rules_from_json(obs["rules"])
            game = get_game(rules.variant)
            _VARIANT_CACHE[key] = (rules, play_for(rules).variant, not game.fans_multiply, frozenset(game.fan_names))
        self.rules, self.variant, self.fans_add, self.fans = _VARIANT_CACHE[key]
        # what the game has, by name (定缺, the two-suit limit, 亮倒, blood battle …): a bot asks for a
        # feature, never which game it is; ``fans_add``: 番 that add up, each doubling the win, so the
        # big hands (七对, 清一色, 根) are worth planning for; ``fans``: the fan table's names
        self.has = self.variant.capabilities
        me = obs["players"][seat]
        self.counts = to_counts(parse_tiles(me["hand"]))
        self.melds = [Meld.from_json(m) for m in me["melds"]]
        self.void = me["void"]
        self.phase = obs["phase"]
        self.tiles_left = obs["tiles_left"]
        ld = obs.get("last_discard")
        self.last_discard = Tile.parse(ld["tile"]) if ld else None
        self.caps = None
        if self.melds:
            self.caps = [4] * 30
            for m in self.melds:
                self.caps[m.tile] -= m.size
        self.meld_suits = "".join(sorted({m.tile.suit for m in self.melds})) if self.has.two_suits else ""

    def shanten(self, counts, melds=None) -> int:
        melds = self.melds if melds is None else melds
        caps = self.caps
        if melds is not self.melds:
            caps = [4] * 30 if melds else None
            for m in melds:
                caps[m.tile] -= m.size
        suits = "".join(sorted({m.tile.suit for m in melds})) if self.has.two_suits else ""
        return shanten_counts(counts, self.variant, 4 - len(melds), self.void, caps,
                              seven_pairs=not melds, meld_suits=suits)

    def seen(self) -> list[int]:
        """Copies of each kind this seat can see: own hand, every meld, discards, revealed tiles.
        The engine counts them in the observation's ``visible`` (亮倒 hands and 血战's winning tiles
        included); an observation without it (an older protocol) is counted here."""
        visible = self.obs.get("visible")
        if visible is not None:
            counted = [0] * 30
            for kind, copies in visible.items():
                counted[Tile.parse(kind)] = copies
            return counted
        seen = list(self.counts)
        for p in self.obs["players"]:
            for m in p["melds"]:
                if m["tile"] is not None:
                    seen[Tile.parse(m["tile"])] += 4 if m["kind"] != "pong" else 3
            for t, claimed in zip(p["discards"], p["claimed"]):
                if not claimed:
                    seen[Tile.parse(t)] += 1
            for t in p.get("won_tiles", ()):
                seen[Tile.parse(t)] += 1
        return seen

    def live_improvers(self, counts, shanten: int, unseen: list[int]) -> int:
        """How many unseen tiles would lower ``counts``' shanten below ``shanten`` if drawn."""
        count = 0
        for t in self.variant.kinds:
            if unseen[t] and (self.caps is None or counts[t] < self.caps[t]):
                counts[t] += 1
                if self.shanten(counts) < shanten:
                    count += unseen[t]
                counts[t] -= 1
        return count

    def unseen(self) -> list[int]:
        return [max(0, 4 - c) for c in self.seen()]

    def opponents(self) -> list[dict]:
        return [p for p in self.obs["players"] if p["seat"] != self.seat and not p["out"]]


def suit_counts(counts) -> dict[str, int]:
    return {s: sum(counts["mps".index(s) * 9:"mps".index(s) * 9 + 9]) for s in "mps"}


def exchange_pick(counts, legal: list[Action]) -> Action:
    """换三张: three tiles of the weakest suit that has three."""
    sc = suit_counts(counts)
    suit = min((s for s in "mps" if sc[s] >= 3), key=lambda s: (sc[s], s))
    options = [a for a in legal if a.tiles[0].suit == suit]
    return min(options, key=lambda a: sum(isolation(counts, t) for t in a.tiles))


def void_pick(counts) -> Action:
    sc = suit_counts(counts)
    return Action("void", suit=min("mps", key=lambda s: (sc[s], s)))


def after_kong(view: SeatView, a: Action):
    after = list(view.counts)
    if a.type == "concealed_kong":
        after[a.tile] -= 4
        melds = view.melds + [Meld.concealed_kong(a.tile)]
    else:
        after[a.tile] -= 1
        melds = [Meld.kong(m.tile, added=True) if (m.tile == a.tile and m.kind is MeldKind.PONG) else m
                 for m in view.melds]
    return after, melds


def native_engine():
    """``majiang.native`` when its library loads, else None (the agents that use it fall back to
    the Python engine)."""
    try:
        from majiang import native
    except ImportError:  # numpy missing
        return None
    return native if native.available() else None


class PythonEngineWarning(RuntimeWarning):
    """A bot searches in the Python engine because the native one does not load: the same
    decisions, 30-60x slower. Said once per run; a run's worker processes keep quiet about it."""


def native_engine_missing() -> str:
    """Why the native engine does not load and what would load it, for the one line that says so.

    >>> "native engine" in native_engine_missing() or "numpy" in native_engine_missing()
    True
    """
    from majiang import native

    return native.unavailable_reason() or ("the native engine is not loaded: install a platform wheel of "
                                           "majiang, or build it in a checkout with `python -m majiang.native build`")

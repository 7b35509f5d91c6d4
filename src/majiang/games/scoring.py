"""What a win is worth: the shared types, and ``score`` dispatching to the game's fan table.

>>> from majiang.core.hand import Hand
>>> from majiang.games.rules import rules_for
>>> s = score(Hand.parse("4688p123s789s555z"), "5p", WinContext(self_draw=True), rules_for("kawuxing"))
>>> [(f.name, f.value) for f in s.fans], s.multiplier
([('卡五星', 2)], 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from majiang.core.errors import RulesError
from majiang.core.hand import Hand
from majiang.core.tiles import Tile
from majiang.games.registry import get_game


@dataclass(frozen=True)
class WinContext:
    """How the hand was won (everything a fan may depend on besides the tiles).

    >>> WinContext(self_draw=True, kong_chain=1).kong_chain  # 杠上开花: won on a kong's replacement
    1
    """

    self_draw: bool = False
    kong_chain: int = 0  # 0: not after a kong; 1: 杠上开花/杠上炮; 2: 杠上杠 …
    robbed_kong: bool = False  # 抢杠
    last_tile: bool = False  # won on the wall's last tile (海底)
    declared: bool = False  # Kawuxing 亮倒 by the winner
    heavenly: bool = False  # 天胡: dealer wins on the deal
    earthly: bool = False  # 地胡: non-dealer wins on the first draw
    void: str | None = None  # Sichuan 定缺

    @property
    def after_kong(self) -> bool:
        return self.kong_chain > 0


@dataclass(frozen=True)
class Fan:
    name: str  # the Chinese name the rules notes use
    english: str
    value: int  # Kawuxing: a multiplier; Sichuan: 番 (fan)
    count: int = 1

    def to_json(self, variant: str) -> dict:
        d: dict = {"name": self.name}
        if get_game(variant).fans_multiply:
            d["multiplier"] = self.value
        else:
            d["fan"] = self.value
        if self.count != 1 or self.name == "根":
            d["count"] = self.count
        d["english"] = self.english
        return d


@dataclass(frozen=True)
class Score:
    """What a hand scores: whether it wins, its fans, and the 番 (Sichuan) or multiplier (Kawuxing).

    >>> from majiang import Hand, rules_for
    >>> s = score(Hand.parse("123p456p789p11s34s"), "5s", WinContext(), rules_for("kawuxing"))
    >>> s.win, [f.name for f in s.fans], s.multiplier
    (True, ['屁胡'], 1)
    """

    win: bool
    variant: str
    fans: tuple[Fan, ...] = field(default=())
    fan: int = 0  # Sichuan: total 番 after the cap
    multiplier: int = 0  # what each payer pays, in units of the base (before bonuses)
    uncapped: int = 0  # multiplier (Kawuxing) or fan (Sichuan) before any cap
    concealed_triplets: int = 0  # 坎 in the scored reading (concealed kongs included), for 数坎

    def to_json(self) -> dict:
        if not self.win:
            return {"win": False}
        d: dict = {"win": True, "fans": [f.to_json(self.variant) for f in self.fans]}
        if not get_game(self.variant).fans_multiply:  # 番 that add up: their total after the cap
            d["fan"] = self.fan
        d["multiplier"] = self.multiplier
        return d


def score(hand: Hand | str, win_tile: Tile | str | int, context: WinContext | None = None, rules=None,
          **how: Any) -> Score:
    """Score a win: ``hand`` is the concealed part before the winning tile, with its melds.

    ``hand`` may be text, ``rules`` a game's name (its default preset), and how the hand was won
    ``WinContext``'s fields given by name instead of a ``context``:

    >>> s = score("4688p123s789s555z", "5p", rules="kawuxing", self_draw=True)
    >>> s.win, s.multiplier, [f.english for f in s.fans]
    (True, 2, ['five between four and six'])
    """
    if rules is None:
        raise RulesError("score needs the rules: a game's name or rules_for(...)")
    if isinstance(rules, str):
        from majiang.games.rules import rules_for

        rules = rules_for(rules)
    if isinstance(hand, str):
        hand = Hand.parse(hand)
    if context is None:
        context = WinContext(**how)
    elif how:
        raise TypeError("give either a WinContext or its fields by name, not both")
    if isinstance(win_tile, str):
        win_tile = Tile.parse(win_tile)
    return get_game(rules.variant).score_win(hand, Tile(int(win_tile)), context, rules)


def merge_fans(fans: list[Fan], multiplicative: bool) -> tuple[Fan, ...]:
    """One entry per name: repeated fans fold into a count (values multiply or add)."""
    out: dict[str, Fan] = {}
    for f in fans:
        if f.name in out:
            old = out[f.name]
            value = old.value * f.value if multiplicative else old.value + f.value
            out[f.name] = Fan(f.name, f.english, value, old.count + f.count)
        else:
            out[f.name] = f
    return tuple(out.values())

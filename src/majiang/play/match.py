"""A match: hands in sequence with the dealer rules, running totals and a settlement record."""

from __future__ import annotations

from dataclasses import dataclass, field

from majiang.core.variants import get_variant
from majiang.engine import Game, first_dealer
from majiang.play.runner import play_hand


@dataclass
class HandResult:
    index: int
    dealer: int
    result: str
    totals: list[int]
    settlement: dict
    records: list[dict] = field(repr=False, default_factory=list)


@dataclass
class Match:
    """Hands in sequence. The first dealer is rolled from the seed (第一局随机确定庄家), or seated by the
    rules (``first_dealer``), unless ``dealer`` is given; the first hand's start record keeps the roll
    (``dealer_dice``)."""

    rules: object
    seed: object = 0
    hands: list[HandResult] = field(default_factory=list)
    dealer: int | None = None
    dealer_dice: tuple[int, int] | None = None
    keep_hands: bool = True  # False: only the running totals and count (memory flat in the hands played)
    played: int = field(default=0, init=False)
    _totals: list[int] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        n = get_variant(self.rules.variant).players
        self._totals = [0] * n
        if self.dealer is None:
            self.dealer, self.dealer_dice = first_dealer(self.seed, n, self.rules)
        for h in self.hands:  # hands given: counted as played
            self._add(h)

    def _add(self, res: HandResult) -> None:
        self.played += 1
        for s, v in enumerate(res.totals):
            self._totals[s] += v

    @property
    def totals(self) -> list[int]:
        return list(self._totals)

    def new_game(self) -> Game:
        return Game(self.rules, seed=self.seed, hand_index=self.played, dealer=self.dealer,
                    dealer_dice=None if self.played else self.dealer_dice)

    def record(self, game: Game, keep_records: bool = False) -> HandResult:
        from majiang.engine.log import game_records

        res = HandResult(self.played, game.dealer, game.result, game.totals(), game.settlement(),
                         game_records(game) if keep_records else [])
        self._add(res)
        if self.keep_hands:
            self.hands.append(res)
        self.dealer = game.next_dealer()
        return res

    def play(self, agents, hands: int | None = None, keep_records: bool = False, check=None,
             on_hand=None) -> "Match":
        for _ in range(hands if hands is not None else self.rules.rounds):
            game = self.new_game()
            play_hand(game, agents, check)
            res = self.record(game, keep_records)
            if on_hand is not None:
                on_hand(game, res)
        return self

    def summary(self) -> dict:
        return {"hands": self.played, "totals": self.totals,
                "per_hand": [{"index": h.index, "dealer": h.dealer, "result": h.result, "totals": h.totals}
                             for h in self.hands]}

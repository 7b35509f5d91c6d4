"""The rules engine: one hand of either game as a state machine over actions.

The engine is pure: no I/O, no clock. ``Game.legal_actions(seat)`` lists what a seat may do now;
``Game.apply(seat, action)`` checks it (``IllegalActionError`` otherwise, state unchanged) and
advances. Seats that must decide are in ``Game.pending``; on a discard every seat that may claim
decides, and the claims are resolved together by priority (胡 over 杠/碰). What differs between
the games lives in ``majiang.kawuxing`` and ``majiang.sichuan`` behind ``VariantPlay``.

Every hand is fully described by its ``start`` record (rules, seed, dealer, wall) and the list of
actions taken; ``majiang.log`` writes both as JSON lines and rebuilds the game from them.

>>> from majiang.games.rules import rules_for
>>> g = Game(rules_for("kawuxing"), seed=7)
>>> g.phase, g.pending_seats(), len(g.wall_left())
('turn', [0], 44)
>>> sum(sum(h) for h in g.hands)
40
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from typing import Any

from majiang.core.analysis import closed_shanten_function, complete_counts, shanten_counts, waits, waits_counts
from majiang.core.errors import IllegalActionError
from majiang.core.hand import Hand, Meld, MeldKind
from majiang.games.scoring import Score, WinContext
from majiang.core.tiles import ALL_TILES, Tile, parse_tiles
from majiang.core.variants import Variant

RNG_VERSION = 1  # bump if the shuffle changes, so old logs are known to replay differently


@dataclass(frozen=True)
class Action:
    """One decision. ``type`` is one of ACTION_TYPES; ``tile``/``tiles``/``suit`` as the type needs."""

    type: str
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    suit: str | None = None

    def __eq__(self, other: object) -> bool:
        # legal actions are checked by membership at every decision: identity first, then fields
        if self is other:
            return True
        if other.__class__ is not Action:
            return NotImplemented
        return (self.type == other.type and self.tile == other.tile and self.tiles == other.tiles
                and self.suit == other.suit)

    def to_json(self) -> dict:
        d: dict[str, Any] = {"type": self.type}
        if self.tile is not None:
            d["tile"] = str(self.tile)
        if self.tiles:
            d["tiles"] = [str(t) for t in self.tiles]
        if self.suit is not None:
            d["suit"] = self.suit
        return d

    @classmethod
    def from_json(cls, d: Any) -> "Action":
        if not isinstance(d, dict) or not isinstance(d.get("type"), str):
            raise IllegalActionError(f"an action is an object with a 'type', got {d!r}")
        if d["type"] not in ACTION_TYPES:
            raise IllegalActionError(f"unknown action type {d['type']!r} (one of {', '.join(ACTION_TYPES)})")
        try:
            tile = Tile.parse(d["tile"]) if d.get("tile") is not None else None
            tiles = tuple(sorted(Tile.parse(t) for t in d.get("tiles", ())))
        except (ValueError, TypeError) as exc:
            raise IllegalActionError(f"bad tile in action: {exc}") from None
        suit = d.get("suit")
        if suit is not None and suit not in ("m", "p", "s"):
            raise IllegalActionError(f"bad suit {suit!r} (m, p or s)")
        return cls(d["type"], tile, tiles, suit)

    def __str__(self) -> str:
        parts = [self.type]
        if self.tile is not None:
            parts.append(str(self.tile))
        if self.tiles:
            parts.append("".join(str(t) for t in self.tiles))
        if self.suit:
            parts.append(self.suit)
        return " ".join(parts)


_ACTION_CACHE: dict = {}


def tile_action(type_: str, tile) -> Action:
    """The shared instance of a one-tile action (actions are immutable; legal-action lists are
    rebuilt at every decision, so sharing them saves most of that cost)."""
    key = (type_, int(tile) if tile is not None else None)
    a = _ACTION_CACHE.get(key)
    if a is None:
        a = _ACTION_CACHE[key] = Action(type_, ALL_TILES[key[1]] if tile is not None else None)
    return a


@functools.lru_cache(maxsize=16)
def _closed_shanten(variant, void):
    return closed_shanten_function(variant, void)


def _no_neighbours(counts, tile: int) -> bool:
    if tile >= 27:
        return True
    r = tile % 9
    return not ((r > 0 and counts[tile - 1]) or (r > 1 and counts[tile - 2])
                or (r < 8 and counts[tile + 1]) or (r < 7 and counts[tile + 2]))


_PASS = Action("pass")
_DISCARDS = [tile_action("discard", k) for k in range(30)]

ACTION_TYPES = ("discard", "win", "pong", "kong", "concealed_kong", "added_kong", "pass", "declare",
                "sing", "exchange", "void")


@dataclass
class Payment:
    payer: int
    payee: int
    amount: int
    reason: str  # Chinese name of the rule, e.g. 自摸, 点炮, 暗杠, 花猪
    detail: str = ""

    def to_json(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "reason": self.reason,
                "detail": self.detail}


@dataclass
class WinRecord:
    seat: int
    tile: Tile
    self_draw: bool
    discarder: int | None
    score: Score
    robbed_kong: bool = False

    def to_json(self) -> dict:
        return {"seat": self.seat, "tile": str(self.tile), "self_draw": self.self_draw,
                "discarder": self.discarder, "robbed_kong": self.robbed_kong, **self.score.to_json()}


@dataclass
class KongRecord:
    seat: int
    tile: Tile
    kind: str  # concealed_kong, added_kong, kong (direct)
    payments: list[Payment] = field(default_factory=list)
    chain: int = 1
    settled: bool = False  # its money was refunded or passed on (杠上炮, 退杠)


class VariantPlay:
    """What differs between the games. Subclasses live in the variant modules."""

    name = ""
    players = 0

    def __init__(self, rules) -> None:
        self.rules = rules

    @property
    def variant(self) -> "Variant":
        raise NotImplementedError

    def setup_phase(self, game: "Game") -> str:
        """The first phase after the deal: 'turn', or Sichuan's 'exchange'/'void'."""
        return "turn"

    def can_discard(self, game: "Game", seat: int, tile: int) -> bool:
        return True

    def discardable(self, game: "Game", seat: int) -> list[int]:
        """The kinds this seat may discard now (all it holds, unless the variant restricts)."""
        h = game.hands[seat]
        return [k for k in range(30) if h[k]]

    def can_claim_tile(self, game: "Game", seat: int, tile: int) -> bool:
        return True

    def extra_turn_actions(self, game: "Game", seat: int) -> list[Action]:
        return []

    def win_allowed(self, game: "Game", seat: int, score: Score, self_draw: bool) -> bool:
        return score.win

    def kong_payments(self, game: "Game", seat: int, kind: str, discarder: int | None, chain: int,
                      at_once: bool = True) -> list[Payment]:
        """Kong money. ``at_once``: an added kong made on drawing its fourth tile (not later)."""
        raise NotImplementedError

    def win_payments(self, game: "Game", win: WinRecord) -> list[Payment]:
        raise NotImplementedError

    def after_wins(self, game: "Game", wins: list[WinRecord]) -> bool:
        """Called after wins are recorded; True if the hand goes on."""
        return False

    def draw_settlement(self, game: "Game") -> list[Payment]:
        return []

    def score(self, hand: Hand, tile: Tile, ctx: WinContext) -> Score:
        raise NotImplementedError

    def must_win(self, game: "Game", seat: int) -> bool:
        """Must a win on one of the wall's last four tiles be taken (Sichuan 最后四张必胡)? The engine
        asks only when the tile won on is one of them."""
        return False

    def earthly_on_discard(self) -> bool:
        """Does a win on a discard in the first go-around count as 地胡 (Sichuan ``earthly``)?"""
        return False

    def pass_allows_bigger(self, game: "Game") -> bool:
        """After passing a win, may a bigger win on a later discard be taken before one's draw?"""
        return False

    def declare(self, game: "Game", seat: int, discard: Tile, kind: str) -> None:
        raise IllegalActionError(f"{self.name} has no declaration")

    def winners_play_on(self, game: "Game") -> bool:
        """血流成河: winners stay at the table and may win again."""
        return False

    def revealed(self, game: "Game", seat: int) -> dict:
        return {}

    def next_dealer(self, game: "Game") -> int:
        """First winner deals next; a first win that was a multiple ron: the discarder; a draw: same."""
        if not game.wins:
            return game.dealer
        if game.first_win_multi:
            return game.wins[0].discarder
        return game.wins[0].seat


def play_for(rules) -> VariantPlay:
    if rules.variant == "kawuxing":
        from majiang.games.kawuxing import KawuxingPlay
        return KawuxingPlay(rules)
    from majiang.games.sichuan import SichuanPlay
    return SichuanPlay(rules)


def seed_string(seed: Any, hand_index: int) -> str:
    """What the shuffle of one hand is seeded with (``majiang.native`` seeds the same way)."""
    return f"majiang/{RNG_VERSION}/{seed}/{hand_index}"


def shuffled_wall(kinds, seed: Any, hand_index: int) -> tuple[list[int], tuple[int, int]]:
    """The wall and dice of one hand: a function of (seed, hand index) only."""
    rng = random.Random(seed_string(seed, hand_index))
    wall = [int(k) for k in kinds for _ in range(4)]
    rng.shuffle(wall)
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    return wall, dice


def first_dealer(seed: Any, players: int) -> tuple[int, tuple[int, int]]:
    """第一局随机确定庄家: the first dealer of a match and the two dice that chose it, a function of
    the match seed only. The dice total is counted round the table from seat 0 (seat 0 counts 1)."""
    rng = random.Random(f"majiang/{RNG_VERSION}/{seed}/first-dealer")
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    return (sum(dice) - 1) % players, dice


class Game:
    """One hand, from the deal to the settlement."""

    def __init__(self, rules, seed: Any = 0, hand_index: int = 0, dealer: int = 0,
                 wall: list[int] | None = None, dice: tuple[int, int] | None = None,
                 dealer_dice: tuple[int, int] | None = None) -> None:
        self.rules = rules
        self.play = play_for(rules)
        self.variant = self.play.variant
        self.n = self.play.players
        if not 0 <= dealer < self.n:
            raise IllegalActionError(f"dealer must be a seat 0-{self.n - 1}")
        self.seed = seed
        self.hand_index = hand_index
        self.dealer = dealer
        self.dealer_dice = tuple(dealer_dice) if dealer_dice else None  # a match's first hand: the roll for 庄
        if wall is None:
            wall, rolled = shuffled_wall(self.variant.kinds, seed, hand_index)
            dice = dice or rolled
        else:
            expected = sorted(int(k) for k in self.variant.kinds for _ in range(4))
            if sorted(int(t) for t in wall) != expected:
                raise IllegalActionError(f"an injected wall must hold each {self.variant.name} tile four times")
            wall = [int(t) for t in wall]
        self.dice = dice or (1, 1)
        self.wall = wall
        self.front = 0  # next draw
        self.back = len(wall)  # kong replacements come from the back
        self.hands = [[0] * 30 for _ in range(self.n)]
        self.melds: list[list[Meld]] = [[] for _ in range(self.n)]
        self.discards: list[list[Tile]] = [[] for _ in range(self.n)]
        self.claimed: list[list[bool]] = [[] for _ in range(self.n)]  # per discard: taken by a claim
        self.declared = [False] * self.n  # the hand is frozen: Kawuxing 亮倒, Sichuan 唱歌/跳舞
        self.declared_kind: list[str | None] = [None] * self.n  # "liangdao", "sing" or "dance"
        self.declared_waits: list[list[Tile]] = [[] for _ in range(self.n)]
        self.won_tiles: list[list[Tile]] = [[] for _ in range(self.n)]  # 血流成河: winning tiles set aside
        self.declare_order: list[int] = []
        self.void: list[str | None] = [None] * self.n
        self.exchange_choice: list[tuple[Tile, ...] | None] = [None] * self.n
        self.out = [False] * self.n  # Sichuan: won and left the table
        self.wins: list[WinRecord] = []
        self.first_win_multi = False
        self.kongs: list[KongRecord] = []
        self.payments: list[Payment] = []
        self.actions: list[tuple[int, Action]] = []
        self.events: list[dict] = []
        self.pending: dict[int, list[Action]] = {}
        self.responses: dict[int, Action] = {}
        self.current = dealer
        self.last_draw: Tile | None = None
        self.drawn_from_wall = False  # the current turn began with a draw (not a claim)
        self.last_four_draw = False  # that draw took one of the wall's last four tiles
        self.discard_last_four = False  # the last discard is the tile just drawn from the last four
        self.kong_chain = 0  # >0 while the current turn follows a kong (杠上)
        self.discard_chain = 0  # chain in force when the last discard was made (杠上炮)
        self.last_discard: tuple[int, Tile] | None = None
        self.pending_kong: tuple[int, Tile] | None = None  # an added kong awaiting robbers
        self.passed_win: list[int | None] = [None] * self.n  # 漏胡/过水: uncapped value of a passed win
        self.draws_by_seat = [0] * self.n
        self.any_claim = False
        self.phase = "deal"
        self.result: str | None = None  # "win" or "draw" when over
        self.caches: dict[str, Any] = {}  # views derived from the state (the RL encoder's), not state
        # Called with "claim" or "rob" where a claim window closes at once because no seat can claim:
        # a server shows every seat that moment too, so a window's existence tells nobody anything.
        self.on_window: Any = None
        self._deal()

    # ------------------------------------------------------------------ basics

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def wall_left(self) -> list[int]:
        return self.wall[self.front:self.back]

    @property
    def tiles_left(self) -> int:
        return self.back - self.front

    def active(self, seat: int) -> bool:
        return not self.out[seat]

    def active_seats(self) -> list[int]:
        return [s for s in range(self.n) if not self.out[s]]

    def hand(self, seat: int) -> Hand:
        return Hand(tuple(self.hands[seat]), tuple(self.melds[seat]))

    def pending_seats(self) -> list[int]:
        return sorted(s for s in self.pending if s not in self.responses)

    def _event(self, type_: str, **data) -> None:
        self.events.append({"type": type_, **data})

    def _next_seat(self, seat: int) -> int:
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if not self.out[s]:
                return s
        return seat

    # ------------------------------------------------------------------ deal and setup

    def _deal(self) -> None:
        for _ in range(13):
            for k in range(self.n):
                seat = (self.dealer + k) % self.n
                self.hands[seat][self.wall[self.front]] += 1
                self.front += 1
        self.hands[self.dealer][self.wall[self.front]] += 1
        self.last_draw = ALL_TILES[self.wall[self.front]]
        self.front += 1
        self._event("deal", dealer=self.dealer, dice=list(self.dice),
                    hands=[_tiles_str(h) for h in self.hands])
        self.phase = self.play.setup_phase(self)
        if self.phase == "exchange":
            self.pending = {s: self._exchange_options(s) for s in range(self.n)}
        elif self.phase == "void":
            self._start_void()
        else:
            self._begin_turn(self.dealer)

    def _exchange_options(self, seat: int) -> list[Action]:
        """换三张: three tiles of one suit (every combination of held tiles)."""
        import itertools

        opts = []
        h = self.hands[seat]
        for suit in "mps":
            start = "mps".index(suit) * 9
            tiles = [ALL_TILES[k] for k in range(start, start + 9) for _ in range(h[k])]
            for combo in sorted(set(itertools.combinations(tiles, 3))):
                opts.append(Action("exchange", tiles=tuple(combo)))
        return opts

    def _finish_exchange(self) -> None:
        # direction by dice: odd sum passes to the next seat (下家), even to the previous, 
        # a sum of 6 or 12 across the table
        total = sum(self.dice)
        step = 2 if total in (6, 12) else (1 if total % 2 else self.n - 1)
        chosen = [self.exchange_choice[s] for s in range(self.n)]
        for s in range(self.n):
            for t in chosen[s]:
                self.hands[s][t] -= 1
        for s in range(self.n):
            for t in chosen[s]:
                self.hands[(s + step) % self.n][t] += 1
        self._event("exchanged", step=step)
        self._start_void()

    def _start_void(self) -> None:
        self.phase = "void"
        self.pending = {}
        self.responses = {}
        for s in range(self.n):
            present = [suit for suit in "mps" if any(self.hands[s][k] for k in range("mps".index(suit) * 9,
                                                                                     "mps".index(suit) * 9 + 9))]
            if len(present) <= 2:  # 天缺: already missing a suit
                missing = [x for x in "mps" if x not in present]
                self.void[s] = missing[0]
            else:
                self.pending[s] = [Action("void", suit=x) for x in "mps"]
        if not self.pending:
            self._finish_void()

    def _finish_void(self) -> None:
        self._event("voids", voids=list(self.void))
        self.pending = {}
        self.responses = {}
        self._begin_turn(self.dealer)

    # ------------------------------------------------------------------ turns

    def _begin_turn(self, seat: int) -> None:
        self.phase = "turn"
        self.current = seat
        self.responses = {}
        self.pending = {seat: self._turn_options(seat)}

    def _draw(self, seat: int, replacement: bool = False) -> None:
        if self.tiles_left == 0:
            self._end_draw()
            return
        if replacement:
            self.back -= 1
            t = self.wall[self.back]
        else:
            t = self.wall[self.front]
            self.front += 1
            self.kong_chain = 0
        self.hands[seat][t] += 1
        self.last_draw = ALL_TILES[t]
        self.drawn_from_wall = True
        self.last_four_draw = self.tiles_left < 4  # the wall held four or fewer before this draw
        self.passed_win[seat] = None  # 漏胡/过水 last until one's own draw
        self.draws_by_seat[seat] += 1
        self._event("draw", seat=seat, tile=str(ALL_TILES[t]), replacement=replacement, left=self.tiles_left)
        self._begin_turn(seat)

    def _turn_options(self, seat: int) -> list[Action]:
        h = self.hands[seat]
        opts: list[Action] = []
        if self.drawn_from_wall or self._is_first_dealer_turn(seat):
            score = self._score_self_draw(seat)
            if score is not None and self.play.win_allowed(self, seat, score, True):
                opts.append(tile_action("win", self.last_draw))
        last_tile_turn = self.tiles_left == 0 and self.drawn_from_wall
        if self.tiles_left > 0 and not self.declared[seat]:
            for k in (range(30) if 4 in h else ()):
                if h[k] == 4 and self.play.can_claim_tile(self, seat, k):
                    opts.append(tile_action("concealed_kong", k))
            for m in self.melds[seat]:
                if m.kind is MeldKind.PONG and h[m.tile] and self._added_kong_allowed(seat, m.tile):
                    opts.append(tile_action("added_kong", m.tile))
        elif self.tiles_left > 0 and self.drawn_from_wall and self.last_draw is not None:
            # a frozen (declared) hand may kong the tile it drew if its waits stay the same
            t = self.last_draw
            if h[t] == 4 and self.play.can_claim_tile(self, seat, t):
                after = list(h)
                after[t] -= 4
                kept = Hand(tuple(after), tuple(self.melds[seat]) + (Meld.concealed_kong(t),))
                if waits(kept, self.variant, self.void[seat]) == self.declared_waits[seat]:
                    opts.append(tile_action("concealed_kong", t))
            if any(m.kind is MeldKind.PONG and m.tile == t for m in self.melds[seat]) \
                    and self._added_kong_allowed(seat, t):
                opts.append(tile_action("added_kong", t))  # the concealed part is unchanged
        opts.extend(self.play.extra_turn_actions(self, seat))
        discards = self.play.discardable(self, seat)
        if last_tile_turn and self.play.name == "kawuxing" and self.last_draw is not None:
            discards = [int(self.last_draw)]  # the last tile drawn must itself be discarded
        if self.declared[seat]:
            discards = [int(self.last_draw)] if self.last_draw is not None and h[self.last_draw] else discards
        opts.extend([_DISCARDS[k] for k in discards])
        if any(a.type == "win" for a in opts) and self._fresh_last_four(self.last_draw) \
                and self.play.must_win(self, seat):
            opts = [a for a in opts if a.type == "win"]
        return opts

    def _fresh_last_four(self, tile) -> bool:
        """Is ``tile`` the one just drawn this turn, from the wall's last four (最后四张)?"""
        return self.drawn_from_wall and self.last_four_draw and self.last_draw == tile

    def _is_first_dealer_turn(self, seat: int) -> bool:
        return seat == self.dealer and not any(self.discards) and not self.any_claim and not self.kongs

    def _added_kong_at_once(self, tile: Tile) -> bool:
        """Is an added kong of ``tile`` made at the moment its fourth tile is drawn (即时加杠)?"""
        return self.drawn_from_wall and self.last_draw == tile

    def _added_kong_allowed(self, seat: int, tile: Tile) -> bool:
        if not self.play.can_claim_tile(self, seat, tile):
            return False
        if self.play.name == "kawuxing" or self.rules.late_added_kong == "forbid":
            # 蓄杠 only at the moment the fourth is drawn
            return self._added_kong_at_once(tile)
        return True

    def _completes(self, seat: int, counts: list[int], tile: int) -> bool:
        """Does ``tile`` complete the 3n+1 ``counts`` (with the seat's melds)?

        One completeness test of the hand with the tile added: cheaper than the hand's waits,
        which change with every discard of its own."""
        if not counts[tile] and _no_neighbours(counts, tile):
            return False  # a tile neither held nor next to a held one completes no set or pair
        full = list(counts)
        full[tile] += 1
        return self._is_complete(seat, full)

    def _is_complete(self, seat: int, counts: list[int]) -> bool:
        """Is the 3n+2 ``counts`` with the seat's melds a winning hand?"""
        melds = self.melds[seat]
        totals = counts
        if melds and self.variant.two_suit_rule:  # only the Sichuan suit rule looks at meld tiles
            totals = list(counts)
            for m in melds:
                totals[m.tile] += m.size
        return complete_counts(counts, totals, self.variant, self.void[seat], closed=not melds)

    def _score_self_draw(self, seat: int) -> Score | None:
        t = self.last_draw
        if t is None or not self.hands[seat][t]:
            return None
        counts = self.hands[seat]
        if not self._is_complete(seat, counts):
            return None
        before = list(counts)
        before[t] -= 1
        hand = Hand(tuple(before), tuple(self.melds[seat]))
        ctx = WinContext(
            self_draw=True, kong_chain=self.kong_chain, last_tile=self.tiles_left == 0 and self.drawn_from_wall,
            declared=self.declared[seat], void=self.void[seat],
            heavenly=self._is_first_dealer_turn(seat),
            earthly=self._earthly(seat, self_draw=True),
        )
        return self.play.score(hand, t, ctx)

    def _earthly(self, seat: int, self_draw: bool) -> bool:
        """地胡: a non-dealer's win after its first draw, nothing claimed, konged or won before it:
        a self-draw on that draw, or (``earthly_on_discard``) a win on a discard made before the
        dealer draws again (the first go-around)."""
        if seat == self.dealer or self.draws_by_seat[seat] != 1 or self.any_claim or self.kongs or self.wins:
            return False
        if self_draw:
            return not self.discards[seat] and self.drawn_from_wall
        return self.play.earthly_on_discard() and self.draws_by_seat[self.dealer] == 0

    def _score_ron(self, seat: int, tile: Tile, robbed: bool = False) -> Score:
        ctx = WinContext(self_draw=False, kong_chain=0 if robbed else self.discard_chain, robbed_kong=robbed,
                         last_tile=self.tiles_left == 0 and not robbed, declared=self.declared[seat],
                         earthly=self._earthly(seat, self_draw=False), void=self.void[seat])
        return self.play.score(self.hand(seat), tile, ctx)

    # ------------------------------------------------------------------ applying actions

    def legal_actions(self, seat: int) -> list[Action]:
        if seat in self.responses:
            return []
        return list(self.pending.get(seat, []))

    def apply(self, seat: int, action: Action | dict) -> None:
        """Apply one seat's action, or raise ``IllegalActionError`` leaving the state unchanged."""
        if isinstance(action, dict):
            action = Action.from_json(action)
        if self.phase == "over":
            raise IllegalActionError("the hand is over")
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalActionError(f"no seat {seat!r} at this table (0-{self.n - 1})")
        if seat not in self.pending:
            waiting = ", ".join(str(s) for s in self.pending_seats()) or "nobody"
            raise IllegalActionError(f"seat {seat} has no decision to make now (waiting for {waiting})")
        if seat in self.responses:
            raise IllegalActionError(f"seat {seat} has already answered this {self.phase}")
        if action not in self.pending[seat]:
            legal = ", ".join(str(a) for a in self.pending[seat][:12])
            more = "…" if len(self.pending[seat]) > 12 else ""
            raise IllegalActionError(f"'{action}' is not legal for seat {seat} now; legal: {legal}{more}")
        self.actions.append((seat, action))
        self._event("action", seat=seat, action=action.to_json())
        if self.phase == "turn":
            self._apply_turn(seat, action)
        elif self.phase == "claim":
            self.responses[seat] = action
            if len(self.responses) == len(self.pending):
                self._resolve_claims()
        elif self.phase == "rob":
            self.responses[seat] = action
            if len(self.responses) == len(self.pending):
                self._resolve_rob()
        elif self.phase == "exchange":
            self.exchange_choice[seat] = action.tiles
            self.responses[seat] = action
            if len(self.responses) == len(self.pending):
                self._finish_exchange()
        elif self.phase == "void":
            self.void[seat] = action.suit
            self.responses[seat] = action
            if len(self.responses) == len(self.pending):
                self._finish_void()

    def _apply_turn(self, seat: int, action: Action) -> None:
        t = action.tile
        kind = action.type
        if kind == "win":
            score = self._score_self_draw(seat)
            self.hands[seat][t] -= 1  # _record_wins puts the winning tile back
            self._record_wins([WinRecord(seat, t, True, None, score)])
            return
        if kind in ("discard", "declare", "sing"):
            if kind != "discard":
                self.play.declare(self, seat, t, kind)
            self.hands[seat][t] -= 1
            self.discards[seat].append(t)
            self.claimed[seat].append(False)
            self.discard_last_four = self._fresh_last_four(t)
            self.discard_chain = self.kong_chain
            self.kong_chain = 0
            self.drawn_from_wall = False
            self.last_discard = (seat, t)
            self._event("discard", seat=seat, tile=str(t))
            self._open_claims(seat, t)
            return
        if kind == "concealed_kong":
            self.hands[seat][t] -= 4
            self.melds[seat].append(Meld.concealed_kong(t))
            self._complete_kong(seat, t, "concealed_kong", None)
            return
        if kind == "added_kong":
            robbers = self._robbers(seat, t)
            if robbers:
                self.pending_kong = (seat, t)
                self.phase = "rob"
                self.responses = {}
                self.pending = robbers
                return
            if self.on_window is not None:
                self.on_window("rob")
            self._finish_added_kong(seat, t)
            return
        raise IllegalActionError(f"unexpected action {action}")  # pragma: no cover

    def _finish_added_kong(self, seat: int, t: Tile) -> None:
        self.hands[seat][t] -= 1
        i = next(i for i, m in enumerate(self.melds[seat]) if m.kind is MeldKind.PONG and m.tile == t)
        self.melds[seat][i] = Meld.kong(t, added=True)
        self._complete_kong(seat, t, "added_kong", None)

    def _complete_kong(self, seat: int, t: Tile, kind: str, discarder: int | None) -> None:
        chain = (self.discard_chain + 1) if kind == "kong" else (self.kong_chain + 1)
        at_once = kind != "added_kong" or self._added_kong_at_once(t)
        payments = self.play.kong_payments(self, seat, kind, discarder, chain, at_once)
        record = KongRecord(seat, t, kind, payments, chain)
        self.kongs.append(record)
        self._pay(payments)
        self._event("kong", seat=seat, tile=str(t), kind=kind, chain=chain)
        self.kong_chain = chain
        self._draw(seat, replacement=True)

    # ------------------------------------------------------------------ claims

    def _open_claims(self, discarder: int, t: Tile) -> None:
        options: dict[int, list[Action]] = {}
        last = self.tiles_left == 0
        for s in range(self.n):
            if s == discarder or self.out[s]:
                continue
            opts = []
            if self._completes(s, self.hands[s], t):
                score = self._score_ron(s, t)
                if score.win and self.play.win_allowed(self, s, score, False) and self._ron_not_blocked(s, score):
                    opts.append(tile_action("win", t))
            h = self.hands[s]
            if not last and h[t] >= 2 and self.play.can_claim_tile(self, s, t):
                if h[t] == 3 and self._kong_keeps_declared(s, t):
                    opts.append(tile_action("kong", t))
                if not self.declared[s]:
                    opts.append(tile_action("pong", t))
            if opts:
                must = any(a.type == "win" for a in opts) and self.discard_last_four and self.play.must_win(self, s)
                options[s] = [a for a in opts if a.type == "win"] if must else opts + [_PASS]
        if not options:
            if self.on_window is not None:
                self.on_window("claim")
            self._after_discard(discarder)
            return
        self.phase = "claim"
        self.responses = {}
        self.pending = options

    def _ron_not_blocked(self, seat: int, score: Score) -> bool:
        passed = self.passed_win[seat]
        if passed is None:
            return True
        return self.play.pass_allows_bigger(self) and score.uncapped > passed  # 番数增加: before any cap

    def _kong_keeps_declared(self, seat: int, t: Tile) -> bool:
        """A declared (亮倒) hand may kong only if its waits stay the same."""
        if not self.declared[seat]:
            return True
        h = list(self.hands[seat])
        h[t] -= 3
        after = waits(Hand(tuple(h), tuple(self.melds[seat]) + (Meld.kong(t),)), self.variant, self.void[seat])
        return after == self.declared_waits[seat] and bool(after)

    def _resolve_claims(self) -> None:
        discarder, t = self.last_discard
        responses = self.responses
        for s, a in responses.items():  # 漏胡/过水: any answer but 胡 (a pong or kong too) passes the win
            if a.type != "win" and any(x.type == "win" for x in self.pending[s]):
                self.passed_win[s] = self._score_ron(s, t).uncapped
        winners = [s for s in self._order_from(discarder) if responses.get(s, _PASS).type == "win"]
        if winners:
            self.claimed[discarder][-1] = True
            wins = [WinRecord(s, t, False, discarder, self._score_ron(s, t)) for s in winners]
            if not self.wins and len(wins) > 1:
                self.first_win_multi = True
            self._record_wins(wins)
            return
        for s, a in responses.items():
            if a.type in ("kong", "pong"):
                self.claimed[discarder][-1] = True
                self.any_claim = True
                self.pending = {}
                self.responses = {}
                if a.type == "kong":
                    self.hands[s][t] -= 3
                    self.melds[s].append(Meld.kong(t))
                    self._event("claim", seat=s, kind="kong", tile=str(t), discarder=discarder)
                    self._complete_kong(s, t, "kong", discarder)
                else:
                    self.hands[s][t] -= 2
                    self.melds[s].append(Meld.pong(t))
                    self._event("claim", seat=s, kind="pong", tile=str(t), discarder=discarder)
                    self.drawn_from_wall = False
                    self.kong_chain = 0
                    self.last_draw = None
                    self._begin_turn(s)
                return
        self._after_discard(discarder)

    def _order_from(self, seat: int) -> list[int]:
        return [(seat + k) % self.n for k in range(1, self.n)]

    def _after_discard(self, discarder: int) -> None:
        self.pending = {}
        self.responses = {}
        if self.tiles_left == 0:
            self._end_draw()
            return
        self._draw(self._next_seat(discarder))

    def _robbers(self, seat: int, t: Tile) -> dict[int, list[Action]]:
        out = {}
        for s in range(self.n):
            if s == seat or self.out[s] or not self._completes(s, self.hands[s], t):
                continue
            score = self._score_ron(s, t, robbed=True)
            if score.win and self.play.win_allowed(self, s, score, False) and self._ron_not_blocked(s, score):
                must = self._fresh_last_four(t) and self.play.must_win(self, s)
                out[s] = [tile_action("win", t)] + ([] if must else [_PASS])
        return out

    def _resolve_rob(self) -> None:
        seat, t = self.pending_kong
        self.pending_kong = None
        for s, a in self.responses.items():
            if a.type == "pass":
                self.passed_win[s] = self._score_ron(s, t, robbed=True).uncapped
        winners = [s for s in self._order_from(seat) if self.responses.get(s, _PASS).type == "win"]
        if winners:
            self.hands[seat][t] -= 1  # the robbed tile leaves the kong maker's hand; the pong stays
            self._event("robbed", seat=seat, tile=str(t))
            wins = [WinRecord(s, t, False, seat, self._score_ron(s, t, robbed=True), robbed_kong=True)
                    for s in winners]
            if not self.wins and len(wins) > 1:
                self.first_win_multi = True
            self.last_discard = (seat, t)
            self._record_wins(wins)
            return
        self.pending = {}
        self.responses = {}
        self._finish_added_kong(seat, t)

    # ------------------------------------------------------------------ wins, draws, payments

    def _pay(self, payments: list[Payment]) -> None:
        for p in payments:
            if p.amount:
                self.payments.append(p)
                self._event("payment", **p.to_json())

    def _record_wins(self, wins: list[WinRecord]) -> None:
        self.pending = {}
        self.responses = {}
        keep_playing = self.play.winners_play_on(self)
        for i, w in enumerate(wins):
            if i == 0:  # the one physical tile goes to the first winner
                if keep_playing:
                    self.won_tiles[w.seat].append(w.tile)  # 血流成河: set aside, the hand plays on
                else:
                    self.hands[w.seat][w.tile] += 1
            self.wins.append(w)
            self._event("win", **w.to_json())
            self._pay(self.play.win_payments(self, w))
        goes_on = self.play.after_wins(self, wins)
        if not goes_on:
            self._finish("win")
            return
        last_winner = wins[-1].seat
        if any(w.self_draw for w in wins):
            nxt = self._next_seat(last_winner)
        else:
            discarder = wins[0].discarder
            order = [s for s in self._order_from(discarder)]
            winners = {w.seat for w in wins}
            last = max(winners, key=lambda s: order.index(s))
            nxt = self._next_seat(last)
        if self.tiles_left == 0:
            self._end_draw()
            return
        self.kong_chain = 0
        self._draw(nxt)

    def _end_draw(self) -> None:
        self.pending = {}
        self.responses = {}
        self._pay(self.play.draw_settlement(self))
        self._finish("win" if self.wins else "draw")

    def _finish(self, result: str) -> None:
        self.phase = "over"
        self.pending = {}
        self.result = result
        self._event("end", result=result, totals=self.totals(), next_dealer=self.play.next_dealer(self))

    def totals(self) -> list[int]:
        out = [0] * self.n
        for p in self.payments:
            out[p.payer] -= p.amount
            out[p.payee] += p.amount
        return out

    def next_dealer(self) -> int:
        return self.play.next_dealer(self)

    # ------------------------------------------------------------------ invariants and views

    def tile_count(self) -> int:
        """Every tile is somewhere: wall, hands, melds, discards not claimed, and wins."""
        n = self.tiles_left + sum(sum(h) for h in self.hands)
        n += sum(m.size for ms in self.melds for m in ms)
        n += sum(1 for s in range(self.n) for c in self.claimed[s] if not c)
        n += sum(len(w) for w in self.won_tiles)
        return n

    def ready_discards(self, seat: int) -> list[Tile]:
        """Tiles whose discard leaves the hand ready (for 亮倒 and 唱歌/跳舞)."""
        counts = self.hands[seat]
        out = []
        melds = self.melds[seat]
        # a 3n+2 hand's shanten is that of its best discard; the uncapped tables give a lower
        # bound that is cheap even with melds, so most turns stop here
        if not melds:
            if _closed_shanten(self.variant, self.void[seat])(counts) > 0:
                return out
        else:
            suits = "".join(sorted({m.tile.suit for m in melds})) if self.variant.two_suit_rule else ""
            if shanten_counts(counts, self.variant, 4 - len(melds), self.void[seat], None,
                              seven_pairs=False, meld_suits=suits) > 0:
                return out
        totals = list(counts)
        for m in melds:
            totals[m.tile] += m.size
        for k in range(30):
            if not counts[k] or not self.play.can_discard(self, seat, k):
                continue
            counts[k] -= 1
            totals[k] -= 1
            try:  # ready means some tile that still exists completes it (no capped shanten needed)
                if waits_counts(counts, totals, self.variant, self.void[seat], closed=not melds):
                    out.append(ALL_TILES[k])
            finally:
                counts[k] += 1
                totals[k] += 1
        return out

    def observation(self, seat: int | None) -> dict:
        """What ``seat`` may see (``None``: a spectator, who sees no concealed tile)."""
        players = []
        for s in range(self.n):
            p = {
                "seat": s,
                "melds": [m.to_json() if (m.kind is not MeldKind.CONCEALED_KONG or s == seat or self.over)
                          else {"kind": "concealed_kong", "tile": None} for m in self.melds[s]],
                "discards": [str(t) for t in self.discards[s]],
                "claimed": list(self.claimed[s]),
                "tiles": sum(self.hands[s]),
                "declared": self.declared_kind[s],
                "won_tiles": [str(t) for t in self.won_tiles[s]],
                "out": self.out[s],
                "void": self.void[s] if (self.phase not in ("exchange", "void") or s == seat) else None,
            }
            if s == seat or self.over:
                p["hand"] = _tiles_str(self.hands[s])
            elif self.declared[s]:
                p["revealed"] = self.play.revealed(self, s)
            players.append(p)
        obs = {
            "variant": self.play.name,
            "rules": self._rules_json(),
            "seat": seat,
            "dealer": self.dealer,
            "phase": self.phase,
            "current": self.current,
            "tiles_left": self.tiles_left,
            "players": players,
            "wins": [w.to_json() for w in self.wins],
            "totals": self.totals(),
            "last_discard": None if self.last_discard is None else
            {"seat": self.last_discard[0], "tile": str(self.last_discard[1])},
        }
        if seat is not None:
            obs["legal"] = [a.to_json() for a in self.legal_actions(seat)]
            if seat == self.current and self.phase == "turn" and self.last_draw is not None \
                    and self.drawn_from_wall:
                obs["drawn"] = str(self.last_draw)
            obs["visible"] = self._visible(seat, players)
        return obs

    def _visible(self, seat: int, players: list[dict]) -> dict[str, int]:
        """Every tile ``seat`` can see, by kind (a view only: nothing here changes the game). Also
        sets each player's ``hidden``: its tiles ``seat`` cannot see. The visible tiles plus the
        wall (``tiles_left``) plus every ``hidden`` count make the whole set (84 / 108 tiles)."""
        seen = [0] * 30
        for s in range(self.n):
            p = players[s]
            hand = self.hands[s]
            hidden = 0
            if s == seat or self.over:
                for k, c in enumerate(hand):
                    seen[k] += c
            else:
                hidden = sum(hand)
                shown = p.get("revealed", {}).get("tiles")
                if shown:  # 亮倒: the declared hand, less any triplets kept hidden
                    for t in parse_tiles(shown):
                        seen[t] += 1
                        hidden -= 1
                if self.out[s] and hidden % 3 == 2:  # 血战: the winning tile went into the hidden hand
                    seen[[w for w in self.wins if w.seat == s][-1].tile] += 1
                    hidden -= 1
            for m in self.melds[s]:
                if m.kind is MeldKind.CONCEALED_KONG and s != seat and not self.over:
                    hidden += m.size
                else:
                    seen[m.tile] += m.size
            for t, claimed in zip(self.discards[s], self.claimed[s]):
                if not claimed:  # a claimed discard is counted where it went: a meld, or a win
                    seen[t] += 1
            for t in self.won_tiles[s]:  # 血流成河: set aside, face up
                seen[t] += 1
            p["hidden"] = hidden
        return {str(k): seen[k] for k in self.variant.kinds}

    def _rules_json(self) -> dict:
        from majiang.games.rules import rules_to_json

        if not hasattr(self, "_rules_cache"):
            self._rules_cache = rules_to_json(self.rules)
        return dict(self._rules_cache)

    def start_record(self) -> dict:
        record = {"type": "start", "format": 1, "rng": RNG_VERSION, "rules": self._rules_json(),
                  "seed": self.seed, "hand_index": self.hand_index, "dealer": self.dealer,
                  "dice": list(self.dice), "wall": [str(ALL_TILES[t]) for t in self.wall]}
        if self.dealer_dice:
            record["dealer_dice"] = list(self.dealer_dice)
        return record

    def settlement(self) -> dict:
        return {"result": self.result, "wins": [w.to_json() for w in self.wins],
                "payments": [p.to_json() for p in self.payments], "totals": self.totals(),
                "next_dealer": self.next_dealer() if self.over else None}


def _tiles_str(counts) -> str:
    from majiang.core.tiles import format_tiles, from_counts

    return format_tiles(from_counts(counts))


__all__ = ["Action", "Game", "Payment", "WinRecord", "VariantPlay", "first_dealer", "shuffled_wall"]

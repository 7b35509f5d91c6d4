"""The rules engine: one deal of either game as a state machine over actions.

The engine is pure: no I/O, no clock. ``Game.legal_actions(seat)`` lists what a seat may do now;
``Game.apply(seat, action)`` checks it (``IllegalActionError`` otherwise, state unchanged) and
advances. Seats that must decide are in ``Game.pending``; on a discard every seat that may claim
decides, and the claims are resolved together by priority (胡 over 杠/碰, ``majiang.engine.claims``).
What differs between the games is asked of the game's hooks (``majiang.games``); the money is
applied by ``majiang.engine.settlement``; what each seat may see is built by ``majiang.engine.views``.

Every deal is fully described by its ``start`` record (rules, seed, dealer, wall) and the list of
actions taken; ``majiang.engine.log`` writes both as JSON lines and rebuilds the game from them.

>>> from majiang.games.rules import rules_for
>>> g = Game(rules_for("kawuxing"), seed=7)
>>> g.phase, g.pending_seats(), len(g.wall_left())
(<Phase.TURN: 'turn'>, [0], 44)
>>> sum(sum(seat.counts) for seat in g.seats)
40
"""

from __future__ import annotations

import functools
from typing import Any

from majiang.core.analysis import (
    closed_shanten_function,
    complete_counts,
    shanten_counts,
    waits,
    waits_counts,
)
from majiang.core.errors import IllegalActionError
from majiang.core.hand import Hand, Meld, MeldKind
from majiang.core.tiles import ALL_TILES, Tile
from majiang.engine import claims, settlement, views
from majiang.engine.seat import Seat
from majiang.engine.views import tiles_text as _tiles_str
from majiang.engine.wall import shuffled_wall
from majiang.games import play_for
from majiang.games.base import (
    Action,
    ActionType,
    Declaration,
    KongRecord,
    Payment,
    Phase,
    Result,
    WinRecord,
    tile_action,
)
from majiang.games.scoring import Score, WinContext


@functools.lru_cache(maxsize=16)
def _closed_shanten(variant, void):
    return closed_shanten_function(variant, void)


def _no_neighbours(counts, tile: int) -> bool:
    if tile >= 27:
        return True
    r = tile % 9
    return not ((r > 0 and counts[tile - 1]) or (r > 1 and counts[tile - 2])
                or (r < 8 and counts[tile + 1]) or (r < 7 and counts[tile + 2]))


_DISCARDS = [tile_action("discard", k) for k in range(30)]


def _as_action(action: Any) -> Action:
    """An action given as an ``Action``, its JSON or its text."""
    if isinstance(action, Action):
        return action
    if isinstance(action, dict):
        return Action.from_json(action)
    if isinstance(action, str):
        return Action.parse(action)
    raise IllegalActionError(f"an action is an Action, its JSON or its text ('discard 5p'), "
                             f"not {type(action).__name__}")


def _copy_seat(st: Seat) -> Seat:
    c = Seat()
    c.counts, c.melds, c.discards, c.claimed = list(st.counts), list(st.melds), list(st.discards), list(st.claimed)
    c.declared_kind, c.declared_waits, c.won_tiles = st.declared_kind, list(st.declared_waits), list(st.won_tiles)
    c.void, c.exchange_choice, c.out = st.void, st.exchange_choice, st.out
    c.passed_win, c.draws = st.passed_win, st.draws
    return c


class Game:
    """One deal (a 局), from the deal to the settlement.

    ``rules`` is a rules object (``rules_for(...)``) or a game's name, then with ``preset`` and
    option overrides: ``Game("sichuan", preset="modern", seed=1)``. The same seed and hand index
    deal the same wall; ``wall``, ``dice`` and ``dealer_dice`` rebuild a logged deal instead.

    >>> g = Game("sichuan", preset="modern", seed=1)
    >>> g
    <Game sichuan/modern seed=1 hand 0: exchange, seats 0, 1, 2, 3 to play, wall 55>
    >>> g.legal_actions(0)[0].type.value, len(g.pending_seats())
    ('exchange', 4)
    >>> print(str(g).splitlines()[0])
    sichuan/modern · hand 0 · wall 55 · seats 0, 1, 2, 3 to play (exchange)
    """

    def __init__(self, rules, seed: Any = 0, hand_index: int = 0, dealer: int = 0,
                 wall: list[int] | None = None, dice: tuple[int, int] | None = None,
                 dealer_dice: tuple[int, int] | None = None, *, preset: str | None = None,
                 **options: Any) -> None:
        if isinstance(rules, str):
            from majiang.games.rules import rules_for

            rules = rules_for(rules, preset, **options)
        elif preset is not None or options:
            raise TypeError("preset and options go with a game's name: Game('sichuan', preset='modern'); "
                            "a rules object already holds them")
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
        self.seats = [Seat() for _ in range(self.n)]
        self.declare_order: list[int] = []  # seats in the order they declared (亮倒 penalties)
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
        self.kong_chain = 0  # >0 while the current turn follows a kong (杠上): the chain's length
        self.discard_chain = 0  # chain in force when the last discard was made (杠上炮)
        self.last_discard: tuple[int, Tile] | None = None
        self.pending_kong: tuple[int, Tile] | None = None  # an added kong awaiting robbers
        self.any_claim = False
        self.phase = Phase.DEAL
        self.result: Result | None = None
        self.caches: dict[str, Any] = {}  # views derived from the state (the RL encoder's), not state
        # Called with "claim" or "rob" where a claim window closes at once because no seat can claim:
        # a server shows every seat that moment too, so a window's existence tells nobody anything.
        self.on_window: Any = None
        self._undo: list[tuple["Game", int, Action]] = []  # push's snapshots, for pop
        self._deal()

    def __repr__(self) -> str:
        waiting = self.pending_seats()
        state = "over" if self.over else \
            f"{self.phase.value}, seat{'s' * (len(waiting) > 1)} {', '.join(map(str, waiting))} to play"
        return (f"<Game {self.play.name}/{self.rules.preset} seed={self.seed!r} hand {self.hand_index}: "
                f"{state}, wall {self.tiles_left}>")

    def __str__(self) -> str:
        """The table in text from the view of the (first) seat to play, seat 0 once the deal is over."""
        waiting = self.pending_seats()
        return self.render(waiting[0] if waiting else 0)

    def render(self, seat: int | None = 0, names: list[str] | None = None) -> str:
        """The table as ``seat`` sees it (``None``: a spectator), as text; ``names`` labels the seats."""
        return views.describe(self, seat, names)

    @property
    def over(self) -> bool:
        """The deal is settled: no seat has anything left to decide."""
        return self.phase == Phase.OVER

    def wall_left(self) -> list[int]:
        """The tiles still in the wall, as kind numbers, in drawing order (the hidden state: never shown to a seat)."""
        return self.wall[self.front:self.back]

    @property
    def tiles_left(self) -> int:
        """How many tiles the wall still holds."""
        return self.back - self.front

    def active(self, seat: int) -> bool:
        """``seat`` is still playing (血战: a seat that won leaves the table)."""
        return not self.seats[seat].out

    def active_seats(self) -> list[int]:
        """The seats still playing, in seat order."""
        return [s for s in range(self.n) if not self.seats[s].out]

    def hand(self, seat: int) -> Hand:
        """``seat``'s hand now: its concealed tiles and melds (the whole truth, not a seat's view)."""
        return Hand(tuple(self.seats[seat].counts), tuple(self.seats[seat].melds))

    def pending_seats(self) -> list[int]:
        """The seats that must decide before the deal moves on (several at a claim, 换三张 or 定缺)."""
        return sorted(s for s in self.pending if s not in self.responses)

    def log_event(self, type_: str, **data) -> None:
        """Append one event to ``events`` (the engine's own record; replaying checks every one)."""
        self.events.append({"type": type_, **data})

    def next_seat(self, seat: int) -> int:
        """The next seat after ``seat`` still playing, counter-clockwise (``seat`` itself if it is the last)."""
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if not self.seats[s].out:
                return s
        return seat

    def _deal(self) -> None:
        for _ in range(13):
            for k in range(self.n):
                seat = (self.dealer + k) % self.n
                self.seats[seat].counts[self.wall[self.front]] += 1
                self.front += 1
        self.seats[self.dealer].counts[self.wall[self.front]] += 1
        self.last_draw = ALL_TILES[self.wall[self.front]]
        self.front += 1
        self.log_event("deal", dealer=self.dealer, dice=list(self.dice),
                    hands=[_tiles_str(seat.counts) for seat in self.seats])
        self.phase = self.play.setup_phase(self)
        if self.phase == Phase.EXCHANGE:
            self.pending = {s: self._exchange_options(s) for s in range(self.n)}
        elif self.phase == Phase.VOID:
            self._start_void()
        else:
            self.begin_turn(self.dealer)

    def _exchange_options(self, seat: int) -> list[Action]:
        """换三张: three tiles of one suit (every combination of held tiles)."""
        import itertools

        opts = []
        h = self.seats[seat].counts
        for suit in "mps":
            start = "mps".index(suit) * 9
            tiles = [ALL_TILES[k] for k in range(start, start + 9) for _ in range(h[k])]
            for combo in sorted(set(itertools.combinations(tiles, 3))):
                opts.append(Action(ActionType.EXCHANGE, tiles=tuple(combo)))
        return opts

    def _finish_exchange(self) -> None:
        # direction by dice: odd sum passes to the next seat (下家), even to the previous,
        # a sum of 6 or 12 across the table
        total = sum(self.dice)
        step = 2 if total in (6, 12) else (1 if total % 2 else self.n - 1)
        chosen = [self.seats[s].exchange_choice or () for s in range(self.n)]
        for s in range(self.n):
            for t in chosen[s]:
                self.seats[s].counts[t] -= 1
        for s in range(self.n):
            for t in chosen[s]:
                self.seats[(s + step) % self.n].counts[t] += 1
        self.log_event("exchanged", step=step)
        self._start_void()

    def _start_void(self) -> None:
        self.phase = Phase.VOID
        self.pending = {}
        self.responses = {}
        for s in range(self.n):
            present = [suit for suit in "mps" if any(self.seats[s].counts[k] for k in range("mps".index(suit) * 9,
                                                                                     "mps".index(suit) * 9 + 9))]
            if len(present) <= 2:  # 天缺: already missing a suit
                missing = [x for x in "mps" if x not in present]
                self.seats[s].void = missing[0]
            else:
                self.pending[s] = [Action(ActionType.VOID, suit=x) for x in "mps"]
        if not self.pending:
            self._finish_void()

    def _finish_void(self) -> None:
        self.log_event("voids", voids=[seat.void for seat in self.seats])
        self.pending = {}
        self.responses = {}
        self.begin_turn(self.dealer)

    def begin_turn(self, seat: int) -> None:
        """Engine step: ``seat``'s turn begins with the tiles it holds (after a draw or a claim)."""
        self.phase = Phase.TURN
        self.current = seat
        self.responses = {}
        self.pending = {seat: self._turn_options(seat)}

    def draw_tile(self, seat: int, replacement: bool = False) -> None:
        """Engine step: ``seat`` draws (from the back after a kong), or the deal ends when the wall is empty."""
        if self.tiles_left == 0:
            settlement.end_draw(self)
            return
        if replacement:
            self.back -= 1
            t = self.wall[self.back]
        else:
            t = self.wall[self.front]
            self.front += 1
            self.kong_chain = 0
        self.seats[seat].counts[t] += 1
        self.last_draw = ALL_TILES[t]
        self.drawn_from_wall = True
        self.last_four_draw = self.tiles_left < 4  # the wall held four or fewer before this draw
        self.seats[seat].passed_win = None  # 漏胡/过水 last until one's own draw
        self.seats[seat].draws += 1
        self.log_event("draw", seat=seat, tile=str(ALL_TILES[t]), replacement=replacement, left=self.tiles_left)
        self.begin_turn(seat)

    def _turn_options(self, seat: int) -> list[Action]:
        h = self.seats[seat].counts
        opts: list[Action] = []
        if self.drawn_from_wall or self._is_first_dealer_turn(seat):
            score = self._score_self_draw(seat)
            if score is not None and self.play.win_allowed(self, seat, score, True):
                opts.append(tile_action("win", self.last_draw))
        last_tile_turn = self.tiles_left == 0 and self.drawn_from_wall
        if self.tiles_left > 0 and not self.seats[seat].declared:
            for k in (range(30) if 4 in h else ()):
                if h[k] == 4 and self.play.can_claim_tile(self, seat, k):
                    opts.append(tile_action("concealed_kong", k))
            for m in self.seats[seat].melds:
                if m.kind is MeldKind.PONG and h[m.tile] and self._added_kong_allowed(seat, m.tile):
                    opts.append(tile_action("added_kong", m.tile))
        elif self.tiles_left > 0 and self.drawn_from_wall and self.last_draw is not None:
            # a frozen (declared) hand may kong the tile it drew if its waits stay the same
            t = self.last_draw
            if h[t] == 4 and self.play.can_claim_tile(self, seat, t):
                after = list(h)
                after[t] -= 4
                kept = Hand(tuple(after), tuple(self.seats[seat].melds) + (Meld.concealed_kong(t),))
                if waits(kept, self.variant, self.seats[seat].void) == self.seats[seat].declared_waits:
                    opts.append(tile_action("concealed_kong", t))
            if any(m.kind is MeldKind.PONG and m.tile == t for m in self.seats[seat].melds) \
                    and self._added_kong_allowed(seat, t):
                opts.append(tile_action("added_kong", t))  # the concealed part is unchanged
        opts.extend(self.play.extra_turn_actions(self, seat))
        discards = self.play.discardable(self, seat)
        if last_tile_turn and self.play.last_draw_discarded and self.last_draw is not None:
            discards = [int(self.last_draw)]  # the last tile drawn must itself be discarded
        if self.seats[seat].declared:
            discards = [int(self.last_draw)] if self.last_draw is not None and h[self.last_draw] else discards
        opts.extend([_DISCARDS[k] for k in discards])
        if any(a.type == "win" for a in opts) and self.fresh_last_four(self.last_draw) \
                and self.play.must_win(self, seat):
            opts = [a for a in opts if a.type == "win"]
        return opts

    def fresh_last_four(self, tile) -> bool:
        """Is ``tile`` the one just drawn this turn, from the wall's last four (最后四张)?"""
        return self.drawn_from_wall and self.last_four_draw and self.last_draw == tile

    def _is_first_dealer_turn(self, seat: int) -> bool:
        return seat == self.dealer and not any(seat.discards for seat in self.seats) and not self.any_claim \
            and not self.kongs

    def _added_kong_at_once(self, tile: Tile) -> bool:
        """Is an added kong of ``tile`` made at the moment its fourth tile is drawn (即时加杠)?"""
        return self.drawn_from_wall and self.last_draw == tile

    def _added_kong_allowed(self, seat: int, tile: Tile) -> bool:
        if not self.play.can_claim_tile(self, seat, tile):
            return False
        if self.play.added_kong_only_at_once():  # 蓄杠 only at the moment the fourth is drawn
            return self._added_kong_at_once(tile)
        return True

    def completes(self, seat: int, counts: list[int], tile: int) -> bool:
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
        melds = self.seats[seat].melds
        totals = counts
        if melds and self.variant.capabilities.two_suits:  # only the two-suit limit looks at meld tiles
            totals = list(counts)
            for m in melds:
                totals[m.tile] += m.size
        return complete_counts(counts, totals, self.variant, self.seats[seat].void, closed=not melds)

    def _score_self_draw(self, seat: int) -> Score | None:
        t = self.last_draw
        if t is None or not self.seats[seat].counts[t]:
            return None
        counts = self.seats[seat].counts
        if not self._is_complete(seat, counts):
            return None
        before = list(counts)
        before[t] -= 1
        hand = Hand(tuple(before), tuple(self.seats[seat].melds))
        ctx = WinContext(
            self_draw=True, kong_chain=self.kong_chain, last_tile=self.tiles_left == 0 and self.drawn_from_wall,
            declared=self.seats[seat].declared, void=self.seats[seat].void,
            heavenly=self._is_first_dealer_turn(seat),
            earthly=self._earthly(seat, self_draw=True),
        )
        return self.play.score(hand, t, ctx)

    def _earthly(self, seat: int, self_draw: bool) -> bool:
        """地胡: a non-dealer's win after its first draw, nothing claimed, konged or won before it:
        a self-draw on that draw, or (``earthly_on_discard``) a win on a discard made before the
        dealer draws again (the first go-around)."""
        if seat == self.dealer or self.seats[seat].draws != 1 or self.any_claim or self.kongs or self.wins:
            return False
        if self_draw:
            return not self.seats[seat].discards and self.drawn_from_wall
        return self.play.earthly_on_discard() and self.seats[self.dealer].draws == 0

    def score_ron(self, seat: int, tile: Tile, robbed: bool = False) -> Score:
        """What ``seat`` wins on another's ``tile`` (a discard, or with ``robbed`` a kong's tile: 抢杠)."""
        ctx = WinContext(self_draw=False, kong_chain=0 if robbed else self.discard_chain, robbed_kong=robbed,
                         last_tile=self.tiles_left == 0 and not robbed, declared=self.seats[seat].declared,
                         earthly=self._earthly(seat, self_draw=False), void=self.seats[seat].void)
        return self.play.score(self.hand(seat), tile, ctx)

    def _declare(self, seat: int, declaration: Declaration) -> None:
        state = self.seats[seat]
        state.declared_kind = declaration.kind
        state.declared_waits = declaration.waits
        self.declare_order.append(seat)
        self.log_event("declare", seat=seat, kind=declaration.kind, waits=declaration.shown)

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (empty when it has nothing to decide or has already answered)."""
        if seat in self.responses:
            return []
        return list(self.pending.get(seat, []))

    def is_legal(self, seat: Any, action: Any) -> bool:  # Any: a compiled Game checks the types itself
        """May ``seat`` play ``action`` now? ``action`` is an ``Action``, its JSON or its text
        (``"discard 5p"``); malformed ones raise ``IllegalActionError`` (a question about a
        well-formed action that is not legal is answered False).

        >>> g = Game("kawuxing", seed=7)
        >>> g.is_legal(0, "discard 5p"), g.is_legal(0, {"type": "discard", "tile": "7p"}), g.is_legal(1, "pass")
        (True, False, False)
        >>> g.is_legal(0, "discard 5x")
        Traceback (most recent call last):
        majiang.IllegalActionError: bad tile in action: unknown character 'x' at position 2 in '5x'
        """
        action = _as_action(action)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n or self.over:
            return False
        return action in self.legal_actions(seat)

    def push(self, seat: int, action: Any) -> None:
        """``apply``, remembering the state before it so that ``pop`` can restore it (undo).

        >>> g = Game("kawuxing", seed=7)
        >>> before = g.to_position()
        >>> g.push(0, g.legal_actions(0)[-1])
        >>> g.pop()[0], g.to_position() == before
        (0, True)
        """
        action = _as_action(action)
        snapshot = self.copy(stack=False)
        self.apply(seat, action)  # refused: nothing changed and nothing is remembered
        self._undo.append((snapshot, seat, action))

    def pop(self) -> tuple[int, Action]:
        """Undo the last ``push``: the state is as it was before it (events and actions included);
        returns the (seat, action) undone. ``IllegalActionError`` when nothing was pushed."""
        if not self._undo:
            raise IllegalActionError("nothing to undo: pop undoes what push applied")
        snapshot, seat, action = self._undo.pop()
        self._take_state(snapshot)  # copied: a copy of this game may hold the same snapshot
        return seat, action

    def copy(self, stack: bool = True) -> "Game":
        """An independent game in the same state (changing one never changes the other); with
        ``stack`` it can ``pop`` what this one pushed. Its ``on_window`` callback is None.

        >>> g = Game("sichuan", seed=3)
        >>> h = g.copy()
        >>> h.apply(0, h.legal_actions(0)[0])
        >>> g.pending_seats(), h.pending_seats()
        ([0, 1, 2, 3], [1, 2, 3])
        """
        # a blank game to fill (dealt from a sorted wall: any game's wall may be a position's part);
        # attributes are set one by one, never through __dict__, so that a compiled Game copies too
        g = Game(self.rules, wall=[int(k) for k in self.variant.kinds for _ in range(4)], dealer=self.dealer)
        g._take_state(self)
        g._undo = list(self._undo) if stack else []
        return g

    def _take_state(self, other: "Game") -> None:
        """Become a copy of ``other``'s state (not its ``on_window``, caches or undo stack)."""
        self.seed, self.hand_index, self.dealer = other.seed, other.hand_index, other.dealer
        self.dealer_dice, self.dice = other.dealer_dice, other.dice
        self.wall, self.front, self.back = list(other.wall), other.front, other.back
        self.seats = [_copy_seat(st) for st in other.seats]
        self.declare_order = list(other.declare_order)
        self.wins = list(other.wins)  # records are not changed once made
        self.first_win_multi = other.first_win_multi
        self.kongs = [KongRecord(k.seat, k.tile, k.kind, list(k.payments), k.chain, k.settled) for k in other.kongs]
        self.payments = list(other.payments)
        self.actions = list(other.actions)
        self.events = list(other.events)
        self.pending = {s: list(acts) for s, acts in other.pending.items()}
        self.responses = dict(other.responses)
        self.current, self.last_draw = other.current, other.last_draw
        self.drawn_from_wall, self.last_four_draw = other.drawn_from_wall, other.last_four_draw
        self.discard_last_four, self.kong_chain, self.discard_chain = (other.discard_last_four, other.kong_chain,
                                                                       other.discard_chain)
        self.last_discard, self.pending_kong, self.any_claim = other.last_discard, other.pending_kong, other.any_claim
        self.phase, self.result = other.phase, other.result
        self.caches = {}

    def to_position(self) -> str:
        """The whole state as one line of text, ``Game.from_position`` reads it back
        (``majiang.engine.notation``). It holds the hidden wall and every concealed tile: a
        full position for programs, never a seat's view."""
        from majiang.engine.notation import dump

        return dump(self)

    @staticmethod
    def from_position(text: Any) -> "Game":  # Any: a compiled Game checks the type itself
        """A game at the state ``to_position`` wrote: the same legal actions and the same future
        under the same actions. ``PositionError`` (a ``MajiangError``) for text that is not one.

        >>> g = Game("sichuan", preset="modern", seed=1)
        >>> h = Game.from_position(g.to_position())
        >>> h.legal_actions(2) == g.legal_actions(2) and h.to_position() == g.to_position()
        True
        """
        from majiang.engine.notation import load

        return load(text, Game)

    def apply(self, seat: int, action: Any) -> None:
        """Apply one seat's action, or raise ``IllegalActionError`` leaving the state unchanged.
        ``action``: an ``Action``, its JSON, or its text (``"discard 5p"``, ``Action.parse``)."""
        if action.__class__ is not Action:
            action = _as_action(action)
        if self.phase == Phase.OVER:
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
        self.log_event("action", seat=seat, action=action.to_json())
        if self.phase == Phase.TURN:
            self._apply_turn(seat, action)
        elif self.phase == Phase.CLAIM:
            self.responses[seat] = action
            if len(self.responses) == len(self.pending):
                claims.resolve_claims(self)
        elif self.phase == Phase.ROB:
            self.responses[seat] = action
            if len(self.responses) == len(self.pending):
                claims.resolve_rob(self)
        elif self.phase == Phase.EXCHANGE:
            self.seats[seat].exchange_choice = action.tiles
            self.responses[seat] = action
            if len(self.responses) == len(self.pending):
                self._finish_exchange()
        elif self.phase == Phase.VOID:
            self.seats[seat].void = action.suit
            self.responses[seat] = action
            if len(self.responses) == len(self.pending):
                self._finish_void()

    def _apply_turn(self, seat: int, action: Action) -> None:
        t = action.tile
        assert t is not None  # every turn action names its tile
        kind = action.type
        if kind == "win":
            score = self._score_self_draw(seat)
            assert score is not None  # offered only when the hand is complete
            self.seats[seat].counts[t] -= 1  # _record_wins puts the winning tile back
            settlement.record_wins(self, [WinRecord(seat, t, True, None, score)])
            return
        if kind in ("discard", "declare", "sing"):
            if kind != "discard":
                self._declare(seat, self.play.declare(self, seat, t, kind))
            self.seats[seat].counts[t] -= 1
            self.seats[seat].discards.append(t)
            self.seats[seat].claimed.append(False)
            self.discard_last_four = self.fresh_last_four(t)
            self.discard_chain = self.kong_chain
            self.kong_chain = 0
            self.drawn_from_wall = False
            self.last_discard = (seat, t)
            self.log_event("discard", seat=seat, tile=str(t))
            claims.open_claims(self, seat, t)
            return
        if kind == "concealed_kong":
            self.seats[seat].counts[t] -= 4
            self.seats[seat].melds.append(Meld.concealed_kong(t))
            self.complete_kong(seat, t, "concealed_kong", None)
            return
        if kind == "added_kong":
            robbers = claims.robbers(self, seat, t)
            if robbers:
                self.pending_kong = (seat, t)
                self.phase = Phase.ROB
                self.responses = {}
                self.pending = robbers
                return
            if self.on_window is not None:
                self.on_window("rob")
            self.finish_added_kong(seat, t)
            return
        raise IllegalActionError(f"unexpected action {action}")  # pragma: no cover

    def finish_added_kong(self, seat: int, t: Tile) -> None:
        """Engine step: an added kong (蓄杠) that nobody robbed becomes a kong."""
        self.seats[seat].counts[t] -= 1
        i = next(i for i, m in enumerate(self.seats[seat].melds) if m.kind is MeldKind.PONG and m.tile == t)
        self.seats[seat].melds[i] = Meld.kong(t, added=True)
        self.complete_kong(seat, t, "added_kong", None)

    def complete_kong(self, seat: int, t: Tile, kind: str, discarder: int | None) -> None:
        """Engine step: a kong is made: its money is paid and ``seat`` draws a replacement."""
        if kind == "kong":  # on a discard: another's kong goes on only where the game says so (卡五星)
            chain = self.discard_chain + 1 if self.play.kong_chain_spans_players() else 1
        else:
            chain = self.kong_chain + 1
        at_once = kind != "added_kong" or self._added_kong_at_once(t)
        payments = self.play.kong_payments(self, seat, kind, discarder, chain, at_once)
        record = KongRecord(seat, t, kind, payments, chain)
        self.kongs.append(record)
        settlement.pay(self, payments)
        self.log_event("kong", seat=seat, tile=str(t), kind=kind, chain=chain)
        self.kong_chain = chain
        self.draw_tile(seat, replacement=True)

    def order_from(self, seat: int) -> list[int]:
        """The other seats in playing order after ``seat`` (claim priority among equals)."""
        return [(seat + k) % self.n for k in range(1, self.n)]

    def after_discard(self, discarder: int) -> None:
        """Engine step: a discard nobody claimed: the next seat draws, or the deal ends on an empty wall."""
        self.pending = {}
        self.responses = {}
        if self.tiles_left == 0:
            settlement.end_draw(self)
            return
        self.draw_tile(self.next_seat(discarder))

    def totals(self) -> list[int]:
        """Each seat's money from this deal so far."""
        return settlement.totals(self)

    def observation(self, seat: int | None) -> dict:
        """What ``seat`` may see (``None``: a spectator); see ``majiang.engine.views``."""
        return views.observation(self, seat)

    def start_record(self) -> dict:
        """The ``start`` record of a log: rules, seed, dealer, dice and the whole wall (``majiang.engine.log``)."""
        return views.start_record(self)

    def settlement(self) -> dict:
        """The result as JSON: result, wins, payments, totals and the next dealer once the deal is over."""
        return views.settlement(self)

    def next_dealer(self) -> int:
        """Who deals the next hand of a match, by the game's dealer rule."""
        return self.play.next_dealer(self)

    def tile_count(self) -> int:
        """Every tile is somewhere: wall, hands, melds, discards not claimed, and wins."""
        n = self.tiles_left + sum(sum(seat.counts) for seat in self.seats)
        n += sum(m.size for seat in self.seats for m in seat.melds)
        n += sum(1 for s in range(self.n) for c in self.seats[s].claimed if not c)
        n += sum(len(seat.won_tiles) for seat in self.seats)
        return n

    def ready_discards(self, seat: int) -> list[Tile]:
        """Tiles whose discard leaves the hand ready (for 亮倒 and 唱歌/跳舞)."""
        counts = self.seats[seat].counts
        out: list[Tile] = []
        melds = self.seats[seat].melds
        # a 3n+2 hand's shanten is that of its best discard; the uncapped tables give a lower
        # bound that is cheap even with melds, so most turns stop here
        if not melds:
            if _closed_shanten(self.variant, self.seats[seat].void)(counts) > 0:
                return out
        else:
            suits = "".join(sorted({m.tile.suit for m in melds})) if self.variant.capabilities.two_suits else ""
            if shanten_counts(counts, self.variant, 4 - len(melds), self.seats[seat].void, None,
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
                if waits_counts(counts, totals, self.variant, self.seats[seat].void, closed=not melds):
                    out.append(ALL_TILES[k])
            finally:
                counts[k] += 1
                totals[k] += 1
        return out

"""A deal's whole state as one line of text, and back: what FEN is to chess, for this library.

``dump(game)`` writes every part of the state the rules read from then on: the rules, the whole
wall in drawing order with where the next draw and the next kong replacement come from, every
seat's concealed tiles, melds, discards, declaration, 定缺 and draws, the wins, kongs and
payments so far, and who must decide what. ``Game.from_position(text)`` builds a game standing at exactly
that state: the same legal actions, and the same future under the same actions.

**It is a full position, not a seat's view**: it holds the hidden wall and every seat's concealed
tiles. It is for saving, restoring, testing and search inside a program; never show it to a
player (a seat's view is ``Game.observation(seat)``).

What it leaves out is history: the ``actions`` and ``events`` logged before the position (a game
loaded from it logs from there on) and the derived ``caches``. It is versioned
(``majiang-position/1``) and its body is compact JSON, tiles written in mpsz.

>>> from majiang.engine import Game
>>> g = Game("kawuxing", seed=7)
>>> text = dump(g)
>>> text.startswith("majiang-position/1 {")
True
>>> h = Game.from_position(text)
>>> h.legal_actions(0) == g.legal_actions(0) and dump(h) == text
True
>>> Game.from_position("majiang-position/1 {")
Traceback (most recent call last):
majiang.PositionError: a position's body is JSON: Expecting property name enclosed in double quotes at column 2
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from majiang.core.errors import MajiangError
from majiang.core.hand import Meld
from majiang.core.tiles import ALL_TILES, Tile, parse_tiles
from majiang.engine.seat import Seat
from majiang.games.base import Action, KongRecord, Payment, Phase, Result, WinRecord
from majiang.games.scoring import Fan, Score

if TYPE_CHECKING:
    from majiang.engine.game import Game

HEADER = "majiang-position/1"


class PositionError(MajiangError):
    """A position's text that is malformed or describes no possible state of a deal.

    >>> from majiang import Game, PositionError
    >>> try:
    ...     Game.from_position("chess rnbqkbnr/pppppppp")
    ... except PositionError as exc:
    ...     print(exc)
    a position starts with 'majiang-position/1', got 'chess rnbqkbnr/pppppppp'
    """


PositionError.__module__ = "majiang"


def _tiles(tiles) -> str:
    """Tiles in order, in mpsz with each run of one suit sharing its letter (``123p4s``)."""
    out, run, suit = [], "", ""
    for t in tiles:
        text = str(ALL_TILES[int(t)])
        if text[1] != suit and run:
            out.append(run + suit)
            run = ""
        run, suit = run + text[0], text[1]
    if run:
        out.append(run + suit)
    return "".join(out)


def _score_json(s: Score) -> list:
    return [s.win, s.variant, [[f.name, f.english, f.value, f.count] for f in s.fans], s.fan, s.multiplier,
            s.uncapped, s.concealed_triplets]


def _payments_json(payments: list[Payment]) -> list:
    return [[p.payer, p.payee, p.amount, p.reason, p.detail] for p in payments]


def dump(game: "Game") -> str:
    """``game``'s whole state as one line (see the module's note: it holds the hidden wall)."""
    seats = []
    for st in game.seats:
        seats.append({
            "hand": _tiles(k for k in range(30) for _ in range(st.counts[k])),
            "melds": [m.to_json() for m in st.melds],
            "discards": _tiles(st.discards), "claimed": "".join("1" if c else "0" for c in st.claimed),
            "declared": st.declared_kind, "waits": _tiles(st.declared_waits), "won": _tiles(st.won_tiles),
            "void": st.void, "exchange": None if st.exchange_choice is None else _tiles(st.exchange_choice),
            "out": st.out, "passed_win": st.passed_win, "draws": st.draws})
    body = {
        "rules": _rules_json(game), "seed": game.seed, "hand_index": game.hand_index, "dealer": game.dealer,
        "dice": list(game.dice), "dealer_dice": list(game.dealer_dice) if game.dealer_dice else None,
        "wall": _tiles(game.wall), "front": game.front, "back": game.back,
        "phase": str(game.phase), "current": game.current, "seats": seats,
        "pending": [[s, [str(a) for a in acts]] for s, acts in game.pending.items()],
        "responses": [[s, str(a)] for s, a in game.responses.items()],
        "last_draw": None if game.last_draw is None else str(game.last_draw),
        "last_discard": None if game.last_discard is None else [game.last_discard[0], str(game.last_discard[1])],
        "pending_kong": None if game.pending_kong is None else [game.pending_kong[0], str(game.pending_kong[1])],
        "flags": [game.drawn_from_wall, game.last_four_draw, game.discard_last_four, game.any_claim,
                  game.first_win_multi],
        "chains": [game.kong_chain, game.discard_chain],
        "declare_order": list(game.declare_order),
        "wins": [[w.seat, str(w.tile), w.self_draw, w.discarder, w.robbed_kong, _score_json(w.score)]
                 for w in game.wins],
        "kongs": [[k.seat, str(k.tile), k.kind, _payments_json(k.payments), k.chain, k.settled] for k in game.kongs],
        "payments": _payments_json(game.payments),
        "result": None if game.result is None else str(game.result),
    }
    try:
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        raise PositionError(f"the game's seed {game.seed!r} cannot be written as JSON") from None
    return f"{HEADER} {text}"


def _rules_json(game: "Game") -> dict:
    """The rules as their game, preset and the options that differ from the preset's."""
    from majiang.games.rules import rules_for, rules_to_json

    full = rules_to_json(game.rules)
    try:
        base = rules_to_json(rules_for(full["variant"], full.get("preset")))
    except MajiangError:  # not a preset's name: every option written out
        return full
    return {k: v for k, v in full.items() if k in ("variant", "preset") or base.get(k, v) != v or k not in base}


# -- reading -------------------------------------------------------------------------------------


class _Reader:
    """Field readers that name what is wrong (every failure is a ``PositionError``)."""

    def __init__(self, body: Any) -> None:
        if not isinstance(body, dict):
            raise PositionError("a position's body is a JSON object")
        self.body = body

    def get(self, key: str, where: dict | None = None) -> Any:
        src = self.body if where is None else where
        if key not in src:
            raise PositionError(f"the position has no {key!r}")
        return src[key]

    @staticmethod
    def whole(value: Any, what: str, low: int, high: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise PositionError(f"{what} must be a whole number {low}-{high}, got {value!r}")
        return value

    @staticmethod
    def flag(value: Any, what: str) -> bool:
        if not isinstance(value, bool):
            raise PositionError(f"{what} must be true or false, got {value!r}")
        return value

    @staticmethod
    def tiles(value: Any, what: str) -> list[Tile]:
        if not isinstance(value, str):
            raise PositionError(f"{what} must be tiles in mpsz text, got {value!r}")
        try:
            return parse_tiles(value)
        except MajiangError as exc:
            raise PositionError(f"{what}: {exc}") from None

    @classmethod
    def tile(cls, value: Any, what: str) -> Tile:
        tiles = cls.tiles(value, what)
        if len(tiles) != 1:
            raise PositionError(f"{what} must be one tile, got {value!r}")
        return tiles[0]

    @staticmethod
    def seq(value: Any, what: str, size: int | None = None) -> list:
        if not isinstance(value, list) or (size is not None and len(value) != size):
            raise PositionError(f"{what} must be a list{'' if size is None else f' of {size}'}, got {value!r}"[:200])
        return value

    @staticmethod
    def action(value: Any, what: str) -> Action:
        try:
            return Action.parse(value)
        except MajiangError as exc:
            raise PositionError(f"{what}: {exc}") from None

    @classmethod
    def payments(cls, value: Any, what: str, n: int) -> list[Payment]:
        out = []
        for p in cls.seq(value, what):
            payer, payee, amount, reason, detail = cls.seq(p, f"a payment in {what}", 5)
            if not isinstance(amount, int) or isinstance(amount, bool) or not isinstance(reason, str) \
                    or not isinstance(detail, str):
                raise PositionError(f"a payment in {what} is [payer, payee, amount, reason, detail], got {p!r}")
            out.append(Payment(cls.whole(payer, "a payer", 0, n - 1), cls.whole(payee, "a payee", 0, n - 1), amount,
                               reason, detail))
        return out

    @classmethod
    def score(cls, value: Any, what: str) -> Score:
        win, variant, fans, fan, multiplier, uncapped, triplets = cls.seq(value, what, 7)
        if not isinstance(variant, str):
            raise PositionError(f"{what}: the variant is a name, got {variant!r}")
        out = []
        for f in cls.seq(fans, f"{what}'s fans"):
            name, english, v, count = cls.seq(f, f"a fan of {what}", 4)
            if not isinstance(name, str) or not isinstance(english, str):
                raise PositionError(f"a fan of {what} is [name, english, value, count], got {f!r}")
            out.append(Fan(name, english, cls.whole(v, "a fan's value", -(10 ** 9), 10 ** 9),
                           cls.whole(count, "a fan's count", 0, 100)))
        big = 10 ** 9
        return Score(cls.flag(win, f"{what}'s win"), variant, tuple(out), cls.whole(fan, "a score's fan", 0, big),
                     cls.whole(multiplier, "a score's multiplier", 0, big),
                     cls.whole(uncapped, "a score's uncapped", 0, big),
                     cls.whole(triplets, "a score's concealed triplets", 0, 8))


def load(text: str, game_type: "type[Game]") -> "Game":
    """A ``game_type`` (``Game``) at the state ``dump`` wrote; ``PositionError`` for text that is
    not one. ``Game.from_position(text)`` calls it."""
    if not isinstance(text, str):
        raise PositionError(f"a position is text, not {type(text).__name__}")
    head, _, rest = text.strip().partition(" ")
    if head != HEADER:
        shown = text if len(text) <= 24 else text[:20] + "…"
        raise PositionError(f"a position starts with {HEADER!r}, got {shown!r}")
    try:
        body = json.loads(rest)
    except json.JSONDecodeError as exc:
        raise PositionError(f"a position's body is JSON: {exc.msg} at column {exc.colno}") from None
    try:
        return _build(_Reader(body), game_type)
    except PositionError:
        raise
    except (MajiangError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        # a field of the right shape that the rules refuse (an unknown option, a meld of no tile)
        raise PositionError(f"not a possible position: {exc}") from None


def _build(r: _Reader, game_type: "type[Game]") -> "Game":
    from majiang.games.rules import rules_from_json

    rules_json = r.get("rules")
    if not isinstance(rules_json, dict) or not isinstance(rules_json.get("variant"), str):
        raise PositionError("the position's rules are an object naming its 'variant'")
    rules = rules_from_json(rules_json)  # a RulesError names the option at fault
    seed = r.get("seed")
    wall = [int(t) for t in r.tiles(r.get("wall"), "the wall")]
    d1, d2 = (r.whole(d, "a die", 1, 6) for d in r.seq(r.get("dice"), "the dice", 2))
    dd = r.get("dealer_dice")
    dealer_dice = None
    if dd is not None:
        e1, e2 = (r.whole(d, "a die", 1, 6) for d in r.seq(dd, "the dealer's dice", 2))
        dealer_dice = (e1, e2)
    from majiang.games import play_for

    full = [int(k) for k in play_for(rules).variant.kinds for _ in range(4)]
    g = game_type(rules, hand_index=r.whole(r.get("hand_index"), "the hand index", 0, 10 ** 6),
             dealer=r.whole(r.get("dealer"), "the dealer", 0, 3), wall=full, dice=(d1, d2), dealer_dice=dealer_dice)
    # a dealt game's wall is whole; one set to a position (engine.position) holds only what is left
    if len(wall) > len(full):
        raise PositionError(f"the wall holds {len(wall)} tiles, more than the {len(full)} of the game")
    g.wall = wall
    g.seed = seed  # any JSON value a log could hold
    n = g.n
    g.front = r.whole(r.get("front"), "the wall's front", 0, len(wall))
    g.back = r.whole(r.get("back"), "the wall's back", g.front, len(wall))
    seats = r.seq(r.get("seats"), "the seats", n)
    g.seats = [_seat(r, s, i, g) for i, s in enumerate(seats)]
    try:
        g.phase = Phase(r.get("phase"))
    except ValueError:
        raise PositionError(f"unknown phase {r.get('phase')!r} (one of {', '.join(p.value for p in Phase)})") from None
    g.current = r.whole(r.get("current"), "the current seat", 0, n - 1)
    g.pending = {}
    for entry in r.seq(r.get("pending"), "pending"):
        s, acts = r.seq(entry, "a pending entry", 2)
        g.pending[r.whole(s, "a pending seat", 0, n - 1)] = [r.action(a, f"seat {s}'s legal actions")
                                                            for a in r.seq(acts, "legal actions")]
    g.responses = {}
    for entry in r.seq(r.get("responses"), "responses"):
        s, a = r.seq(entry, "a response", 2)
        s = r.whole(s, "a responding seat", 0, n - 1)
        if s not in g.pending:
            raise PositionError(f"seat {s} answered but had nothing to decide")
        g.responses[s] = r.action(a, f"seat {s}'s answer")
    ld = r.get("last_draw")
    g.last_draw = None if ld is None else r.tile(ld, "the last draw")
    g.last_discard = _seat_tile(r, r.get("last_discard"), "the last discard", n)
    g.pending_kong = _seat_tile(r, r.get("pending_kong"), "the pending kong", n)
    flags = [r.flag(f, "a flag") for f in r.seq(r.get("flags"), "the flags", 5)]
    g.drawn_from_wall, g.last_four_draw, g.discard_last_four, g.any_claim, g.first_win_multi = flags
    g.kong_chain, g.discard_chain = (r.whole(c, "a kong chain", 0, 16) for c in r.seq(r.get("chains"), "the chains", 2))
    g.declare_order = [r.whole(s, "a declaring seat", 0, n - 1)
                       for s in r.seq(r.get("declare_order"), "the declare order")]
    g.wins = []
    for w in r.seq(r.get("wins"), "the wins"):
        seat, tile, self_draw, discarder, robbed, score = r.seq(w, "a win", 6)
        g.wins.append(WinRecord(r.whole(seat, "a winner", 0, n - 1), r.tile(tile, "a winning tile"),
                                r.flag(self_draw, "a win's self-draw"),
                                None if discarder is None else r.whole(discarder, "a discarder", 0, n - 1),
                                r.score(score, "a win's score"), r.flag(robbed, "a win's robbed kong")))
    g.kongs = []
    for k in r.seq(r.get("kongs"), "the kongs"):
        seat, tile, kind, pays, chain, settled = r.seq(k, "a kong", 6)
        if kind not in ("kong", "concealed_kong", "added_kong"):
            raise PositionError(f"a kong's kind is kong, concealed_kong or added_kong, got {kind!r}")
        g.kongs.append(KongRecord(r.whole(seat, "a kong's seat", 0, n - 1), r.tile(tile, "a kong's tile"), kind,
                                  r.payments(pays, "a kong's payments", n), r.whole(chain, "a kong's chain", 0, 16),
                                  r.flag(settled, "a kong's settled")))
    g.payments = r.payments(r.get("payments"), "the payments", n)
    result = r.get("result")
    try:
        g.result = None if result is None else Result(result)
    except ValueError:
        raise PositionError(f"unknown result {result!r} (win or draw)") from None
    g.actions, g.events, g.caches = [], [], {}
    _check(g)
    return g


def _seat_tile(r: _Reader, value: Any, what: str, n: int) -> tuple[int, Tile] | None:
    if value is None:
        return None
    s, t = r.seq(value, what, 2)
    return r.whole(s, f"{what}'s seat", 0, n - 1), r.tile(t, f"{what}'s tile")


def _seat(r: _Reader, d: Any, i: int, g: "Game") -> Seat:
    if not isinstance(d, dict):
        raise PositionError(f"seat {i} is an object, got {d!r}"[:200])
    what = f"seat {i}"
    st = Seat()
    for t in r.tiles(r.get("hand", d), f"{what}'s hand"):
        st.counts[t] += 1
    melds = []
    for m in r.seq(r.get("melds", d), f"{what}'s melds"):
        if not isinstance(m, dict):
            raise PositionError(f"a meld of {what} is an object, got {m!r}")
        try:
            melds.append(Meld.from_json(m))
        except (MajiangError, KeyError, ValueError, TypeError) as exc:
            raise PositionError(f"a meld of {what}: {exc!s} in {m!r}") from None
    st.melds = melds
    st.discards = r.tiles(r.get("discards", d), f"{what}'s discards")
    claimed = r.get("claimed", d)
    if not isinstance(claimed, str) or len(claimed) != len(st.discards) or set(claimed) - {"0", "1"}:
        raise PositionError(f"{what}'s claimed is a 0/1 per discard, got {claimed!r}")
    st.claimed = [c == "1" for c in claimed]
    kind = r.get("declared", d)
    if kind not in (None, "liangdao", "sing", "dance"):
        raise PositionError(f"{what}'s declaration is liangdao, sing or dance, got {kind!r}")
    st.declared_kind = kind
    st.declared_waits = r.tiles(r.get("waits", d), f"{what}'s waits")
    st.won_tiles = r.tiles(r.get("won", d), f"{what}'s won tiles")
    void = r.get("void", d)
    if void not in (None, "m", "p", "s"):
        raise PositionError(f"{what}'s void is m, p or s, got {void!r}")
    st.void = void
    ex = r.get("exchange", d)
    st.exchange_choice = None if ex is None else tuple(r.tiles(ex, f"{what}'s exchange"))
    st.out = r.flag(r.get("out", d), f"{what}'s out")
    pw = r.get("passed_win", d)
    st.passed_win = None if pw is None else r.whole(pw, f"{what}'s passed win", 0, 10 ** 9)
    st.draws = r.whole(r.get("draws", d), f"{what}'s draws", 0, 200)
    return st


def _check(g: "Game") -> None:
    """No kind more than four times, none outside the variant, where the engine keeps tiles (``Game.tile_count``)."""
    kinds = {int(k) for k in g.variant.kinds}
    where = [0] * 30
    for t in g.wall[g.front:g.back]:
        where[t] += 1
    for st in g.seats:
        for k in range(30):
            where[k] += st.counts[k]
        for m in st.melds:
            where[m.tile] += m.size
        for t, c in zip(st.discards, st.claimed):
            where[t] += not c
        for t in st.won_tiles:
            where[t] += 1
    for k in range(30):
        if where[k] > 4 or (k not in kinds and where[k]):
            raise PositionError(f"{where[k]} copies of {ALL_TILES[k]} in a {g.variant.name} position")

"""What crosses the Python–Rust boundary, defined once: the action indices, the observation
layout, the order of the rules options in the integer array the library reads, the codes of
phases, results, opponents and return values, and an ABI version derived from all of them.

The crate's ``native/src/spec.rs`` is generated from this module (``python -m majiang.native
spec``); ``tests/test_native_crate.py`` fails when it is stale, and the library refuses to load
when its ABI version is not this one. Every constant below is a plain literal, defined once, in
the order it is written to Rust; its Rust type follows from its name (``RUST_TYPES``).

>>> N_ACTIONS, OBS_SIZE, SLOT
(160, 4593, 1121)
>>> from majiang.engine import Action
>>> action_index(Action("pong")), action_index(Action("void", suit="p"))
(151, 155)
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from majiang.engine import Action, Game

N_KINDS = 30  # tile kinds: 0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-29 白发中
MAX_WALL_LEN = 136

# -- actions: one index space for both games (Discrete(160))
N_ACTIONS = 160
ACTION_DISCARD = 0  # + kind
ACTION_DECLARE = 30  # + kind: discard it and declare (Kawuxing 亮倒, Sichuan 跳舞)
ACTION_SING = 60  # + kind: discard it and 唱歌 (Sichuan)
ACTION_CONCEALED_KONG = 90  # + kind
ACTION_ADDED_KONG = 120  # + kind
ACTION_WIN = 150
ACTION_PONG = 151
ACTION_KONG = 152
ACTION_PASS = 153
ACTION_VOID = 154  # + suit (m, p, s)
ACTION_EXCHANGE = 157  # + suit: 换三张, the suit's three least connected tiles

# -- phases, results and declarations as codes
PHASE_EXCHANGE = 0
PHASE_VOID = 1
PHASE_TURN = 2
PHASE_CLAIM = 3
PHASE_ROB = 4
PHASE_OVER = 5
N_PHASES = 6
RESULT_NONE = 0
RESULT_WIN = 1
RESULT_DRAW = 2
DECLARED_NONE = 0
DECLARED_LIANGDAO = 1
DECLARED_SING = 2
DECLARED_DANCE = 3

# -- the observation vector (float32): own tiles, four seat slots, then the table-wide values
SLOT = 1121  # one seat's public slot
OBS_SIZE = 4593
OBS_HAND = 0  # + kind: own concealed counts
OBS_DRAWN = 30  # + kind: the tile just drawn
OBS_SLOTS = 60  # + relative seat × SLOT
OBS_TAIL = 4544
OBS_TILES_LEFT = 4544
OBS_PHASE = 4545  # + phase code
OBS_LAST_DISCARD = 4551  # + kind
OBS_LAST_DISCARDER = 4581  # + relative seat
OBS_DEALER = 4585  # + relative seat
OBS_MONEY = 4589  # + relative seat: this deal's money so far
OBS_TILES_LEFT_SCALE = 108.0
OBS_HELD_SCALE = 14.0
OBS_MONEY_SCALE = 32.0
SLOT_PONGS = 0  # + kind
SLOT_KONGS = 30  # + kind
SLOT_CONCEALED_KONGS = 60  # + kind (another seat's show only as SLOT_HIDDEN_KONGS)
SLOT_DISCARD_COUNTS = 90  # + kind
SLOT_DISCARD_ORDER = 120  # + i × 30 + kind: the i-th discard, one-hot
SLOT_DISCARD_ORDER_LEN = 32
SLOT_WAITS = 1080  # + kind: revealed waits
SLOT_HIDDEN_KONGS = 1110
SLOT_DECLARED = 1111  # + declaration code - 1
SLOT_OUT = 1114
SLOT_VOID = 1115  # + suit
SLOT_SET_ASIDE = 1118
SLOT_HELD = 1119
SLOT_PRESENT = 1120

# -- the compact observation (uint8): the same indices, every value the same whole number, but
# the three scaled values unscaled (SLOT_HELD: tiles held; OBS_TILES_LEFT: tiles left) and the
# money, which a byte cannot hold, as little-endian int32 per relative seat after OBS_SIZE (the
# OBS_MONEY bytes are 0). majiang.rl.encoder.expand gives the float32 vector back exactly.
OBS_COMPACT_SIZE = 4609
OBS_COMPACT_MONEY = 4593  # + 4 × relative seat: int32 money so far
OBS_KIND_FLOAT32 = 0  # which observation an entry point writes
OBS_KIND_COMPACT = 1

# -- the rules as the library reads them: config[OPT_…] (``majiang.native.config_of``)
CONFIG_LEN = 33
OPT_VARIANT = 0
OPT_BASE = 1
OPT_DIRECT_KONG_PAY = 2
OPT_SUITS = 3
OPT_LIANGDAO_DRAW_PENALTY = 4
OPT_SIGUI = 5
OPT_CAP = 6
OPT_MIN_RON_MULTIPLIER = 7
OPT_SHOUZHUAYI = 8
OPT_KAWUXING_HAIDI = 9
OPT_LOUHU_UNLESS_MORE = 10
OPT_PIAO = 11
OPT_MAIMA = 12
OPT_SHUKAN = 13
OPT_EXCHANGE_THREE = 14
OPT_BLOOD_BATTLE = 15
OPT_BLOOD_RIVER = 16
OPT_KONG_MONEY = 17
OPT_CAP_FAN = 18
OPT_GANGSHANGHUA_FAN = 19
OPT_CALL_TRANSFER = 20
OPT_HEAVENLY_EARTHLY = 21
OPT_SELF_DRAW_BONUS = 22
OPT_SICHUAN_HAIDI = 23
OPT_FLOWER_PIG_PENALTY = 24
OPT_PASS_WIN_UNLESS_MORE = 25
OPT_LAST_FOUR_MUST_WIN = 26
OPT_SING_DANCE = 27
OPT_LATE_ADDED_KONG = 28
OPT_GANGSHANGPAO_CHAIN = 29
OPT_EARTHLY_FIRST_ROUND = 30
OPT_GANGSHANG_CHAIN = 31
OPT_ROBBED_KONG_FAN = 32
VARIANT_KAWUXING = 0
VARIANT_SICHUAN = 1
LIANGDAO_DRAW_PENALTY_COUNT = 0
LIANGDAO_DRAW_PENALTY_FIRST = 1
LIANGDAO_DRAW_PENALTY_FIRST_PAYS = 2
SIGUI_HALF = 0
SIGUI_FULL = 1
SIGUI_WINNING = 2
KAWUXING_HAIDI_SELF_DRAW = 0
KAWUXING_HAIDI_BOTH = 1
KAWUXING_HAIDI_NONE = 2
CAP_FAN_NONE = -1
SELF_DRAW_BONUS_NONE = 0
SELF_DRAW_BONUS_BASE = 1
SELF_DRAW_BONUS_FAN = 2
LATE_ADDED_KONG_NONE = 0
LATE_ADDED_KONG_COLLECT = 1
LATE_ADDED_KONG_FORBID = 2
OPPONENTS_RANDOM = 0
OPPONENTS_GREEDY = 1

# -- the shanten tables handed over at first use
SUIT_TABLE_LEN = 1953125
HONOUR_TABLE_LEN = 125
TABLE_ROW_LEN = 10

# -- return codes of the entry points
RET_OK = 0
RET_REFUSED = 1
RET_OVER = -1
RET_ERROR = -2
RET_ILLEGAL = -3
RET_NO_TABLES = -3
RET_POINTS_MOVED = 16
RET_ALL_APPLIED = -1

# -- mj_summary: phase, result, next dealer, wins, payments, tiles left, totals (n), then per win
SUMMARY_PHASE = 0
SUMMARY_RESULT = 1
SUMMARY_NEXT_DEALER = 2
SUMMARY_WINS = 3
SUMMARY_PAYMENTS = 4
SUMMARY_TILES_LEFT = 5
SUMMARY_TOTALS = 6
SUMMARY_WIN_LEN = 6
SUMMARY_WIN_SEAT = 0
SUMMARY_WIN_TILE = 1
SUMMARY_WIN_SELF_DRAW = 2
SUMMARY_WIN_DISCARDER = 3
SUMMARY_WIN_ROBBED = 4
SUMMARY_WIN_MULTIPLIER = 5
NO_DISCARDER = -1

# -- mj_rollouts: a position (one seat's determinized view of a deal in play), as integers
POS_MODE = 0  # POS_MODE_TURN: POS_ACTOR decides its turn (POS_TILE: the tile it drew, or -1);
POS_MODE_TURN = 0  # POS_MODE_CLAIM: POS_ACTOR has just discarded POS_TILE and the claims open
POS_MODE_CLAIM = 1
POS_ACTOR = 1
POS_TILE = 2
POS_DEALER = 3
POS_WALL_LEN = 4  # the wall left, draws from its front and kong replacements from its back
POS_SEATS = 5  # + seat × POS_SEAT_LEN
POS_SEAT_LEN = 44
POS_COUNTS = 0  # + kind: concealed tiles
POS_VOID = 30  # the void suit or -1
POS_OUT = 31
POS_DECLARED = 32  # DECLARED_* code
POS_WAITS = 33  # declared waits, a bit per kind
POS_MELDS = 34  # how many, then (kind, tile) from POS_MELD
POS_MELD = 35  # + 2 × i: kind (POS_MELD_PONG, POS_MELD_KONG, POS_MELD_CONCEALED) and tile
POS_MELD_PONG = 0
POS_MELD_KONG = 1
POS_MELD_CONCEALED = 2
POS_WALL = 181  # POS_SEATS + 4 × POS_SEAT_LEN: + i, the wall's tiles in draw order
POS_LEN = 317  # POS_WALL + MAX_WALL_LEN
ROLLOUT_GREEDY = 0  # mj_rollouts' policy: GreedyAgent at every seat
ROLLOUT_CAREFUL = 1  # CarefulAgent (majiang.bots.greedy) at every seat

# -- mj_outlook (majiang.bots.outlook): one seat's hand, as integers ...
OUTLOOK_COUNTS = 0  # + kind: concealed tiles, the drawn one included
OUTLOOK_UNSEEN = 30  # + kind: copies this seat cannot see
OUTLOOK_VOID = 60  # the void suit or -1
OUTLOOK_MELDS = 61  # how many, then (kind, tile) from OUTLOOK_MELD (kinds as POS_MELD_*)
OUTLOOK_MELD = 62
OUTLOOK_CANDIDATES = 70  # the discards to value, a bit per kind
OUTLOOK_SAMPLES = 71  # orders of draws sampled
OUTLOOK_KEY = 72  # random.Random(key) shuffles them
OUTLOOK_PLANS = 73  # the plans to value, a bit per OUTLOOK_PLAN_* (the hand as it is always)
OUTLOOK_WAITING = 74  # 1: the hand waits for a draw (no discard): its value at kind 0
OUTLOOK_IN_LEN = 75
# ... the model of the other seats (majiang.bots.outlook.Model), as floats ...
OUTLOOK_MAX_ROUNDS = 63
OUTLOOK_ROUNDS = 0
OUTLOOK_PAYERS = 1
OUTLOOK_END_UNREADY = 2
OUTLOOK_END_READY = 3
OUTLOOK_END_READY_VALUE = 4
OUTLOOK_END_DECLARED = 5
OUTLOOK_DECLARE = 6
OUTLOOK_HAZARD = 8  # + t (0 … OUTLOOK_MAX_ROUNDS), and so on for each per-round array
OUTLOOK_COST = 72
OUTLOOK_DECLARED_COST = 136
OUTLOOK_FEED_HIDDEN = 200
OUTLOOK_FEED_DECLARED = 264
OUTLOOK_SHARES_DECLARED = 328
OUTLOOK_MODEL_LEN = 392
# ... and per kind, what it returns: a value (float) and a plan + OUTLOOK_DECLARES × declare
OUTLOOK_PLAN_ALL = 0
OUTLOOK_PLAN_FLUSH = 1  # + suit
OUTLOOK_PLAN_PAIRS = 4
OUTLOOK_DECLARES = 8

# Rust's type of each constant, by name prefix (the first that matches)
RUST_TYPES = (
    ("OBS_", "f64", lambda name: name.endswith("_SCALE")),
    ("ACTION_", "u8", None), ("PHASE_", "u8", None), ("RESULT_", "u8", None), ("DECLARED_", "u8", None),
    ("N_", "usize", None), ("MAX_", "usize", None), ("SLOT", "usize", None), ("OBS_", "usize", None),
    ("CONFIG_", "usize", None), ("POS_", "usize", None), ("OUTLOOK_", "usize", None), ("OPT_", "usize", None), ("SUMMARY_", "usize", None), ("SUIT_TABLE", "usize", None),
    ("HONOUR_TABLE", "usize", None), ("TABLE_", "usize", None),
)


def constants() -> list[tuple[str, str, int | float]]:
    """Every boundary constant as (name, Rust type, value), in the order written above."""
    out = []
    for name, value in globals().items():
        if (not name.isupper() or name.startswith("_") or name == "ABI_VERSION"
                or not isinstance(value, (int, float)) or isinstance(value, bool)):
            continue
        rust = "i64"
        for prefix, typ, when in RUST_TYPES:
            if name.startswith(prefix) and (when is None or when(name)):
                rust = typ
                break
        out.append((name, rust, value))
    return out


def _abi_version() -> int:
    """A number that changes whenever any constant does (so a stale build is refused)."""
    text = "\n".join(f"{n} {t} {v!r}" for n, t, v in constants())
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


ABI_VERSION = _abi_version()
PHASES = ("exchange", "void", "turn", "claim", "rob", "over")  # by phase code
DECLARATIONS = ("liangdao", "sing", "dance")  # by declaration code - 1
_SIMPLE = {"win": ACTION_WIN, "pong": ACTION_PONG, "kong": ACTION_KONG, "pass": ACTION_PASS}


def rust_source() -> str:
    """``native/src/spec.rs``, generated."""
    lines = ["//! Every number that crosses the Python–Rust boundary. GENERATED from",
             "//! src/majiang/native/spec.py by `python -m majiang.native spec`: do not edit.", "",
             f"pub const ABI_VERSION: i64 = {ABI_VERSION};"]
    for name, rust, value in constants():
        literal = repr(float(value)) if rust == "f64" else str(int(value))
        lines.append(f"pub const {name}: {rust} = {literal};")
    return "\n".join(lines) + "\n"


def action_index(a: Action) -> int:
    """The index of an engine action (for 换三张, of its suit)."""
    t = a.type
    if t == "discard":
        return ACTION_DISCARD + int(a.tile)
    if t == "declare":
        return ACTION_DECLARE + int(a.tile)
    if t == "sing":
        return ACTION_SING + int(a.tile)
    if t == "concealed_kong":
        return ACTION_CONCEALED_KONG + int(a.tile)
    if t == "added_kong":
        return ACTION_ADDED_KONG + int(a.tile)
    if t in _SIMPLE:
        return _SIMPLE[t]
    if t == "void":
        return ACTION_VOID + "mps".index(a.suit)
    if t == "exchange":
        return ACTION_EXCHANGE + "mps".index(a.tiles[0].suit)
    raise ValueError(f"no index for {a}")


def legal_map(game: Game, seat: int) -> dict[int, Action]:
    """Index → the engine action it stands for (for 换三张, the suit's least connected three)."""
    from majiang.core.analysis import isolation

    out: dict[int, Action] = {}
    counts = game.seats[seat].counts
    for a in game.legal_actions(seat):
        i = action_index(a)
        if a.type == "exchange":
            best = out.get(i)
            if best is not None and sum(isolation(counts, t) for t in best.tiles) <= \
                    sum(isolation(counts, t) for t in a.tiles):
                continue
        out[i] = a
    return out

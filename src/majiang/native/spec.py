"""What crosses the Python–Rust boundary, defined once: the action indices, the observation
layout, the rules array the library reads (generated from the games' declarations:
``RULES_LAYOUT``, ``encode_rules``), the codes of phases, results, opponents and return values, the
entry points' signatures (``FUNCTIONS``), and an ABI version derived from all of them.

The crate's ``native/src/spec.rs`` and ``native/src/abi.rs`` are generated from this module
(``python -m majiang.native spec``); ``tests/native/test_boundary.py`` fails when they are stale, and the
library refuses to load when its ABI version is not this one. Every other constant below is a plain
literal, defined once, in the order it is written to Rust; its Rust type follows from its name
(``RUST_TYPES``).

>>> N_ACTIONS, OBS_SIZE, SLOT
(160, 4593, 1121)
>>> from majiang.engine import Action
>>> action_index(Action("pong")), action_index(Action("void", suit="p"))
(151, 155)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from majiang.engine import Action, Game

N_KINDS = 30  # tile kinds: 0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-29 白发中
MAX_WALL_LEN = 136
MAX_SEED_PREFIX = 64  # bytes of a batch game's seed string before its hand index (mj_batch_step_deal)

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

# -- the rules as the library reads them: generated from the games' declarations (``rules_layout``)
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

# -- the library's entry points, declared once: (name, Rust return type, "argument: Rust type", …).
# ``declare_functions`` sets the ctypes prototypes from it, ``rust_abi_source`` writes the crate's
# ``abi.rs`` (each signature checked at compile time against the function in ``lib.rs``), and the
# ABI version hashes it, so a reordered or retyped argument is refused at load.
FUNCTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("mj_abi_version", "i64", ()),
    ("mj_obs_size", "i64", ()),
    ("mj_new_seeded", "*mut Game", ("config: *const i64", "key: *const u32", "key_len: usize", "dealer: i64")),
    ("mj_new_wall", "*mut Game", ("config: *const i64", "wall: *const u8", "wall_len: usize", "dealer: i64",
                                  "dice0: i64", "dice1: i64", "front: i64")),
    ("mj_wall", "i64", ("g: *mut Game", "out: *mut u8", "dice: *mut i64")),
    ("mj_set_tables", "i64", ("suit: *const u16", "n_suit: usize", "honour: *const u16", "n_honour: usize",
                              "rows: *const u16", "n_rows: usize")),
    ("mj_opponents_new", "*mut Opponents", ("kind: i64", "state: u64", "keys: *const u32", "key_len: usize",
                                            "seats: usize")),
    ("mj_rollouts", "i64", ("config: *const i64", "positions: *const i64", "n: usize", "seat: i64",
                            "actions: *const i64", "keys: *const u32", "policy: i64", "out: *mut i64")),
    ("mj_policy_act", "i64", ("config: *const i64", "position: *const i64", "seat: i64", "key: u32",
                              "policy: i64")),
    ("mj_outlook", "i64", ("config: *const i64", "hand: *const i64", "model: *const f64", "values: *mut f64",
                           "flags: *mut i64")),
    ("mj_opponents_free", "()", ("o: *mut Opponents",)),
    ("mj_play", "i64", ("g: *mut Game", "learner: i64", "o: *mut Opponents")),
    ("mj_shanten", "i64", ("config: *const i64", "counts: *const u8", "sets: i64", "void: i64", "caps: *const u8",
                           "seven_pairs: i64", "meld_suits: i64")),
    ("mj_free", "()", ("g: *mut Game",)),
    ("mj_to_act", "i64", ("g: *mut Game",)),
    ("mj_apply", "i64", ("g: *mut Game", "seat: i64", "action: i64")),
    ("mj_step", "i64", ("g: *mut Game", "seat: i64", "action: i64", "mask: *mut i8", "rewards: *mut i64")),
    ("mj_mask", "i64", ("g: *mut Game", "seat: i64", "out: *mut i8")),
    ("mj_encode", "i64", ("g: *mut Game", "seat: i64", "out: *mut f32")),
    ("mj_rewards", "i64", ("g: *mut Game", "out: *mut i64")),
    ("mj_summary", "i64", ("g: *mut Game", "out: *mut i64", "cap: usize")),
    ("mj_actions", "i64", ("g: *mut Game", "out: *mut i64", "cap: usize")),
    ("mj_batch_step_vs", "i64", ("games: *const *mut Game", "n: usize", "actions: *const i64", "learner: i64",
                                 "opponents: *const *mut Opponents", "obs: *mut f32", "masks: *mut i8",
                                 "rewards: *mut f32", "dones: *mut u8", "threads: usize")),
    ("mj_batch_step", "i64", ("games: *const *mut Game", "n: usize", "actions: *const i64", "seats: *mut i64",
                              "obs: *mut f32", "masks: *mut i8", "rewards: *mut f32", "players: usize",
                              "dones: *mut u8", "threads: usize")),
    # the entry points that take an observation kind (OBS_KIND_*): float32 or compact uint8 out
    ("mj_encode_obs", "i64", ("g: *mut Game", "seat: i64", "out: *mut u8", "kind: i64")),
    ("mj_step_obs", "i64", ("g: *mut Game", "seat: i64", "action: i64", "mask: *mut i8", "rewards: *mut i64",
                            "obs: *mut u8", "kind: i64")),
    ("mj_batch_step_vs_obs", "i64", ("games: *const *mut Game", "n: usize", "actions: *const i64", "learner: i64",
                                     "opponents: *const *mut Opponents", "obs: *mut u8", "obs_kind: i64",
                                     "masks: *mut i8", "rewards: *mut f32", "dones: *mut u8", "threads: usize")),
    ("mj_batch_step_obs", "i64", ("games: *const *mut Game", "n: usize", "actions: *const i64", "seats: *mut i64",
                                  "obs: *mut u8", "obs_kind: i64", "masks: *mut i8", "rewards: *mut f32",
                                  "players: usize", "dones: *mut u8", "threads: usize")),
    ("mj_redeal_obs", "i64", ("g: *mut Game", "key: *const u32", "key_len: usize", "dealer: i64", "mask: *mut i8",
                              "obs: *mut u8", "kind: i64")),
    ("mj_batch_step_deal", "i64", ("games: *const *mut Game", "n: usize", "actions: *const i64", "seats: *mut i64",
                                   "obs: *mut u8", "obs_kind: i64", "masks: *mut i8", "rewards: *mut f32",
                                   "players: usize", "dones: *mut u8", "threads: usize", "prefixes: *const u8",
                                   "hands: *mut i64")),
)
_CTYPES = {"i64": "c_int64", "u64": "c_uint64", "u32": "c_uint32", "usize": "c_size_t", "i8": "c_int8",
           "f64": "c_double"}


def _arg_type(arg: str) -> str:
    return arg.split(":", 1)[1].strip()


def _signatures() -> list[str]:
    return [f"{name}({', '.join(_arg_type(a) for a in args)}) -> {ret}" for name, ret, args in FUNCTIONS]


def ctypes_type(rust: str):
    """The ctypes type of a Rust argument or return type (every pointer is a ``c_void_p``)."""
    import ctypes

    if rust == "()":
        return None
    if rust.startswith("*"):
        return ctypes.c_void_p
    return getattr(ctypes, _CTYPES[rust])


def declare_functions(lib) -> str | None:
    """Set every declared entry point's ctypes prototype on ``lib``; the name of the first one the
    library lacks (an old build), or ``None``."""
    for name, ret, args in FUNCTIONS:
        try:
            fn = getattr(lib, name)
        except AttributeError:
            return name
        fn.restype = ctypes_type(ret)
        fn.argtypes = [ctypes_type(_arg_type(a)) for a in args]
    return None


def _alias(name: str) -> str:
    """``mj_step_obs`` -> ``MjStepObs``: the Rust name of an entry point's function-pointer type."""
    return "".join(part.capitalize() for part in name.split("_"))


def rust_abi_source() -> str:
    """``native/src/abi.rs``, generated: each entry point's declared signature as a function-pointer
    type the function must coerce to (a mismatch does not compile), which the crate's CPython
    binding also calls through (so its calls into the library are declared here too)."""
    lines = ["//! Every entry point's signature as ``majiang.native.spec.FUNCTIONS`` declares it. GENERATED by",
             "//! `python -m majiang.native spec`: do not edit. A function whose signature in lib.rs differs",
             "//! does not compile; the CPython binding (python.rs) calls the library through these types.", "",
             "use crate::bots::Opponents;", "use crate::game::Game;", ""]
    for name, ret, args in FUNCTIONS:
        result = "" if ret == "()" else f" -> {ret}"
        lines += ["#[rustfmt::skip]",
                  f"pub type {_alias(name)} = unsafe extern \"C\" fn({', '.join(_arg_type(a) for a in args)}){result};",
                  f"const _: {_alias(name)} = crate::{name};"]
    return "\n".join(lines) + "\n"


# Rust's type of each constant, by name prefix (the first that matches)
RUST_TYPES = (
    ("OBS_", "f64", lambda name: name.endswith("_SCALE")),
    ("ACTION_", "u8", None), ("PHASE_", "u8", None), ("RESULT_", "u8", None), ("DECLARED_", "u8", None),
    ("N_", "usize", None), ("MAX_", "usize", None), ("SLOT", "usize", None), ("OBS_", "usize", None),
    ("CONFIG_", "usize", None), ("POS_", "usize", None), ("OUTLOOK_", "usize", None), ("OPT_", "usize", None),
    ("SUMMARY_", "usize", None), ("SUIT_TABLE", "usize", None),
    ("HONOUR_TABLE", "usize", None), ("TABLE_", "usize", None),
)



@dataclass(frozen=True)
class Slot:
    """One place of the rules array: the option it holds (for ``games``), and how it is encoded
    (``kind``: bool 0/1; int as is, ``None`` as -1; choice: its index; suits: a bit per suit)."""

    index: int
    name: str  # OPT_{NAME} in Rust, and the ``Options`` field (lower case)
    option: str
    kind: str
    values: tuple = ()
    games: tuple[str, ...] = ()

    def encode(self, value) -> int:
        if self.kind == "choice":
            return self.values.index(value)
        if self.kind == "suits":
            return sum(1 << "mps".index(x) for x in set(value))
        if value is None:
            return OPTION_NONE
        return int(value)


OPTION_NONE = -1  # a nullable option's "none" (no cap)


def native_games() -> list:
    """The games the crate plays (``GameSpec.native``), by name: their codes are their order."""
    from majiang.games import GAMES

    return sorted((g for g in GAMES.values() if g.native), key=lambda g: g.name)


def _rules_layout() -> list[Slot]:
    """Every declared option of every native game, a slot each; options of the same name and
    encoding share a slot (``base``), two that differ get their game's name (``KAWUXING_HAIDI``)."""
    from majiang.games.declare import declared_options

    games = native_games()

    def key(o):
        return (o.kind, tuple(c.value for c in o.choices))

    seen: dict[str, set] = {}
    for g in games:
        for o in declared_options(g.options):
            seen.setdefault(o.name, set()).add(key(o))
    slots: dict[str, Slot] = {}
    for g in games:
        for o in declared_options(g.options):
            name = o.name if len(seen[o.name]) == 1 else f"{g.name}_{o.name}"
            old = slots.get(name)
            values = tuple(c.value for c in o.choices) if o.kind == "choice" else ()
            slots[name] = Slot(old.index if old else len(slots) + 1, name, o.name, o.kind, values,
                               (old.games if old else ()) + (g.name,))
    return list(slots.values())


RULES_LAYOUT = _rules_layout()


def rules_constants() -> list[tuple[str, str, int]]:
    """The rules array's constants: its length, each slot's index, each game's code, each choice's
    code and each nullable option's none."""
    from majiang.games.declare import declared_options

    out = [("CONFIG_LEN", "usize", len(RULES_LAYOUT) + 1), ("OPT_VARIANT", "usize", 0)]
    out += [(f"OPT_{s.name.upper()}", "usize", s.index) for s in RULES_LAYOUT]
    out += [(f"VARIANT_{g.name.upper()}", "i64", i) for i, g in enumerate(native_games())]
    nullable = {o.name for g in native_games() for o in declared_options(g.options) if o.nullable}
    for s in RULES_LAYOUT:
        out += [(f"{s.name.upper()}_{v.upper()}", "i64", i) for i, v in enumerate(s.values)]
        if s.option in nullable:
            out.append((f"{s.name.upper()}_NONE", "i64", OPTION_NONE))
    return out


_RULES_CONSTANTS = rules_constants()
globals().update({name: value for name, _, value in _RULES_CONSTANTS})  # spec.OPT_BASE and so on
_GENERATED = frozenset(name for name, _, _ in _RULES_CONSTANTS) | {"OPTION_NONE"}


def encode_rules(rules) -> list[int]:
    """The rules as the flat integer array the library reads (``Options::from_config``)."""
    from majiang.core.errors import RulesError

    codes = {g.name: i for i, g in enumerate(native_games())}
    if rules.variant not in codes:
        raise RulesError(f"the native engine does not play {rules.variant}")
    c = [0] * CONFIG_LEN  # type: ignore[name-defined]  # noqa: F821  (generated above)
    c[0] = codes[rules.variant]
    for s in RULES_LAYOUT:
        if rules.variant in s.games:
            c[s.index] = s.encode(getattr(rules, s.option))
    return c


def constants() -> list[tuple[str, str, int | float]]:
    """Every boundary constant as (name, Rust type, value), in the order written above, then the
    rules encoding's (``rules_constants``)."""
    out = []
    for name, value in globals().items():
        if (not name.isupper() or name.startswith("_") or name == "ABI_VERSION" or name in _GENERATED
                or not isinstance(value, (int, float)) or isinstance(value, bool)):
            continue
        rust = "i64"
        for prefix, typ, when in RUST_TYPES:
            if name.startswith(prefix) and (when is None or when(name)):
                rust = typ
                break
        out.append((name, rust, value))
    return out + rules_constants()


def _abi_version() -> int:
    """A number that changes whenever any constant, the rules array's layout or an entry point's
    signature does (so a stale build is refused)."""
    text = "\n".join([f"{n} {t} {v!r}" for n, t, v in constants()] + _rust_options() + _signatures())
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


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
    return "\n".join(lines + _rust_options()) + "\n"


def _rust_options() -> list[str]:
    """The Rust side of the rules array: ``Options`` (every slot decoded) and each native game's
    default array (its default preset, as ``encode_rules`` writes it)."""
    from majiang.games.rules import rules_for

    lines = ["", "/// Every declared option of the games the crate plays, decoded from the rules array.",
             "#[derive(Clone)]", "#[allow(dead_code)]", "pub struct Options {", "    pub variant: i64,"]
    lines += [f"    pub {s.name}: {'bool' if s.kind == 'bool' else 'i64'}," for s in RULES_LAYOUT]
    lines += ["}", "", "impl Options {", "    pub fn from_config(c: &[i64]) -> Options {", "        Options {",
              "            variant: c[OPT_VARIANT],"]
    lines += [f"            {s.name}: c[OPT_{s.name.upper()}]{' != 0' if s.kind == 'bool' else ''},"
              for s in RULES_LAYOUT]
    lines += ["        }", "    }", "}"]
    for g in native_games():
        values = ", ".join(str(v) for v in encode_rules(rules_for(g.name)))
        lines += ["", f"/// ``encode_rules(rules_for({g.name!r}))``: the default options.", "#[allow(dead_code)]",
                  f"pub const CONFIG_{g.name.upper()}: [i64; CONFIG_LEN] =", f"    [{values}];"]
    return lines



ABI_VERSION = _abi_version()  # after everything it hashes is defined

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

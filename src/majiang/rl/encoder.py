"""The observation vector and the action mask of one seat (layout: ``majiang.rl`` and
``majiang.native.spec``, where every index and offset is defined once).

Two encodings of the same observation: float32 (``OBS_SIZE`` values, the default) and the compact
one (uint8, ``OBS_COMPACT_SIZE`` bytes: the same indices and whole numbers, tiles held and tiles
left unscaled, the money as four little-endian int32 after ``OBS_SIZE``). ``compact`` and
``expand`` convert one into the other exactly, for one vector or a batch of them.

>>> import numpy as np
>>> from majiang.engine import Game
>>> from majiang.games.rules import rules_for
>>> g = Game(rules_for("sichuan"), seed=1)
>>> obs = encode(g, 0)
>>> small = compact(obs)
>>> small.dtype, small.nbytes, bool((expand(small) == obs).all())
(dtype('uint8'), 4609, True)
"""

from __future__ import annotations

import numpy as np

from majiang.engine import Action, Game
from majiang.native.spec import (
    DECLARATIONS,
    N_ACTIONS,
    OBS_COMPACT_MONEY,
    OBS_COMPACT_SIZE,
    OBS_DEALER,
    OBS_DRAWN,
    OBS_HAND,
    OBS_HELD_SCALE,
    OBS_LAST_DISCARD,
    OBS_LAST_DISCARDER,
    OBS_MONEY,
    OBS_MONEY_SCALE,
    OBS_PHASE,
    OBS_SIZE,
    OBS_SLOTS,
    OBS_TAIL,
    OBS_TILES_LEFT,
    OBS_TILES_LEFT_SCALE,
    PHASES,
    SLOT,
    SLOT_CONCEALED_KONGS,
    SLOT_DECLARED,
    SLOT_DISCARD_COUNTS,
    SLOT_DISCARD_ORDER,
    SLOT_DISCARD_ORDER_LEN,
    SLOT_HELD,
    SLOT_HIDDEN_KONGS,
    SLOT_KONGS,
    SLOT_OUT,
    SLOT_PONGS,
    SLOT_PRESENT,
    SLOT_SET_ASIDE,
    SLOT_VOID,
    SLOT_WAITS,
    action_index,
    legal_map,
)

__all__ = ["N_ACTIONS", "OBS_COMPACT_SIZE", "OBS_SIZE", "SLOT", "action_index", "compact", "encode", "expand",
           "legal_map", "mask_of"]


_ORDER = np.arange(SLOT_DISCARD_ORDER_LEN) * 30 + SLOT_DISCARD_ORDER  # where the i-th discard's one-hot starts


def _fill_slot(slot: np.ndarray, game: Game, s: int, hidden_void: bool) -> None:
    """Write seat ``s``'s public slot (as any other seat sees it) into the zeroed ``slot``."""
    for m in game.seats[s].melds:
        if m.kind.value == "pong":
            slot[SLOT_PONGS + m.tile] += 1
        elif m.kind.value == "kong":
            slot[SLOT_KONGS + m.tile] += 1
        elif game.over:
            slot[SLOT_CONCEALED_KONGS + m.tile] += 1
        else:
            slot[SLOT_HIDDEN_KONGS] += 1  # a concealed kong shows only as a count
    ds = game.seats[s].discards
    if ds:
        arr = np.fromiter(ds, dtype=np.intp, count=len(ds))
        slot[SLOT_DISCARD_COUNTS:SLOT_DISCARD_COUNTS + 30] = np.bincount(arr, minlength=30)
        first = arr[:SLOT_DISCARD_ORDER_LEN]
        slot[_ORDER[:len(first)] + first] = 1.0
    kind = game.seats[s].declared_kind
    if kind:
        slot[SLOT_DECLARED + DECLARATIONS.index(kind)] = 1.0
        if kind != "sing":
            slot[SLOT_WAITS + np.fromiter(game.seats[s].declared_waits, dtype=np.intp)] = 1.0
    slot[SLOT_OUT] = float(game.seats[s].out)
    if game.seats[s].void is not None and not hidden_void:
        slot[SLOT_VOID + "mps".index(game.seats[s].void)] = 1.0
    slot[SLOT_SET_ASIDE] = len(game.seats[s].won_tiles)
    slot[SLOT_PRESENT] = 1.0  # tiles held (SLOT_HELD) changes at every draw: encode writes it


_QUIET_EVENTS = frozenset({"draw", "action", "payment", "horse"})  # events that change no public slot
_SEAT_EVENTS = frozenset({"claim", "kong", "declare", "win", "robbed"})  # change only their seat's slot


def _public_slots(game: Game) -> np.ndarray:
    """Every seat's public slot, a (4, SLOT) array kept in ``game.caches`` and brought up to date
    from the game's new events: a discard is written in place; a claim, kong, declaration or win
    rebuilds its seat's slot; anything else (setup, the end) rebuilds them all."""
    state = game.caches.get("env_slots")
    events = game.events
    mode = (game.phase in ("exchange", "void"), game.phase == "over")
    if state is not None and state[3] == mode and state[1] <= len(events):
        slots, seen, counts, _ = state
        if seen == len(events):
            return slots
        seats = game.seats
        stale: set[int] = set()
        for k in range(seen, len(events)):
            event = events[k]
            kind = event["type"]
            if kind == "discard":
                s = event["seat"]
                i = counts[s]
                t = seats[s].discards[i]
                counts[s] = i + 1
                slots[s, SLOT_DISCARD_COUNTS + t] += 1
                if i < SLOT_DISCARD_ORDER_LEN:
                    slots[s, SLOT_DISCARD_ORDER + i * 30 + t] = 1.0
            elif kind in _SEAT_EVENTS:
                stale.add(event["seat"])
            elif kind not in _QUIET_EVENTS:
                break
        else:
            for s in stale:
                slots[s] = 0.0
                _fill_slot(slots[s], game, s, mode[0])
                counts[s] = len(seats[s].discards)
            state[1] = len(events)
            return slots
    slots = np.zeros((4, SLOT), dtype=np.float32)
    for s in range(game.n):
        _fill_slot(slots[s], game, s, mode[0])
    game.caches["env_slots"] = [slots, len(events), [len(seat.discards) for seat in game.seats], mode]
    return slots


_TAIL = OBS_TAIL  # where the table-wide values start


def encode(game: Game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
    """The observation vector of ``seat`` (see the module docstring), written into ``out`` if
    given (a uint8 ``out`` gets the compact encoding). The public slots come from a cache kept up
    to date from the game's events."""
    if out is not None and out.dtype == np.uint8:
        return compact(encode(game, seat), out)
    n = game.n
    if out is None:
        obs = np.zeros(OBS_SIZE, dtype=np.float32)
    else:  # the slots are overwritten below: clear only the rest
        obs = out
        obs[:OBS_SLOTS] = 0.0
        obs[_TAIL:] = 0.0
        if n == 3:
            obs[OBS_SLOTS + 3 * SLOT:_TAIL] = 0.0
    seats = game.seats
    obs[OBS_HAND:OBS_HAND + 30] = seats[seat].counts
    if seat == game.current and game.phase == "turn" and game.drawn_from_wall and game.last_draw is not None:
        obs[OBS_DRAWN + int(game.last_draw)] = 1.0
    slots = _public_slots(game)
    slots[:n, SLOT_HELD] = [sum(seat.counts) / OBS_HELD_SCALE for seat in seats]
    block = obs[OBS_SLOTS:_TAIL].reshape(4, SLOT)
    block[:n - seat] = slots[seat:n]  # seats in turn order from the observer
    if seat:
        block[n - seat:n] = slots[:seat]
    if not game.over:  # the observer sees its own concealed kongs
        for m in game.seats[seat].melds:
            if m.kind.value == "concealed_kong":
                obs[OBS_SLOTS + SLOT_CONCEALED_KONGS + m.tile] += 1
                obs[OBS_SLOTS + SLOT_HIDDEN_KONGS] -= 1
    if game.seats[seat].void is not None:  # the observer knows its own void before the others see it
        obs[OBS_SLOTS + SLOT_VOID + "mps".index(game.seats[seat].void)] = 1.0
    obs[OBS_TILES_LEFT] = game.tiles_left / OBS_TILES_LEFT_SCALE
    obs[OBS_PHASE + PHASES.index(game.phase)] = 1.0
    if game.last_discard is not None:
        who, t = game.last_discard
        obs[OBS_LAST_DISCARD + t] = 1.0
        obs[OBS_LAST_DISCARDER + (who - seat) % n] = 1.0
    obs[OBS_DEALER + (game.dealer - seat) % n] = 1.0
    if game.payments:
        totals = game.totals()
        obs[OBS_MONEY:OBS_MONEY + n] = [x / OBS_MONEY_SCALE for x in totals[seat:] + totals[:seat]]
    return obs


def mask_of(game: Game, seat: int) -> tuple[np.ndarray, dict[int, Action]]:
    mapping = legal_map(game, seat)
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    if mapping:
        mask[list(mapping)] = 1
    return mask, mapping


_HELD = OBS_SLOTS + np.arange(4) * SLOT + SLOT_HELD  # tiles held / 14, per seat slot
_MONEY = slice(OBS_MONEY, OBS_MONEY + 4)
_COMPACT_MONEY = slice(OBS_COMPACT_MONEY, OBS_COMPACT_MONEY + 16)


def compact(obs: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The compact (uint8) encoding of float32 observations (``OBS_SIZE`` values in the last axis),
    written into ``out`` if given."""
    obs = np.asarray(obs, dtype=np.float32)
    lead = obs.shape[:-1]
    if out is None:
        out = np.empty(lead + (OBS_COMPACT_SIZE,), dtype=np.uint8)
    whole = obs.astype(np.float64)
    whole[..., _HELD] *= OBS_HELD_SCALE
    whole[..., OBS_TILES_LEFT] *= OBS_TILES_LEFT_SCALE
    money = np.rint(whole[..., _MONEY] * OBS_MONEY_SCALE).astype("<i4")
    whole[..., _MONEY] = 0.0
    out[..., :OBS_SIZE] = np.rint(whole)
    out[..., _COMPACT_MONEY] = money.view(np.uint8).reshape(lead + (16,))
    return out


def expand(small: np.ndarray) -> np.ndarray:
    """The float32 observations of compact ones (``OBS_COMPACT_SIZE`` bytes in the last axis):
    exactly what the float32 encoding gives."""
    small = np.asarray(small, dtype=np.uint8)
    lead = small.shape[:-1]
    whole = small[..., :OBS_SIZE].astype(np.float64)
    whole[..., _HELD] /= OBS_HELD_SCALE
    whole[..., OBS_TILES_LEFT] /= OBS_TILES_LEFT_SCALE
    money = np.ascontiguousarray(small[..., _COMPACT_MONEY]).view("<i4").reshape(lead + (4,))
    whole[..., _MONEY] = money / OBS_MONEY_SCALE
    return whole.astype(np.float32)

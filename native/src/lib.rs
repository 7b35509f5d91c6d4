//! majiang's rules engine and RL observation encoder in Rust, behind a small C ABI that
//! ``majiang.native`` loads with ctypes. Optional: the Python engine is the reference, and
//! ``tests/native/test_native.py`` plays both side by side and compares every mask, observation and
//! payment. Every entry point catches panics and reports them as an error code.
//!
//! The modules follow the Python package: ``game`` the state machine (``majiang.engine``),
//! ``games`` what differs per game (``majiang.kawuxing``, ``majiang.sichuan``), ``score``, ``hand``
//! and ``shanten`` the hand analysis, ``encode`` the env's arrays (``majiang.env``), ``bots`` the
//! built-in opponents, ``wall`` the shuffle, ``spec`` every constant shared with Python and ``abi``
//! every entry point's signature as Python declares it (both generated).

mod abi;
#[cfg(feature = "python")]
mod batch;
mod bots;
#[cfg(test)]
mod conformance;
mod encode;
mod game;
mod games;
mod hand;
mod outlook;
#[cfg(feature = "python")]
mod python;
mod score;
mod seats;
mod sha512;
mod shanten;
pub mod spec;
mod wall;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Mutex};

use bots::Opponents;
use game::{Game, Mask};
use games::VariantPlay;
use score::Rules;
use seats::Seats;
use spec::{
    ABI_VERSION, CONFIG_LEN, HONOUR_TABLE_LEN, MAX_SEED_PREFIX, NO_DISCARDER, N_ACTIONS, N_KINDS, OBS_KIND_COMPACT,
    OBS_KIND_FLOAT32, OBS_SIZE, OPPONENTS_RANDOM, OUTLOOK_CANDIDATES, OUTLOOK_COUNTS, OUTLOOK_DECLARES, OUTLOOK_IN_LEN,
    OUTLOOK_KEY, OUTLOOK_MELD, OUTLOOK_MELDS, OUTLOOK_MODEL_LEN, OUTLOOK_PLANS, OUTLOOK_SAMPLES, OUTLOOK_UNSEEN,
    OUTLOOK_VOID, OUTLOOK_WAITING, POS_LEN, RET_ALL_APPLIED, RET_ERROR, RET_ILLEGAL, RET_NO_TABLES, RET_OK, RET_OVER,
    RET_POINTS_MOVED, RET_REFUSED, SUIT_TABLE_LEN, SUMMARY_NEXT_DEALER, SUMMARY_PAYMENTS, SUMMARY_PHASE,
    SUMMARY_RESULT, SUMMARY_TILES_LEFT, SUMMARY_TOTALS, SUMMARY_WINS, SUMMARY_WIN_DISCARDER, SUMMARY_WIN_LEN,
    SUMMARY_WIN_MULTIPLIER, SUMMARY_WIN_ROBBED, SUMMARY_WIN_SEAT, SUMMARY_WIN_SELF_DRAW, SUMMARY_WIN_TILE,
    TABLE_ROW_LEN,
};

fn guarded<T>(default: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(default)
}

/// The game behind an entry point's handle.
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) and nothing else
/// reads or writes it while the returned reference is in use.
unsafe fn game<'a>(g: *mut Game) -> &'a mut Game {
    &mut *g
}

#[no_mangle]
pub extern "C" fn mj_abi_version() -> i64 {
    ABI_VERSION
}

#[no_mangle]
pub extern "C" fn mj_obs_size() -> i64 {
    OBS_SIZE as i64
}

/// A new hand whose wall is shuffled here, as Python's ``random.Random(seed_string)`` would:
/// ``key`` holds the 32-bit words ``init_by_array`` receives for that string.
///
/// # Safety
/// ``config`` points to ``CONFIG_LEN`` readable ``i64`` values and ``key`` to ``key_len`` readable ``u32``
/// words (non-null, aligned). The game returned belongs to the caller, who frees it with ``mj_free``.
#[no_mangle]
pub unsafe extern "C" fn mj_new_seeded(config: *const i64, key: *const u32, key_len: usize, dealer: i64) -> *mut Game {
    guarded(std::ptr::null_mut(), || {
        let cfg = std::slice::from_raw_parts(config, CONFIG_LEN);
        let key = std::slice::from_raw_parts(key, key_len);
        let rules = Rules::from_config(cfg);
        let (wall, dice) = wall::shuffled(&rules.kinds, key);
        Box::into_raw(Box::new(Game::new(rules, wall, dealer as usize, dice)))
    })
}

/// Deal ``g`` again in place, as ``mj_new_seeded`` with the rules of the hand it held (a batch's
/// next hand, without a new allocation or a new configuration), and write the mask and the
/// observation of kind ``kind`` (``mj_encode_obs``) of the seat to act. Returns that seat, or
/// ``RET_ERROR`` (an unknown kind: nothing changed).
///
/// # Safety
/// ``g`` is a live game (``mj_new_*``) that no other thread uses during the call; ``key`` points to
/// ``key_len`` readable ``u32`` words; ``mask`` has room for ``N_ACTIONS`` ``i8`` and ``obs`` for the
/// kind's vector.
#[no_mangle]
pub unsafe extern "C" fn mj_redeal_obs(
    g: *mut Game,
    key: *const u32,
    key_len: usize,
    dealer: i64,
    mask: *mut i8,
    obs: *mut u8,
    kind: i64,
) -> i64 {
    guarded(RET_ERROR, || {
        let g = game(g);
        if !obs_kind_ok(kind) || dealer < 0 || dealer as usize >= g.n {
            return RET_ERROR;
        }
        redeal(g, std::slice::from_raw_parts(key, key_len), dealer as usize, mask, obs, kind as usize)
    })
}

/// ``mj_redeal_obs``'s work, its arguments checked.
///
/// # Safety
/// As ``mj_redeal_obs``.
unsafe fn redeal(g: &mut Game, key: &[u32], dealer: usize, mask: *mut i8, obs: *mut u8, kind: usize) -> i64 {
    let rules = g.r.clone();
    let (wall, dice) = wall::shuffled(&rules.kinds, key);
    *g = Game::new(rules, wall, dealer, dice);
    match g.to_act() {
        Some(seat) => {
            encode::mask(g, seat, std::slice::from_raw_parts_mut(mask, N_ACTIONS));
            encode::encode_at(g, seat, kind, obs);
            seat as i64
        }
        None => RET_OVER,
    }
}

/// A new hand on a given wall (``Game(rules, wall=…, dice=…)``; the worked hands of the tests).
/// ``front`` > 0: after the deal, draws continue from there (a wall whose last tiles are scripted).
///
/// # Safety
/// ``config`` points to ``CONFIG_LEN`` integers and ``wall`` to ``wall_len`` tile kinds; null is
/// returned (and nothing allocated) if the wall is not the variant's tiles four times each.
#[no_mangle]
pub unsafe extern "C" fn mj_new_wall(
    config: *const i64,
    wall: *const u8,
    wall_len: usize,
    dealer: i64,
    dice0: i64,
    dice1: i64,
    front: i64,
) -> *mut Game {
    guarded(std::ptr::null_mut(), || {
        let rules = Rules::from_config(std::slice::from_raw_parts(config, CONFIG_LEN));
        let wall = std::slice::from_raw_parts(wall, wall_len).to_vec();
        let mut expected: Vec<u8> = rules.kinds.iter().flat_map(|&k| [k; 4]).collect();
        let mut sorted = wall.clone();
        expected.sort_unstable();
        sorted.sort_unstable();
        if sorted != expected || dealer < 0 || dealer as usize >= rules.players {
            return std::ptr::null_mut();
        }
        let mut g = Game::new(rules, wall, dealer as usize, (dice0 as u8, dice1 as u8));
        if front > 0 {
            g.front = (front as usize).clamp(g.front, g.back);
        }
        Box::into_raw(Box::new(g))
    })
}

/// Copy the wall as dealt (its length) into ``out`` and the dice into ``dice``.
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) that no
/// other thread uses during the call; ``out``
/// has room for the wall (at most 136 ``u8``) and ``dice`` for two ``i64``.
#[no_mangle]
pub unsafe extern "C" fn mj_wall(g: *mut Game, out: *mut u8, dice: *mut i64) -> i64 {
    guarded(RET_ERROR, || {
        let g = game(g);
        std::slice::from_raw_parts_mut(out, g.wall.len()).copy_from_slice(&g.wall);
        *dice = g.dice.0 as i64;
        *dice.add(1) = g.dice.1 as i64;
        g.wall.len() as i64
    })
}

/// Hand over the package's shanten tables (``majiang.analysis``): the suit and honour vectors'
/// packed classes and the class rows (10 distances each). Once per process; 0 when set.
///
/// # Safety
/// ``suit`` points to ``n_suit`` readable ``u16``, ``honour`` to ``n_honour`` and ``rows`` to
/// ``10 * n_rows`` (non-null, aligned); they are copied, so they may be freed afterwards.
#[no_mangle]
pub unsafe extern "C" fn mj_set_tables(
    suit: *const u16,
    n_suit: usize,
    honour: *const u16,
    n_honour: usize,
    rows: *const u16,
    n_rows: usize,
) -> i64 {
    guarded(RET_ERROR, || {
        if n_suit != SUIT_TABLE_LEN || n_honour != HONOUR_TABLE_LEN || n_rows == 0 {
            return RET_REFUSED;
        }
        let ok = shanten::set_tables(
            std::slice::from_raw_parts(suit, n_suit),
            std::slice::from_raw_parts(honour, n_honour),
            std::slice::from_raw_parts(rows, n_rows * TABLE_ROW_LEN),
        );
        if ok {
            RET_OK
        } else {
            RET_REFUSED
        }
    })
}

/// Opponents for the seats a learner does not play: ``kind`` 0 random (generator state
/// ``state``), 1 greedy (``GreedyAgent(seeds[s])`` for seat s; ``seeds`` as 32-bit key words,
/// ``key_len`` per seat).
///
/// # Safety
/// For a ``kind`` other than 0, ``keys`` points to ``key_len * seats`` readable ``u32`` words and
/// ``key_len`` > 0. The opponents returned belong to the caller, who frees them with ``mj_opponents_free``.
#[no_mangle]
pub unsafe extern "C" fn mj_opponents_new(
    kind: i64,
    state: u64,
    keys: *const u32,
    key_len: usize,
    seats: usize,
) -> *mut Opponents {
    guarded(std::ptr::null_mut(), || {
        let o = if kind == OPPONENTS_RANDOM {
            Opponents::Random { state }
        } else {
            if !shanten::tables_loaded() {
                return std::ptr::null_mut();
            }
            let keys = std::slice::from_raw_parts(keys, key_len * seats);
            Opponents::Greedy { rngs: keys.chunks(key_len).map(wall::Mt::from_key).collect() }
        };
        Box::into_raw(Box::new(o))
    })
}

/// Play ``n`` rollouts (``bots::rollout``): rollout i starts from the position at
/// ``positions[i * POS_LEN..]``, where ``seat`` plays ``actions[i]`` and the ``policy``
/// (``ROLLOUT_GREEDY`` or ``ROLLOUT_CAREFUL``) plays every other decision, its generators seeded by ``keys[i * players..]`` (one 32-bit seed per seat, as
/// ``random.Random(seed)`` seeds). Each seat's points from the position on go to
/// ``out[i * players..]``. Returns ``RET_OK``, ``RET_NO_TABLES``, or ``RET_ERROR`` when a position
/// is malformed or its action not legal there.
///
/// # Safety
/// ``config`` points to ``CONFIG_LEN`` integers, ``positions`` to ``n * POS_LEN``, ``actions`` to
/// ``n``, ``keys`` to ``n * players`` ``u32`` and ``out`` to ``n * players`` writable ``i64``.
#[no_mangle]
pub unsafe extern "C" fn mj_rollouts(
    config: *const i64,
    positions: *const i64,
    n: usize,
    seat: i64,
    actions: *const i64,
    keys: *const u32,
    policy: i64,
    out: *mut i64,
) -> i64 {
    guarded(RET_ERROR, || {
        if !shanten::tables_loaded() {
            return RET_NO_TABLES;
        }
        let rules = Rules::from_config(std::slice::from_raw_parts(config, CONFIG_LEN));
        let players = rules.players;
        let positions = std::slice::from_raw_parts(positions, n * POS_LEN);
        let actions = std::slice::from_raw_parts(actions, n);
        let keys = std::slice::from_raw_parts(keys, n * players);
        let out = std::slice::from_raw_parts_mut(out, n * players);
        for i in 0..n {
            let pos = &positions[i * POS_LEN..(i + 1) * POS_LEN];
            let Some(g) = Game::from_position(rules.clone(), pos) else {
                return RET_ERROR;
            };
            let Some(points) =
                bots::rollout(g, seat as usize, actions[i] as u8, &keys[i * players..(i + 1) * players], policy)
            else {
                return RET_ERROR;
            };
            out[i * players..(i + 1) * players].copy_from_slice(&points);
        }
        RET_OK
    })
}

/// One decision of the rollout ``policy`` for ``seat`` at ``position`` (a ``POS_LEN`` row):
/// ``bots::policy_act`` with the generator seeded by ``key``. Returns the action index, or
/// ``RET_ERROR`` when the position is invalid or the seat has no decision there.
///
/// # Safety
/// ``config`` points to ``CONFIG_LEN`` integers and ``position`` to ``POS_LEN``.
#[no_mangle]
pub unsafe extern "C" fn mj_policy_act(
    config: *const i64,
    position: *const i64,
    seat: i64,
    key: u32,
    policy: i64,
) -> i64 {
    guarded(RET_ERROR, || {
        if !shanten::tables_loaded() {
            return RET_NO_TABLES;
        }
        let rules = Rules::from_config(std::slice::from_raw_parts(config, CONFIG_LEN));
        if seat < 0 || seat as usize >= rules.players {
            return RET_ERROR;
        }
        let Some(g) = Game::from_position(rules, std::slice::from_raw_parts(position, POS_LEN)) else {
            return RET_ERROR;
        };
        bots::policy_act(&g, seat as usize, key, policy).map_or(RET_ERROR, i64::from)
    })
}

/// ``majiang.bots.outlook.evaluate``: each candidate discard (bits of ``OUTLOOK_CANDIDATES``, in kind
/// order) of the hand in ``hand`` (``OUTLOOK_IN_LEN`` integers) valued under ``model``
/// (``OUTLOOK_MODEL_LEN`` floats): ``values[kind]`` and ``flags[kind]`` (its plan plus
/// ``OUTLOOK_DECLARES`` when declaring with it is worth more than staying hidden).
///
/// # Safety
/// ``config`` points to ``CONFIG_LEN`` integers, ``hand`` to ``OUTLOOK_IN_LEN``, ``model`` to
/// ``OUTLOOK_MODEL_LEN`` floats, ``values`` and ``flags`` to ``N_KINDS`` each.
#[no_mangle]
pub unsafe extern "C" fn mj_outlook(
    config: *const i64,
    hand: *const i64,
    model: *const f64,
    values: *mut f64,
    flags: *mut i64,
) -> i64 {
    guarded(RET_ERROR, || {
        if !shanten::tables_loaded() {
            return RET_NO_TABLES;
        }
        let rules = Rules::from_config(std::slice::from_raw_parts(config, CONFIG_LEN));
        let h = std::slice::from_raw_parts(hand, OUTLOOK_IN_LEN);
        let m = outlook::Model::from_array(std::slice::from_raw_parts(model, OUTLOOK_MODEL_LEN));
        let values = std::slice::from_raw_parts_mut(values, N_KINDS);
        let flags = std::slice::from_raw_parts_mut(flags, N_KINDS);
        let mut counts = [0u8; N_KINDS];
        for (k, c) in counts.iter_mut().enumerate() {
            let v = h[OUTLOOK_COUNTS + k];
            if !(0..=4).contains(&v) {
                return RET_ERROR;
            }
            *c = v as u8;
        }
        let n_melds = h[OUTLOOK_MELDS];
        if !(0..=4).contains(&n_melds) {
            return RET_ERROR;
        }
        let melds: Vec<_> = (0..n_melds as usize)
            .map(|i| outlook::meld_of(h[OUTLOOK_MELD + 2 * i], h[OUTLOOK_MELD + 2 * i + 1]))
            .collect();
        if melds.iter().any(|m| m.tile as usize >= N_KINDS) {
            return RET_ERROR;
        }
        let waiting = h[OUTLOOK_WAITING] != 0;
        let size: usize = counts.iter().map(|&c| c as usize).sum();
        if size + 3 * melds.len() != if waiting { 13 } else { 14 } {
            return RET_ERROR;
        }
        let unseen = &h[OUTLOOK_UNSEEN..OUTLOOK_UNSEEN + N_KINDS];
        let samples = h[OUTLOOK_SAMPLES].clamp(0, 100_000) as usize;
        let void = h[OUTLOOK_VOID].clamp(-1, 2) as i8;
        let key = h[OUTLOOK_KEY] as u32;
        if waiting {
            let (v, plan) =
                outlook::evaluate_waiting(&rules, &counts, melds, void, unseen, m, samples, key, h[OUTLOOK_PLANS]);
            values[0] = v;
            flags[0] = plan as i64;
            return RET_OK;
        }
        let candidates: Vec<u8> =
            (0..N_KINDS as u8).filter(|&k| h[OUTLOOK_CANDIDATES] >> k & 1 == 1 && counts[k as usize] > 0).collect();
        let out =
            outlook::evaluate(&rules, &counts, melds, void, unseen, m, samples, key, &candidates, h[OUTLOOK_PLANS]);
        for (&k, (v, plan, declare)) in candidates.iter().zip(out) {
            values[k as usize] = v;
            flags[k as usize] = plan as i64 + if declare { OUTLOOK_DECLARES as i64 } else { 0 };
        }
        RET_OK
    })
}

/// Free opponents made by ``mj_opponents_new``.
///
/// # Safety
/// ``o`` is null or a pointer ``mj_opponents_new`` returned that was not freed yet; it is not used
/// afterwards (nor by another thread during the call).
#[no_mangle]
pub unsafe extern "C" fn mj_opponents_free(o: *mut Opponents) {
    if !o.is_null() {
        drop(Box::from_raw(o));
    }
}

/// The opponents play ``g`` until ``learner`` must decide; returns it, or -1 if the hand ended.
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) that no
/// other thread uses during the call;
/// ``o`` is live opponents from ``mj_opponents_new`` that no other thread uses during the call.
#[no_mangle]
pub unsafe extern "C" fn mj_play(g: *mut Game, learner: i64, o: *mut Opponents) -> i64 {
    guarded(RET_ERROR, || (*o).play(game(g), learner as usize))
}

/// Shanten of ``counts`` (30 values) as ``shanten_counts`` computes it, for tests.
///
/// # Safety
/// ``config`` points to ``CONFIG_LEN`` readable ``i64``, ``counts`` to 30 readable ``u8`` and ``caps``
/// is null or points to 30 readable ``u8``.
#[no_mangle]
pub unsafe extern "C" fn mj_shanten(
    config: *const i64,
    counts: *const u8,
    sets: i64,
    void: i64,
    caps: *const u8,
    seven_pairs: i64,
    meld_suits: i64,
) -> i64 {
    guarded(RET_ERROR, || {
        if !shanten::tables_loaded() {
            return RET_NO_TABLES;
        }
        let rules = Rules::from_config(std::slice::from_raw_parts(config, CONFIG_LEN));
        let mut c = [0u8; N_KINDS];
        c.copy_from_slice(std::slice::from_raw_parts(counts, N_KINDS));
        let cap = if caps.is_null() {
            None
        } else {
            let mut x = [0u8; N_KINDS];
            x.copy_from_slice(std::slice::from_raw_parts(caps, N_KINDS));
            Some(x)
        };
        let lay = games::play_for(&rules).layout(&rules);
        shanten::shanten(&lay, &c, sets as usize, void as i8, cap.as_ref(), seven_pairs != 0, meld_suits as u8) as i64
    })
}

/// Free a game made by ``mj_new_seeded`` or ``mj_new_wall``.
///
/// # Safety
/// ``g`` is null or a pointer those returned that was not freed yet; it is not used afterwards
/// (nor by another thread during the call).
#[no_mangle]
pub unsafe extern "C" fn mj_free(g: *mut Game) {
    if !g.is_null() {
        drop(Box::from_raw(g));
    }
}

/// Who decides next (the lowest pending seat), or -1 when the hand is over.
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) that no
/// other thread uses during the call.
#[no_mangle]
pub unsafe extern "C" fn mj_to_act(g: *mut Game) -> i64 {
    guarded(RET_ERROR, || game(g).to_act().map_or(RET_OVER, |s| s as i64))
}

/// Apply an action index for ``seat``; returns who decides next (-1: the hand is over), or -3 if
/// the action is not legal (nothing changed), -2 on an internal error.
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) that no
/// other thread uses during the call.
#[no_mangle]
pub unsafe extern "C" fn mj_apply(g: *mut Game, seat: i64, action: i64) -> i64 {
    guarded(RET_ERROR, || {
        let g = game(g);
        if seat < 0 || action < 0 || action >= N_ACTIONS as i64 || !g.apply(seat as usize, action as u8) {
            return RET_ILLEGAL;
        }
        g.to_act().map_or(RET_OVER, |s| s as i64)
    })
}

/// One AEC step: apply ``action`` for ``seat``, write every seat's points since the last call into
/// ``rewards`` and the next seat's mask into ``mask``. Returns -3 if the action is not legal
/// (nothing changed), -2 on an internal error, else (next seat + 1, 0 when the hand is over)
/// plus 16 if any points moved.
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) that no
/// other thread uses during the call; ``mask``
/// has room for ``N_ACTIONS`` ``i8`` and ``rewards`` for one ``i64`` per player (3 or 4).
#[no_mangle]
pub unsafe extern "C" fn mj_step(g: *mut Game, seat: i64, action: i64, mask: *mut i8, rewards: *mut i64) -> i64 {
    guarded(RET_ERROR, || step_into(game(g), seat, action, mask, rewards, None))
}

/// The step both ``mj_step`` and ``mj_step_obs`` make; ``obs``: where to write the next seat's
/// observation, and of which kind (``mj_encode_obs``), if at all.
///
/// # Safety
/// As ``mj_step``; ``obs``'s pointer has room for its kind's vector.
unsafe fn step_into(
    g: &mut Game,
    seat: i64,
    action: i64,
    mask: *mut i8,
    rewards: *mut i64,
    obs: Option<(*mut u8, usize)>,
) -> i64 {
    if seat < 0 || action < 0 || action >= N_ACTIONS as i64 || !g.apply(seat as usize, action as u8) {
        return RET_ILLEGAL;
    }
    let (points, moved) = g.take_points();
    std::slice::from_raw_parts_mut(rewards, g.n).copy_from_slice(&points[..g.n]);
    let moved = if moved { RET_POINTS_MOVED } else { 0 };
    match g.to_act() {
        Some(next) => {
            encode::mask(g, next, std::slice::from_raw_parts_mut(mask, N_ACTIONS));
            if let Some((out, kind)) = obs {
                encode::encode_at(g, next, kind, out);
            }
            next as i64 + 1 + moved
        }
        None => moved,
    }
}

/// Write ``seat``'s legal-action mask (N_ACTIONS int8 values).
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) that no
/// other thread uses during the call; ``out``
/// has room for ``N_ACTIONS`` ``i8``.
#[no_mangle]
pub unsafe extern "C" fn mj_mask(g: *mut Game, seat: i64, out: *mut i8) -> i64 {
    guarded(RET_ERROR, || {
        let g = game(g);
        let out = std::slice::from_raw_parts_mut(out, N_ACTIONS);
        encode::mask(g, seat as usize, out);
        0
    })
}

/// Write ``seat``'s observation (OBS_SIZE float32 values).
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) that no
/// other thread uses during the call; ``out``
/// has room for ``OBS_SIZE`` ``f32``.
#[no_mangle]
pub unsafe extern "C" fn mj_encode(g: *mut Game, seat: i64, out: *mut f32) -> i64 {
    mj_encode_obs(g, seat, out as *mut u8, OBS_KIND_FLOAT32 as i64)
}

/// Write ``seat``'s observation of kind ``kind`` (``OBS_KIND_FLOAT32``: ``OBS_SIZE`` float32 values;
/// ``OBS_KIND_COMPACT``: ``OBS_COMPACT_SIZE`` bytes). Returns ``RET_ERROR`` for another kind.
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) that no
/// other thread uses during the call; ``out`` has room for that kind's vector.
#[no_mangle]
pub unsafe extern "C" fn mj_encode_obs(g: *mut Game, seat: i64, out: *mut u8, kind: i64) -> i64 {
    guarded(RET_ERROR, || {
        let g = game(g);
        if seat < 0 || seat as usize >= g.n || !obs_kind_ok(kind) {
            return RET_ERROR;
        }
        encode::encode_at(g, seat as usize, kind as usize, out);
        0
    })
}

fn obs_kind_ok(kind: i64) -> bool {
    kind == OBS_KIND_FLOAT32 as i64 || kind == OBS_KIND_COMPACT as i64
}

/// ``mj_step``, and the next seat's observation of kind ``kind`` written at ``obs`` (the whole of
/// an env's step in one call: apply, points, next mask and observation). Returns as ``mj_step``.
///
/// # Safety
/// As ``mj_step``; ``obs`` has room for the kind's vector (``mj_encode_obs``).
#[no_mangle]
pub unsafe extern "C" fn mj_step_obs(
    g: *mut Game,
    seat: i64,
    action: i64,
    mask: *mut i8,
    rewards: *mut i64,
    obs: *mut u8,
    kind: i64,
) -> i64 {
    guarded(RET_ERROR, || {
        if !obs_kind_ok(kind) {
            return RET_ERROR;
        }
        step_into(game(g), seat, action, mask, rewards, Some((obs, kind as usize)))
    })
}

/// Every seat's points since the last call (and remember the totals); returns 1 if any moved.
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) that no
/// other thread uses during the call; ``out``
/// has room for one ``i64`` per player (3 or 4).
#[no_mangle]
pub unsafe extern "C" fn mj_rewards(g: *mut Game, out: *mut i64) -> i64 {
    guarded(RET_ERROR, || {
        let g = game(g);
        let (points, moved) = g.take_points();
        std::slice::from_raw_parts_mut(out, g.n).copy_from_slice(&points[..g.n]);
        moved as i64
    })
}

/// The state a settlement summary needs: [phase, result, next dealer, number of wins, payments
/// made, tiles left, totals (n)], then per win [seat, tile, self_draw, discarder, robbed, multiplier].
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) that no
/// other thread uses during the call; ``out``
/// has room for ``cap`` ``i64`` (it may be null when ``cap`` is 0).
#[no_mangle]
pub unsafe extern "C" fn mj_summary(g: *mut Game, out: *mut i64, cap: usize) -> i64 {
    guarded(RET_ERROR, || {
        let g = game(g);
        let first_win = SUMMARY_TOTALS + g.n;
        let mut v = vec![0i64; first_win + SUMMARY_WIN_LEN * g.wins.len()];
        v[SUMMARY_PHASE] = g.phase as i64;
        v[SUMMARY_RESULT] = g.result as i64;
        v[SUMMARY_NEXT_DEALER] = g.next_dealer() as i64;
        v[SUMMARY_WINS] = g.wins.len() as i64;
        v[SUMMARY_PAYMENTS] = g.payments as i64;
        v[SUMMARY_TILES_LEFT] = g.tiles_left() as i64;
        v[SUMMARY_TOTALS..first_win].copy_from_slice(&g.totals);
        for (w, row) in g.wins.iter().zip(v[first_win..].chunks_mut(SUMMARY_WIN_LEN)) {
            row[SUMMARY_WIN_SEAT] = w.seat as i64;
            row[SUMMARY_WIN_TILE] = w.tile as i64;
            row[SUMMARY_WIN_SELF_DRAW] = w.self_draw as i64;
            row[SUMMARY_WIN_DISCARDER] = if w.discarder == usize::MAX { NO_DISCARDER } else { w.discarder as i64 };
            row[SUMMARY_WIN_ROBBED] = w.robbed as i64;
            row[SUMMARY_WIN_MULTIPLIER] = w.score.multiplier;
        }
        let n = v.len().min(cap);
        if n > 0 {
            std::slice::from_raw_parts_mut(out, n).copy_from_slice(&v[..n]);
        }
        v.len() as i64
    })
}

/// Copy up to ``cap`` (seat, action) pairs of the hand's actions so far; returns how many there are.
///
/// # Safety
/// ``g`` is a live game from ``mj_new_seeded``/``mj_new_wall`` (not yet freed) that no
/// other thread uses during the call; ``out``
/// has room for ``2 * cap`` ``i64`` (it may be null when ``cap`` is 0).
#[no_mangle]
pub unsafe extern "C" fn mj_actions(g: *mut Game, out: *mut i64, cap: usize) -> i64 {
    guarded(RET_ERROR, || {
        let g = game(g);
        let n = g.log.len().min(cap);
        if n > 0 {
            let out = std::slice::from_raw_parts_mut(out, 2 * n);
            for (i, &(s, a)) in g.log[..n].iter().enumerate() {
                out[2 * i] = s as i64;
                out[2 * i + 1] = a as i64;
            }
        }
        g.log.len() as i64
    })
}

/// Games per thread below which a batch is stepped on the caller's thread alone.
const MIN_CHUNK: usize = 128;

type Job = Arc<dyn Fn(usize, usize) -> i64 + Send + Sync>;

/// Worker threads kept between calls (starting a thread costs more than stepping a small batch).
struct Pool {
    senders: Vec<mpsc::Sender<(Job, usize, usize)>>,
    results: mpsc::Receiver<i64>,
    result_sender: mpsc::Sender<i64>,
}

static POOL: Mutex<Option<Pool>> = Mutex::new(None);

/// Run ``step(lo, hi)`` over ``0..n`` split into ``threads`` contiguous chunks (the caller's thread
/// takes the first, pool threads the others). Games are independent, so the result does not
/// depend on ``threads``. Returns the smallest index a chunk reported, or -1 (-2: a panic).
fn chunked(n: usize, threads: usize, step: Job) -> i64 {
    // waking a parked thread can cost ~100 µs on a virtual machine: worth it for big chunks only
    let threads = threads.min(n / MIN_CHUNK).max(1);
    if threads == 1 {
        return step(0, n);
    }
    let mut guard = match POOL.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    let pool = guard.get_or_insert_with(|| {
        let (result_sender, results) = mpsc::channel();
        Pool { senders: Vec::new(), results, result_sender }
    });
    while pool.senders.len() < threads - 1 {
        let (tx, rx) = mpsc::channel::<(Job, usize, usize)>();
        let done = pool.result_sender.clone();
        std::thread::spawn(move || {
            for (job, lo, hi) in rx {
                let r = catch_unwind(AssertUnwindSafe(|| job(lo, hi))).unwrap_or(RET_ERROR);
                if done.send(r).is_err() {
                    break;
                }
            }
        });
        pool.senders.push(tx);
    }
    let bounds: Vec<usize> = (0..=threads).map(|k| n * k / threads).collect();
    let mut sent = 0;
    for k in 1..threads {
        if pool.senders[k - 1].send((step.clone(), bounds[k], bounds[k + 1])).is_ok() {
            sent += 1;
        }
    }
    let mut results = vec![step(bounds[0], bounds[1])];
    for _ in 0..sent {
        results.push(pool.results.recv().unwrap_or(RET_ERROR));
    }
    if sent < threads - 1 {
        results.push(RET_ERROR);
    }
    if results.contains(&RET_ERROR) {
        return RET_ERROR;
    }
    results.into_iter().filter(|&r| r >= 0).min().unwrap_or(RET_ALL_APPLIED)
}

/// How many games ahead the check of a batch's actions asks for a game's state.
const LEGAL_AHEAD: usize = 8;

/// Ask the cache for what ``Game::legal`` reads of game ``j`` (if ``j < n``), the batch's check
/// of every action reading each game from memory once a batch outgrows the core's cache.
///
/// # Safety
/// ``games`` points to ``n`` pointers to live games.
unsafe fn prefetch_legal(games: *const *mut Game, j: usize, n: usize) {
    if j < n {
        let g = *games.add(j) as *const Game;
        game::prefetch_bytes(std::ptr::addr_of!((*g).phase), 1);
        game::prefetch_bytes(std::ptr::addr_of!((*g).pending) as *const u8, std::mem::size_of::<Seats<Option<Mask>>>());
        game::prefetch_bytes(std::ptr::addr_of!((*g).responses) as *const u8, 8);
    }
}

/// The batch's arrays, as the caller passed them, so chunks of the batch can go to other threads.
#[derive(Clone, Copy)]
struct Rows {
    games: *const *mut Game,
    actions: *const i64,
    seats: *mut i64,                  // null for ``mj_batch_step_vs``
    opponents: *const *mut Opponents, // null for ``mj_batch_step``
    obs: *mut u8,                     // rows of the observation kind ``obs_kind``
    obs_kind: usize,
    masks: *mut i8,
    rewards: *mut f32,
    width: usize, // rewards per row
    dones: *mut u8,
    prefixes: *const u8, // rows of MAX_SEED_PREFIX bytes; null: finished games are left to the caller
    hands: *mut i64,     // each game's next hand index (with ``prefixes``)
}

// SAFETY: the pointers are only dereferenced through ``Rows::row``, whose contract gives each row
// to one thread at a time; ``chunked`` hands every thread a disjoint range of rows and waits for
// all of them before the entry point (and so the caller's arrays) returns.
unsafe impl Send for Rows {}
// SAFETY: as for ``Send``: shared ``Rows`` only copy addresses, rows are disjoint per thread.
unsafe impl Sync for Rows {}

/// Row ``j`` of a batch: its game and the parts of the arrays that belong to it.
struct Row<'a> {
    game: &'a mut Game,
    action: i64,
    seat: Option<&'a mut i64>,
    opponents: Option<&'a mut Opponents>,
    obs: *mut u8,
    obs_kind: usize,
    mask: &'a mut [i8],
    rewards: &'a mut [f32],
    done: &'a mut u8,
    deal: Option<(&'a [u8], &'a mut i64)>, // the seed string's row (to its first 0), the next hand index
}

impl Rows {
    /// Before row ``j`` of ``..hi`` is stepped, ask the cache for what the next row reads: its
    /// game and mask row (not its observation row, which is written whole: asking for it ahead
    /// measured no faster, its 72 lines queued before the game's own). ``deep`` (a batch larger than the core's cache, whose
    /// games are out of cache by their turn too): in stages an iteration apart, each reading
    /// only what the stage before fetched: game ``j + 2`` itself (its state is in place), the
    /// few vectors of game ``j + 1``.
    fn prefetch(self, j: usize, hi: usize, deep: bool) {
        // SAFETY: only rows below ``hi`` (<= n) are read, games live as ``Rows::row`` requires,
        // and only the games' own fields (read-only) and addresses in the rows are touched
        unsafe {
            if deep && j + 2 < hi {
                game::prefetch_bytes(*self.games.add(j + 2) as *const u8, std::mem::size_of::<Game>());
            }
            if j + 1 < hi {
                if deep {
                    (**self.games.add(j + 1)).prefetch_state();
                } else {
                    game::prefetch_bytes(*self.games.add(j + 1) as *const u8, 64);
                }
                game::prefetch_bytes(self.masks.add((j + 1) * N_ACTIONS) as *const u8, N_ACTIONS);
            }
        }
    }

    /// Whether rows ``lo..hi`` are more than the core's cache holds (``prefetch``'s ``deep``).
    fn large(self, lo: usize, hi: usize) -> bool {
        (hi - lo) * (encode::obs_bytes(self.obs_kind) + std::mem::size_of::<Game>() + 512) > 2 << 20
    }

    /// Borrow row ``j``.
    ///
    /// # Safety
    /// ``j`` is below the batch's length; the arrays hold that many rows as ``mj_batch_step`` and
    /// ``mj_batch_step_vs`` document (distinct live games and opponents, non-overlapping arrays); and
    /// no other reference into row ``j`` (its game, its opponents, its slices) is alive for ``'a``.
    unsafe fn row<'a>(self, j: usize) -> Row<'a> {
        Row {
            game: &mut **self.games.add(j),
            action: *self.actions.add(j),
            seat: if self.seats.is_null() { None } else { Some(&mut *self.seats.add(j)) },
            opponents: if self.opponents.is_null() { None } else { Some(&mut **self.opponents.add(j)) },
            obs: self.obs.add(j * encode::obs_bytes(self.obs_kind)),
            obs_kind: self.obs_kind,
            mask: std::slice::from_raw_parts_mut(self.masks.add(j * N_ACTIONS), N_ACTIONS),
            rewards: std::slice::from_raw_parts_mut(self.rewards.add(j * self.width), self.width),
            done: &mut *self.dones.add(j),
            deal: if self.prefixes.is_null() {
                None
            } else {
                let row = std::slice::from_raw_parts(self.prefixes.add(j * MAX_SEED_PREFIX), MAX_SEED_PREFIX);
                Some((row, &mut *self.hands.add(j)))
            },
        }
    }
}

/// Step a batch of games of one learner seat against the library's opponents (``opponents[j]``
/// plays the other seats of game ``j``): apply the learner's ``actions[j]``, let the opponents play
/// to its next decision, write its mask, observation and points (``rewards[j]``). A game that
/// ended is marked in ``dones`` and not encoded. ``threads`` split the batch. Returns -1, or
/// (nothing applied) the index of the first game whose action is not legal.
///
/// # Safety
/// ``games`` and ``opponents`` point to ``n`` pointers each, to distinct live games
/// (``mj_new_*``) and distinct live opponents (``mj_opponents_new``); ``actions`` to ``n`` ``i64``;
/// ``obs``, ``masks``, ``rewards`` and ``dones`` have room for ``n`` rows of ``OBS_SIZE`` ``f32``,
/// ``N_ACTIONS`` ``i8``, one ``f32`` and one ``u8``. No array overlaps another, and nothing else
/// uses these games, opponents or arrays until the call returns.
#[no_mangle]
pub unsafe extern "C" fn mj_batch_step_vs(
    games: *const *mut Game,
    n: usize,
    actions: *const i64,
    learner: i64,
    opponents: *const *mut Opponents,
    obs: *mut f32,
    masks: *mut i8,
    rewards: *mut f32,
    dones: *mut u8,
    threads: usize,
) -> i64 {
    mj_batch_step_vs_obs(
        games,
        n,
        actions,
        learner,
        opponents,
        obs as *mut u8,
        OBS_KIND_FLOAT32 as i64,
        masks,
        rewards,
        dones,
        threads,
    )
}

/// ``mj_batch_step_vs`` writing observations of kind ``obs_kind`` (``mj_encode_obs``): ``obs`` has
/// room for ``n`` of them. ``RET_ERROR`` for another kind.
///
/// # Safety
/// As ``mj_batch_step_vs``, with ``obs`` sized for the kind.
#[no_mangle]
pub unsafe extern "C" fn mj_batch_step_vs_obs(
    games: *const *mut Game,
    n: usize,
    actions: *const i64,
    learner: i64,
    opponents: *const *mut Opponents,
    obs: *mut u8,
    obs_kind: i64,
    masks: *mut i8,
    rewards: *mut f32,
    dones: *mut u8,
    threads: usize,
) -> i64 {
    if !obs_kind_ok(obs_kind) {
        return RET_ERROR;
    }
    let obs_kind = obs_kind as usize;
    let l = learner as usize;
    // every action checked before any is applied: a refused batch changes no game
    for j in 0..n {
        prefetch_legal(games, j + LEGAL_AHEAD, n);
        let (g, a) = (&**games.add(j), *actions.add(j));
        if a < 0 || a >= N_ACTIONS as i64 || g.to_act() != Some(l) || !g.legal(l, a as u8) {
            return j as i64;
        }
    }
    let rows = Rows {
        games,
        actions,
        seats: std::ptr::null_mut(),
        opponents,
        obs,
        obs_kind,
        masks,
        rewards,
        width: 1,
        dones,
        prefixes: std::ptr::null(),
        hands: std::ptr::null_mut(),
    };
    let step: Job = Arc::new(move |lo: usize, hi: usize| -> i64 {
        guarded(RET_ERROR, || {
            let deep = rows.large(lo, hi);
            for j in lo..hi {
                rows.prefetch(j, hi, deep);
                // SAFETY: ``j`` < n, the caller's arrays are as documented above, and this thread
                // is the only one given row ``j`` (``chunked`` splits 0..n into disjoint ranges).
                let row = unsafe { rows.row(j) };
                let (g, a) = (row.game, row.action);
                if a < 0 || a >= N_ACTIONS as i64 || g.to_act() != Some(l) || !g.apply(l, a as u8) {
                    return j as i64;
                }
                let next = row.opponents.expect("opponents given").play(g, l);
                row.rewards[0] = g.take_points().0[l] as f32;
                if next < 0 {
                    *row.done = 1;
                } else {
                    *row.done = 0;
                    encode::mask(g, l, row.mask);
                    // SAFETY: row ``j``'s observation, this thread's alone (see ``Rows::row``)
                    unsafe { encode::encode_at(g, l, row.obs_kind, row.obs) };
                }
            }
            RET_ALL_APPLIED
        })
    });
    chunked(n, threads, step)
}

/// Step a batch of games: apply ``actions[j]`` for the seat ``seats[j]`` of game ``j``, then write
/// each game's next seat, mask, observation and the step's points (``players`` per row). A game
/// that ended is marked in ``dones`` and left for the caller to replace (its row is not encoded).
/// ``threads`` split the batch. Returns -1, or (nothing applied) the index of the first game
/// whose action is not legal.
///
/// # Safety
/// ``games`` points to ``n`` pointers to distinct live games (``mj_new_*``); ``actions`` and
/// ``seats`` to ``n`` ``i64``; ``obs``, ``masks``, ``rewards`` and ``dones`` have room for ``n`` rows
/// of ``OBS_SIZE`` ``f32``, ``N_ACTIONS`` ``i8``, ``players`` ``f32`` (at least the games' player
/// count) and one ``u8``. No array overlaps another, and nothing else uses these games or arrays
/// until the call returns.
#[no_mangle]
pub unsafe extern "C" fn mj_batch_step(
    games: *const *mut Game,
    n: usize,
    actions: *const i64,
    seats: *mut i64,
    obs: *mut f32,
    masks: *mut i8,
    rewards: *mut f32,
    players: usize,
    dones: *mut u8,
    threads: usize,
) -> i64 {
    mj_batch_step_obs(
        games,
        n,
        actions,
        seats,
        obs as *mut u8,
        OBS_KIND_FLOAT32 as i64,
        masks,
        rewards,
        players,
        dones,
        threads,
    )
}

/// ``mj_batch_step`` writing observations of kind ``obs_kind`` (``mj_encode_obs``): ``obs`` has
/// room for ``n`` of them. ``RET_ERROR`` for another kind.
///
/// # Safety
/// As ``mj_batch_step``, with ``obs`` sized for the kind.
#[no_mangle]
pub unsafe extern "C" fn mj_batch_step_obs(
    games: *const *mut Game,
    n: usize,
    actions: *const i64,
    seats: *mut i64,
    obs: *mut u8,
    obs_kind: i64,
    masks: *mut i8,
    rewards: *mut f32,
    players: usize,
    dones: *mut u8,
    threads: usize,
) -> i64 {
    mj_batch_step_deal(
        games,
        n,
        actions,
        seats,
        obs,
        obs_kind,
        masks,
        rewards,
        players,
        dones,
        threads,
        std::ptr::null(),
        std::ptr::null_mut(),
    )
}

/// ``mj_batch_step_obs`` that deals a finished game its next hand in place (as ``mj_redeal_obs``):
/// hand ``hands[j]`` (then counted up) of the seed string ``prefixes`` row ``j`` + that index in
/// decimal, dealt by seat ``hands[j] % players`` of the game; its seat, mask and observation are
/// written, ``dones[j]`` is 1 and ``rewards`` row ``j`` holds the last step's points of the hand
/// that ended. ``prefixes`` null: finished games are left to the caller (``mj_batch_step_obs``).
///
/// # Safety
/// As ``mj_batch_step_obs``; ``prefixes`` (unless null) holds ``n`` rows of ``MAX_SEED_PREFIX``
/// bytes (a row's string ends at its first 0 byte or at the row's end) and ``hands`` ``n`` ``i64``
/// of at least 0, used by nothing else during the call.
#[no_mangle]
pub unsafe extern "C" fn mj_batch_step_deal(
    games: *const *mut Game,
    n: usize,
    actions: *const i64,
    seats: *mut i64,
    obs: *mut u8,
    obs_kind: i64,
    masks: *mut i8,
    rewards: *mut f32,
    players: usize,
    dones: *mut u8,
    threads: usize,
    prefixes: *const u8,
    hands: *mut i64,
) -> i64 {
    if !obs_kind_ok(obs_kind) {
        return RET_ERROR;
    }
    let obs_kind = obs_kind as usize;
    // every action checked before any is applied: a refused batch changes no game
    for j in 0..n {
        prefetch_legal(games, j + LEGAL_AHEAD, n);
        let (g, a, seat) = (&**games.add(j), *actions.add(j), *seats.add(j));
        if a < 0 || a >= N_ACTIONS as i64 || seat < 0 || !g.legal(seat as usize, a as u8) {
            return j as i64;
        }
    }
    let rows = Rows {
        games,
        actions,
        seats,
        opponents: std::ptr::null(),
        obs,
        obs_kind,
        masks,
        rewards,
        width: players,
        dones,
        prefixes,
        hands,
    };
    let step: Job = Arc::new(move |lo: usize, hi: usize| -> i64 {
        guarded(RET_ERROR, || {
            let deep = rows.large(lo, hi);
            for j in lo..hi {
                rows.prefetch(j, hi, deep);
                // SAFETY: ``j`` < n, the caller's arrays are as documented above, and this thread
                // is the only one given row ``j`` (``chunked`` splits 0..n into disjoint ranges).
                let row = unsafe { rows.row(j) };
                let (g, a) = (row.game, row.action);
                let seat = row.seat.expect("seats given");
                if a < 0 || a >= N_ACTIONS as i64 || *seat < 0 || !g.apply(*seat as usize, a as u8) {
                    return j as i64;
                }
                let points = g.take_points().0;
                for (r, &p) in row.rewards.iter_mut().zip(&points[..g.n]) {
                    *r = p as f32;
                }
                match g.to_act() {
                    None => {
                        *row.done = 1;
                        *seat = RET_OVER;
                        if let Some((prefix_row, hand)) = row.deal {
                            // its length found only when a hand ended (scanned every step, Rows::row was ~10 ns a step by perf)
                            let prefix =
                                &prefix_row[..prefix_row.iter().position(|&b| b == 0).unwrap_or(MAX_SEED_PREFIX)];
                            let k = (*hand).max(0) as u64;
                            *hand = k as i64 + 1;
                            let (key, len) = wall::seed_key(prefix, k);
                            let dealer = (k % g.n as u64) as usize;
                            // SAFETY: row ``j``'s mask and observation, this thread's alone
                            *seat =
                                unsafe { redeal(g, &key[..len], dealer, row.mask.as_mut_ptr(), row.obs, row.obs_kind) };
                        }
                    }
                    Some(next) => {
                        *row.done = 0;
                        *seat = next as i64;
                        encode::mask(g, next, row.mask);
                        // SAFETY: row ``j``'s observation, this thread's alone (see ``Rows::row``)
                        unsafe { encode::encode_at(g, next, row.obs_kind, row.obs) };
                    }
                }
            }
            RET_ALL_APPLIED
        })
    });
    chunked(n, threads, step)
}

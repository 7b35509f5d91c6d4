//! majiang's rules engine and RL observation encoder in Rust, behind a small C ABI that
//! ``majiang.native`` loads with ctypes. Optional: the Python engine is the reference, and
//! ``tests/test_native.py`` plays both side by side and compares every mask, observation and
//! payment. Every entry point catches panics and reports them as an error code.

mod encode;
mod game;
mod hand;
mod score;

use std::panic::{catch_unwind, AssertUnwindSafe};

use game::{Game, N_ACTIONS};
use score::{Rules, CONFIG_LEN};

pub const ABI_VERSION: i64 = 1;

fn guarded<T>(default: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(default)
}

unsafe fn game<'a>(g: *mut Game) -> &'a mut Game {
    &mut *g
}

#[no_mangle]
pub extern "C" fn mj_abi_version() -> i64 {
    ABI_VERSION
}

#[no_mangle]
pub extern "C" fn mj_obs_size() -> i64 {
    encode::OBS_SIZE as i64
}

/// A new hand: ``config`` is the rules array, ``wall`` the shuffled wall (tile kinds).
#[no_mangle]
pub unsafe extern "C" fn mj_new(config: *const i64, wall: *const u8, wall_len: usize, dealer: i64, dice0: i64, dice1: i64) -> *mut Game {
    guarded(std::ptr::null_mut(), || {
        let cfg = std::slice::from_raw_parts(config, CONFIG_LEN);
        let wall = std::slice::from_raw_parts(wall, wall_len).to_vec();
        let g = Game::new(Rules::from_config(cfg), wall, dealer as usize, (dice0 as u8, dice1 as u8));
        Box::into_raw(Box::new(g))
    })
}

#[no_mangle]
pub unsafe extern "C" fn mj_free(g: *mut Game) {
    if !g.is_null() {
        drop(Box::from_raw(g));
    }
}

/// Who decides next (the lowest pending seat), or -1 when the hand is over.
#[no_mangle]
pub unsafe extern "C" fn mj_to_act(g: *mut Game) -> i64 {
    guarded(-2, || game(g).to_act().map_or(-1, |s| s as i64))
}

/// Apply an action index for ``seat``: 0 done, 1 not legal (nothing changed), -2 internal error.
#[no_mangle]
pub unsafe extern "C" fn mj_apply(g: *mut Game, seat: i64, action: i64) -> i64 {
    guarded(-2, || {
        let g = game(g);
        if seat < 0 || action < 0 || action >= N_ACTIONS as i64 {
            return 1;
        }
        if g.apply(seat as usize, action as u8) { 0 } else { 1 }
    })
}

/// Write ``seat``'s legal-action mask (N_ACTIONS int8 values).
#[no_mangle]
pub unsafe extern "C" fn mj_mask(g: *mut Game, seat: i64, out: *mut i8) -> i64 {
    guarded(-2, || {
        let g = game(g);
        let out = std::slice::from_raw_parts_mut(out, N_ACTIONS);
        encode::mask(g, seat as usize, out);
        0
    })
}

/// Write ``seat``'s observation (OBS_SIZE float32 values).
#[no_mangle]
pub unsafe extern "C" fn mj_encode(g: *mut Game, seat: i64, out: *mut f32) -> i64 {
    guarded(-2, || {
        let g = game(g);
        let out = std::slice::from_raw_parts_mut(out, encode::OBS_SIZE);
        encode::encode(g, seat as usize, out);
        0
    })
}

/// Every seat's points since the last call (and remember the totals).
#[no_mangle]
pub unsafe extern "C" fn mj_rewards(g: *mut Game, out: *mut i64) -> i64 {
    guarded(-2, || {
        let g = game(g);
        let out = std::slice::from_raw_parts_mut(out, g.n);
        for s in 0..g.n {
            out[s] = g.totals[s] - g.paid[s];
            g.paid[s] = g.totals[s];
        }
        0
    })
}

/// The state a settlement summary needs: [phase, result, next dealer, number of wins, payments
/// made, tiles left, totals (n)], then per win [seat, tile, self_draw, discarder, robbed, multiplier].
#[no_mangle]
pub unsafe extern "C" fn mj_summary(g: *mut Game, out: *mut i64, cap: usize) -> i64 {
    guarded(-2, || {
        let g = game(g);
        let mut v: Vec<i64> = vec![g.phase as i64, g.result as i64, g.next_dealer() as i64, g.wins.len() as i64,
                                   g.payments as i64, g.tiles_left() as i64];
        v.extend(g.totals.iter().copied());
        for w in &g.wins {
            v.extend([w.seat as i64, w.tile as i64, w.self_draw as i64,
                      if w.discarder == usize::MAX { -1 } else { w.discarder as i64 }, w.robbed as i64, w.score.multiplier]);
        }
        let n = v.len().min(cap);
        std::slice::from_raw_parts_mut(out, n).copy_from_slice(&v[..n]);
        v.len() as i64
    })
}

/// Step a batch of games: apply ``actions[j]`` for the seat ``seats[j]`` of game ``j``, then write
/// each game's next seat, mask, observation and the step's points (``players`` per row). A game
/// that ended is marked in ``dones`` and left for the caller to replace (its row is not encoded).
/// Returns -1 if all applied, else the index of the first game whose action was illegal (that
/// game and the ones after it are untouched).
#[no_mangle]
pub unsafe extern "C" fn mj_batch_step(games: *const *mut Game, n: usize, actions: *const i64, seats: *mut i64,
                                       obs: *mut f32, masks: *mut i8, rewards: *mut f32, players: usize,
                                       dones: *mut u8) -> i64 {
    guarded(-2, || {
        let games = std::slice::from_raw_parts(games, n);
        let actions = std::slice::from_raw_parts(actions, n);
        let seats = std::slice::from_raw_parts_mut(seats, n);
        let obs = std::slice::from_raw_parts_mut(obs, n * encode::OBS_SIZE);
        let masks = std::slice::from_raw_parts_mut(masks, n * N_ACTIONS);
        let rewards = std::slice::from_raw_parts_mut(rewards, n * players);
        let dones = std::slice::from_raw_parts_mut(dones, n);
        for j in 0..n {
            let g = game(games[j]);
            let a = actions[j];
            if a < 0 || a >= N_ACTIONS as i64 || seats[j] < 0 || !g.apply(seats[j] as usize, a as u8) {
                return j as i64;
            }
            let row = &mut rewards[j * players..(j + 1) * players];
            for s in 0..g.n {
                row[s] = (g.totals[s] - g.paid[s]) as f32;
                g.paid[s] = g.totals[s];
            }
            match g.to_act() {
                None => {
                    dones[j] = 1;
                    seats[j] = -1;
                }
                Some(seat) => {
                    dones[j] = 0;
                    seats[j] = seat as i64;
                    encode::mask(g, seat, &mut masks[j * N_ACTIONS..(j + 1) * N_ACTIONS]);
                    encode::encode(g, seat, &mut obs[j * encode::OBS_SIZE..(j + 1) * encode::OBS_SIZE]);
                }
            }
        }
        -1
    })
}

//! The observation vector and action mask of ``majiang.env`` (its module docstring is the spec;
//! the offsets are in ``spec``): the float32 vector, or the compact one (uint8, the scaled values
//! unscaled and the money as int32 after ``OBS_SIZE``), written by one generic encoder.

use crate::game::Game;
use crate::score::MeldKind;
use crate::spec::{
    DECLARED_SING, N_ACTIONS, N_KINDS, OBS_COMPACT_MONEY, OBS_COMPACT_SIZE, OBS_DEALER, OBS_DRAWN, OBS_HAND,
    OBS_HELD_SCALE, OBS_LAST_DISCARD, OBS_LAST_DISCARDER, OBS_MONEY, OBS_MONEY_SCALE, OBS_PHASE, OBS_SIZE, OBS_SLOTS,
    OBS_TILES_LEFT, OBS_TILES_LEFT_SCALE, PHASE_EXCHANGE, PHASE_OVER, PHASE_TURN, PHASE_VOID, SLOT,
    SLOT_CONCEALED_KONGS, SLOT_DECLARED, SLOT_DISCARD_COUNTS, SLOT_DISCARD_ORDER, SLOT_DISCARD_ORDER_LEN, SLOT_HELD,
    SLOT_HIDDEN_KONGS, SLOT_KONGS, SLOT_OUT, SLOT_PONGS, SLOT_PRESENT, SLOT_SET_ASIDE, SLOT_VOID, SLOT_WAITS,
};

/// One value of an observation: float32, or a byte of the compact form.
pub trait ObsValue: Copy + PartialEq {
    const ZERO: Self;
    const ONE: Self;
    /// The length of the vector of this kind.
    const LEN: usize;
    /// A whole number (a count, a flag).
    fn count(c: u32) -> Self;
    /// A value the float32 vector scales (tiles held, tiles left): ``v / scale``, or ``v`` itself.
    fn scaled(v: usize, scale: f64) -> Self;
    fn add(self, d: i32) -> Self;
    /// Seat ``i``'s money (relative to the observer).
    fn money(obs: &mut [Self], i: usize, total: i64);
}

impl ObsValue for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    const LEN: usize = OBS_SIZE;
    fn count(c: u32) -> f32 {
        c as f32
    }
    fn scaled(v: usize, scale: f64) -> f32 {
        (v as f64 / scale) as f32
    }
    fn add(self, d: i32) -> f32 {
        self + d as f32
    }
    fn money(obs: &mut [f32], i: usize, total: i64) {
        obs[OBS_MONEY + i] = (total as f64 / OBS_MONEY_SCALE) as f32;
    }
}

impl ObsValue for u8 {
    const ZERO: u8 = 0;
    const ONE: u8 = 1;
    const LEN: usize = OBS_COMPACT_SIZE;
    fn count(c: u32) -> u8 {
        c.min(255) as u8
    }
    fn scaled(v: usize, _scale: f64) -> u8 {
        v.min(255) as u8
    }
    fn add(self, d: i32) -> u8 {
        (self as i32 + d).clamp(0, 255) as u8
    }
    fn money(obs: &mut [u8], i: usize, total: i64) {
        let at = OBS_COMPACT_MONEY + 4 * i;
        let clamped = total.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        obs[at..at + 4].copy_from_slice(&clamped.to_le_bytes());
    }
}

pub fn mask(g: &Game, seat: usize, out: &mut [i8]) {
    out[..N_ACTIONS].fill(0);
    if seat >= g.n || g.responses[seat].is_some() {
        return;
    }
    if let Some(m) = g.pending[seat] {
        // only the set bits: a mask has a few legal actions among N_ACTIONS
        for (w, &word) in m.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                if i < N_ACTIONS {
                    out[i] = 1;
                }
                bits &= bits - 1;
            }
        }
    }
}

/// Seat ``s``'s public slot, as any other seat sees it.
fn fill_slot<T: ObsValue>(slot: &mut [T], g: &Game, s: usize, hidden_void: bool) {
    for m in &g.melds[s] {
        let at = match m.kind {
            MeldKind::Pong => SLOT_PONGS + m.tile as usize,
            MeldKind::Kong => SLOT_KONGS + m.tile as usize,
            MeldKind::Concealed if g.phase == PHASE_OVER => SLOT_CONCEALED_KONGS + m.tile as usize,
            MeldKind::Concealed => SLOT_HIDDEN_KONGS,
        };
        slot[at] = slot[at].add(1);
    }
    let discards = &g.discards[s];
    for (o, &c) in slot[SLOT_DISCARD_COUNTS..SLOT_DISCARD_COUNTS + N_KINDS].iter_mut().zip(&discards.counts) {
        *o = T::count(c as u32);
    }
    for (i, &t) in discards.iter().take(SLOT_DISCARD_ORDER_LEN).enumerate() {
        slot[SLOT_DISCARD_ORDER + i * N_KINDS + t as usize] = T::ONE;
    }
    let kind = g.declared_kind[s];
    if kind > 0 {
        slot[SLOT_DECLARED + kind as usize - 1] = T::ONE;
        if kind != DECLARED_SING {
            for &w in &g.declared_waits[s] {
                slot[SLOT_WAITS + w as usize] = T::ONE;
            }
        }
    }
    slot[SLOT_OUT] = if g.out[s] { T::ONE } else { T::ZERO };
    if g.void[s] >= 0 && !hidden_void {
        slot[SLOT_VOID + g.void[s] as usize] = T::ONE;
    }
    slot[SLOT_SET_ASIDE] = T::count(g.won_tiles[s] as u32);
    let held: u32 = g.hands[s].iter().map(|&c| c as u32).sum();
    slot[SLOT_HELD] = T::scaled(held as usize, OBS_HELD_SCALE);
    slot[SLOT_PRESENT] = T::ONE;
}

/// ``seat``'s observation: ``T::LEN`` values (float32: ``OBS_SIZE``; compact: ``OBS_COMPACT_SIZE``).
pub fn encode<T: ObsValue>(g: &Game, seat: usize, obs: &mut [T]) {
    let n = g.n;
    let obs = &mut obs[..T::LEN];
    obs.fill(T::ZERO);
    for (o, &c) in obs[OBS_HAND..OBS_HAND + N_KINDS].iter_mut().zip(&g.hands[seat]) {
        *o = T::count(c as u32);
    }
    if seat == g.current && g.phase == PHASE_TURN && g.drawn_from_wall {
        if let Some(t) = g.last_draw {
            obs[OBS_DRAWN + t as usize] = T::ONE;
        }
    }
    let hidden_void = g.phase == PHASE_EXCHANGE || g.phase == PHASE_VOID;
    for i in 0..n {
        let s = (seat + i) % n;
        let start = OBS_SLOTS + i * SLOT;
        fill_slot(&mut obs[start..start + SLOT], g, s, hidden_void);
    }
    if g.phase != PHASE_OVER {
        for m in &g.melds[seat] {
            if m.kind == MeldKind::Concealed {
                let at = OBS_SLOTS + SLOT_CONCEALED_KONGS + m.tile as usize;
                obs[at] = obs[at].add(1);
                obs[OBS_SLOTS + SLOT_HIDDEN_KONGS] = obs[OBS_SLOTS + SLOT_HIDDEN_KONGS].add(-1);
            }
        }
    }
    if g.void[seat] >= 0 {
        obs[OBS_SLOTS + SLOT_VOID + g.void[seat] as usize] = T::ONE;
    }
    obs[OBS_TILES_LEFT] = T::scaled(g.tiles_left(), OBS_TILES_LEFT_SCALE);
    obs[OBS_PHASE + g.phase as usize] = T::ONE;
    if let Some((who, tile)) = g.last_discard {
        obs[OBS_LAST_DISCARD + tile as usize] = T::ONE;
        obs[OBS_LAST_DISCARDER + (who + n - seat) % n] = T::ONE;
    }
    obs[OBS_DEALER + (g.dealer + n - seat) % n] = T::ONE;
    if g.payments > 0 {
        for i in 0..n {
            T::money(obs, i, g.totals[(seat + i) % n]);
        }
    }
}

/// Write ``seat``'s observation of the kind ``kind`` (``OBS_KIND_*``) at ``out``.
///
/// # Safety
/// ``out`` has room for that kind's vector (``OBS_SIZE`` ``f32`` or ``OBS_COMPACT_SIZE`` bytes) and
/// nothing else uses it during the call.
pub unsafe fn encode_at(g: &Game, seat: usize, kind: usize, out: *mut u8) {
    if kind == crate::spec::OBS_KIND_COMPACT {
        encode(g, seat, std::slice::from_raw_parts_mut(out, OBS_COMPACT_SIZE));
    } else {
        encode(g, seat, std::slice::from_raw_parts_mut(out as *mut f32, OBS_SIZE));
    }
}

/// The bytes of an observation of the kind ``kind`` (``OBS_KIND_*``).
pub fn obs_bytes(kind: usize) -> usize {
    if kind == crate::spec::OBS_KIND_COMPACT {
        OBS_COMPACT_SIZE
    } else {
        4 * OBS_SIZE
    }
}

#[cfg(test)]
mod tests {
    use crate::spec::*;

    /// The flat constants of ``spec`` against the layout ``majiang.env`` documents.
    #[test]
    fn observation_layout_adds_up() {
        assert_eq!(SLOT, 30 * 5 + SLOT_DISCARD_ORDER_LEN * N_KINDS + 11);
        assert_eq!(SLOT_DISCARD_ORDER + SLOT_DISCARD_ORDER_LEN * N_KINDS, SLOT_WAITS);
        assert_eq!(SLOT_WAITS + N_KINDS, SLOT_HIDDEN_KONGS);
        assert_eq!(
            (SLOT_DECLARED, SLOT_OUT, SLOT_VOID, SLOT_SET_ASIDE),
            (SLOT_HIDDEN_KONGS + 1, SLOT_DECLARED + 3, SLOT_OUT + 1, SLOT_VOID + 3)
        );
        assert_eq!((SLOT_HELD, SLOT_PRESENT, SLOT), (SLOT_SET_ASIDE + 1, SLOT_HELD + 1, SLOT_PRESENT + 1));
        assert_eq!(OBS_TAIL, OBS_SLOTS + 4 * SLOT);
        assert_eq!(OBS_TILES_LEFT, OBS_TAIL);
        assert_eq!(OBS_PHASE, OBS_TILES_LEFT + 1);
        assert_eq!(OBS_LAST_DISCARD, OBS_PHASE + N_PHASES);
        assert_eq!(OBS_LAST_DISCARDER, OBS_LAST_DISCARD + N_KINDS);
        assert_eq!((OBS_DEALER, OBS_MONEY, OBS_SIZE), (OBS_LAST_DISCARDER + 4, OBS_DEALER + 4, OBS_MONEY + 4));
        assert_eq!(OBS_SIZE, 60 + 4 * SLOT + 1 + 6 + 30 + 4 + 4 + 4);
    }

    #[test]
    fn action_ranges_tile_the_space() {
        let n = N_KINDS as u8;
        assert_eq!(
            [ACTION_DECLARE, ACTION_SING, ACTION_CONCEALED_KONG, ACTION_ADDED_KONG, ACTION_WIN],
            [ACTION_DISCARD + n, ACTION_DECLARE + n, ACTION_SING + n, ACTION_CONCEALED_KONG + n, ACTION_ADDED_KONG + n]
        );
        assert_eq!(
            [ACTION_PONG, ACTION_KONG, ACTION_PASS, ACTION_VOID],
            [ACTION_WIN + 1, ACTION_WIN + 2, ACTION_WIN + 3, ACTION_WIN + 4]
        );
        assert_eq!(ACTION_EXCHANGE as usize + 3, N_ACTIONS);
        assert_eq!(PHASE_OVER as usize + 1, N_PHASES);
    }
}

//! The observation vector and action mask of ``majiang.env`` (its module docstring is the spec).

use crate::game::{Game, N_ACTIONS, PH_EXCHANGE, PH_OVER, PH_VOID};
use crate::score::MeldKind;

pub const SLOT: usize = 30 * 5 + 32 * 30 + 11;
pub const OBS_SIZE: usize = 60 + 4 * SLOT + 1 + 6 + 30 + 4 + 4 + 4;
const TAIL: usize = 60 + 4 * SLOT;
const F: usize = SLOT - 11;

pub fn mask(g: &Game, seat: usize, out: &mut [i8]) {
    out[..N_ACTIONS].fill(0);
    if seat >= g.n || g.responses[seat].is_some() {
        return;
    }
    if let Some(m) = g.pending[seat] {
        for i in 0..N_ACTIONS as u8 {
            if m.has(i) {
                out[i as usize] = 1;
            }
        }
    }
}

/// Seat ``s``'s public slot, as any other seat sees it.
fn fill_slot(slot: &mut [f32], g: &Game, s: usize, hidden_void: bool) {
    for m in &g.melds[s] {
        match m.kind {
            MeldKind::Pong => slot[m.tile as usize] += 1.0,
            MeldKind::Kong => slot[30 + m.tile as usize] += 1.0,
            MeldKind::Concealed if g.phase == PH_OVER => slot[60 + m.tile as usize] += 1.0,
            MeldKind::Concealed => slot[F] += 1.0,
        }
    }
    for (i, &t) in g.discards[s].iter().enumerate() {
        slot[90 + t as usize] += 1.0;
        if i < 32 {
            slot[120 + i * 30 + t as usize] = 1.0;
        }
    }
    let kind = g.declared_kind[s];
    if kind > 0 {
        slot[F + kind as usize] = 1.0;
        if kind != 2 {
            for &w in &g.declared_waits[s] {
                slot[1080 + w as usize] = 1.0;
            }
        }
    }
    slot[F + 4] = if g.out[s] { 1.0 } else { 0.0 };
    if g.void[s] >= 0 && !hidden_void {
        slot[F + 5 + g.void[s] as usize] = 1.0;
    }
    slot[F + 8] = g.won_tiles[s] as f32;
    let held: u32 = g.hands[s].iter().map(|&c| c as u32).sum();
    slot[F + 9] = (held as f64 / 14.0) as f32;
    slot[F + 10] = 1.0;
}

pub fn encode(g: &Game, seat: usize, obs: &mut [f32]) {
    let n = g.n;
    obs.fill(0.0);
    for (o, &c) in obs[..30].iter_mut().zip(&g.hands[seat]) {
        *o = c as f32;
    }
    if seat == g.current && g.phase == crate::game::PH_TURN && g.drawn_from_wall {
        if let Some(t) = g.last_draw {
            obs[30 + t as usize] = 1.0;
        }
    }
    let hidden_void = g.phase == PH_EXCHANGE || g.phase == PH_VOID;
    for i in 0..n {
        let s = (seat + i) % n;
        let start = 60 + i * SLOT;
        fill_slot(&mut obs[start..start + SLOT], g, s, hidden_void);
    }
    if g.phase != PH_OVER {
        for m in &g.melds[seat] {
            if m.kind == MeldKind::Concealed {
                obs[60 + 60 + m.tile as usize] += 1.0;
                obs[60 + F] -= 1.0;
            }
        }
    }
    if g.void[seat] >= 0 {
        obs[60 + SLOT - 6 + g.void[seat] as usize] = 1.0;
    }
    let t = TAIL;
    obs[t] = (g.tiles_left() as f64 / 108.0) as f32;
    obs[t + 1 + g.phase as usize] = 1.0;
    if let Some((who, tile)) = g.last_discard {
        obs[t + 7 + tile as usize] = 1.0;
        obs[t + 37 + (who + n - seat) % n] = 1.0;
    }
    obs[t + 41 + (g.dealer + n - seat) % n] = 1.0;
    if g.payments > 0 {
        for i in 0..n {
            obs[t + 45 + i] = (g.totals[(seat + i) % n] as f64 / 32.0) as f32;
        }
    }
}

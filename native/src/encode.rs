//! The observation vector and action mask of ``majiang.env`` (its module docstring is the spec;
//! the offsets are in ``spec``).

use crate::game::Game;
use crate::score::MeldKind;
use crate::spec::{
    DECLARED_SING, N_ACTIONS, N_KINDS, OBS_DEALER, OBS_DRAWN, OBS_HAND, OBS_HELD_SCALE, OBS_LAST_DISCARD,
    OBS_LAST_DISCARDER, OBS_MONEY, OBS_MONEY_SCALE, OBS_PHASE, OBS_SLOTS, OBS_TILES_LEFT, OBS_TILES_LEFT_SCALE,
    PHASE_EXCHANGE, PHASE_OVER, PHASE_TURN, PHASE_VOID, SLOT, SLOT_CONCEALED_KONGS, SLOT_DECLARED, SLOT_DISCARD_COUNTS,
    SLOT_DISCARD_ORDER, SLOT_DISCARD_ORDER_LEN, SLOT_HELD, SLOT_HIDDEN_KONGS, SLOT_KONGS, SLOT_OUT, SLOT_PONGS,
    SLOT_PRESENT, SLOT_SET_ASIDE, SLOT_VOID, SLOT_WAITS,
};

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
            MeldKind::Pong => slot[SLOT_PONGS + m.tile as usize] += 1.0,
            MeldKind::Kong => slot[SLOT_KONGS + m.tile as usize] += 1.0,
            MeldKind::Concealed if g.phase == PHASE_OVER => slot[SLOT_CONCEALED_KONGS + m.tile as usize] += 1.0,
            MeldKind::Concealed => slot[SLOT_HIDDEN_KONGS] += 1.0,
        }
    }
    for (i, &t) in g.discards[s].iter().enumerate() {
        slot[SLOT_DISCARD_COUNTS + t as usize] += 1.0;
        if i < SLOT_DISCARD_ORDER_LEN {
            slot[SLOT_DISCARD_ORDER + i * N_KINDS + t as usize] = 1.0;
        }
    }
    let kind = g.declared_kind[s];
    if kind > 0 {
        slot[SLOT_DECLARED + kind as usize - 1] = 1.0;
        if kind != DECLARED_SING {
            for &w in &g.declared_waits[s] {
                slot[SLOT_WAITS + w as usize] = 1.0;
            }
        }
    }
    slot[SLOT_OUT] = if g.out[s] { 1.0 } else { 0.0 };
    if g.void[s] >= 0 && !hidden_void {
        slot[SLOT_VOID + g.void[s] as usize] = 1.0;
    }
    slot[SLOT_SET_ASIDE] = g.won_tiles[s] as f32;
    let held: u32 = g.hands[s].iter().map(|&c| c as u32).sum();
    slot[SLOT_HELD] = (held as f64 / OBS_HELD_SCALE) as f32;
    slot[SLOT_PRESENT] = 1.0;
}

pub fn encode(g: &Game, seat: usize, obs: &mut [f32]) {
    let n = g.n;
    obs.fill(0.0);
    for (o, &c) in obs[OBS_HAND..OBS_HAND + N_KINDS].iter_mut().zip(&g.hands[seat]) {
        *o = c as f32;
    }
    if seat == g.current && g.phase == PHASE_TURN && g.drawn_from_wall {
        if let Some(t) = g.last_draw {
            obs[OBS_DRAWN + t as usize] = 1.0;
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
                obs[OBS_SLOTS + SLOT_CONCEALED_KONGS + m.tile as usize] += 1.0;
                obs[OBS_SLOTS + SLOT_HIDDEN_KONGS] -= 1.0;
            }
        }
    }
    if g.void[seat] >= 0 {
        obs[OBS_SLOTS + SLOT_VOID + g.void[seat] as usize] = 1.0;
    }
    obs[OBS_TILES_LEFT] = (g.tiles_left() as f64 / OBS_TILES_LEFT_SCALE) as f32;
    obs[OBS_PHASE + g.phase as usize] = 1.0;
    if let Some((who, tile)) = g.last_discard {
        obs[OBS_LAST_DISCARD + tile as usize] = 1.0;
        obs[OBS_LAST_DISCARDER + (who + n - seat) % n] = 1.0;
    }
    obs[OBS_DEALER + (g.dealer + n - seat) % n] = 1.0;
    if g.payments > 0 {
        for i in 0..n {
            obs[OBS_MONEY + i] = (g.totals[(seat + i) % n] as f64 / OBS_MONEY_SCALE) as f32;
        }
    }
}

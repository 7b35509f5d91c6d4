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

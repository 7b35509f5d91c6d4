//! A game set directly to a position: one seat's determinized view of a deal in play (its own
//! tiles, the others' sampled ones, the wall's sampled order), for the rollouts of the ``expert``
//! agent. ``majiang.engine.position`` builds the same state in Python, field for field, so both
//! engines play the same rollout from it.

use super::Game;
use crate::score::{Meld, MeldKind, Rules};
use crate::seats::Seats;
use crate::spec::{
    DECLARED_NONE, POS_ACTOR, POS_COUNTS, POS_DEALER, POS_DECLARED, POS_MELD, POS_MELDS, POS_MELD_CONCEALED,
    POS_MELD_PONG, POS_MODE, POS_MODE_CLAIM, POS_OUT, POS_SEATS, POS_SEAT_LEN, POS_TILE, POS_VOID, POS_WAITS, POS_WALL,
    POS_WALL_LEN,
};

impl Game {
    /// The game at ``pos`` (``POS_*`` layout), or None when it does not describe one. Nothing
    /// has been paid, won or konged before it (the rollout's points are what moves from here),
    /// and nobody can win 天胡/地胡 any more.
    pub fn from_position(rules: Rules, pos: &[i64]) -> Option<Game> {
        let n = rules.players;
        let dealer = pos[POS_DEALER] as usize;
        if dealer >= n {
            return None;
        }
        let full: Vec<u8> = rules.kinds.iter().flat_map(|&k| [k; 4]).collect();
        let mut g = Game::new(rules, full, dealer, (1, 1));
        let len = pos[POS_WALL_LEN] as usize;
        g.wall = pos[POS_WALL..POS_WALL + len].iter().map(|&t| t as u8).collect();
        g.front = 0;
        g.back = len;
        g.declare_order.clear();
        for s in 0..n {
            let at = POS_SEATS + s * POS_SEAT_LEN;
            for k in 0..30 {
                g.hands[s][k] = pos[at + POS_COUNTS + k] as u8;
            }
            g.void[s] = pos[at + POS_VOID] as i8;
            g.out[s] = pos[at + POS_OUT] != 0;
            let kind = pos[at + POS_DECLARED] as u8;
            g.declared[s] = kind != DECLARED_NONE;
            g.declared_kind[s] = kind;
            let bits = pos[at + POS_WAITS];
            g.declared_waits[s] = (0..30u8).filter(|&k| bits >> k & 1 == 1).collect();
            if kind != DECLARED_NONE {
                g.declare_order.push(s);
            }
            g.melds[s] = (0..pos[at + POS_MELDS] as usize)
                .map(|i| {
                    let k = pos[at + POS_MELD + 2 * i] as usize;
                    let kind = match k {
                        POS_MELD_PONG => MeldKind::Pong,
                        POS_MELD_CONCEALED => MeldKind::Concealed,
                        _ => MeldKind::Kong,
                    };
                    Meld { kind, tile: pos[at + POS_MELD + 2 * i + 1] as u8 }
                })
                .collect();
            g.discards[s].clear();
            g.draws_by_seat[s] = 2;
            g.passed_win[s] = None;
            g.won_tiles[s] = 0;
            g.exchange_choice[s] = [0; 3];
        }
        g.pending = Seats::new(None, n);
        g.responses = Seats::new(None, n);
        g.any_claim = true;
        g.kong_chain = 0;
        g.discard_chain = 0;
        g.discard_last_four = false;
        g.last_discard = None;
        g.pending_kong = None;
        let actor = pos[POS_ACTOR] as usize;
        let tile = pos[POS_TILE];
        if actor >= n {
            return None;
        }
        if pos[POS_MODE] as usize == POS_MODE_CLAIM {
            let t = tile as u8;
            g.last_draw = None;
            g.drawn_from_wall = false;
            g.last_four_draw = false;
            g.current = actor;
            g.discards[actor].push(t);
            g.last_discard = Some((actor, t));
            g.phase = crate::spec::PHASE_TURN;
            g.open_claims(actor, t);
        } else {
            g.last_draw = if tile >= 0 { Some(tile as u8) } else { None };
            g.drawn_from_wall = tile >= 0;
            g.last_four_draw = tile >= 0 && len < 4;
            g.begin_turn(actor);
        }
        Some(g)
    }
}

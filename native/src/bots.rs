//! Opponents played inside the library: uniformly random legal actions, or ``majiang.agents``'
//! ``GreedyAgent`` decision for decision (its shanten, its tie-breaks, its ``random.Random(seed)``
//! draws), so a learner meets the same greedy bots on either engine.

use crate::game::{isolation, Game, Mask};
use crate::games::VariantPlay;
use crate::hand::Counts;
use crate::score::{Meld, MeldKind};
use crate::shanten::shanten;
use crate::spec::{
    ACTION_ADDED_KONG, ACTION_CONCEALED_KONG, ACTION_DECLARE, ACTION_DISCARD, ACTION_EXCHANGE, ACTION_KONG,
    ACTION_PASS, ACTION_PONG, ACTION_VOID, ACTION_WIN, DECLARED_SING, N_ACTIONS, N_KINDS, PHASE_CLAIM, PHASE_EXCHANGE,
    PHASE_ROB, PHASE_VOID, RET_OVER, ROLLOUT_CAREFUL,
};
use crate::wall::Mt;

pub enum Opponents {
    Random { state: u64 },
    Greedy { rngs: Vec<Mt> },
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Opponents {
    /// Let every seat but ``learner`` play until the learner must decide or the hand ends;
    /// returns the learner's seat, or -1.
    pub fn play(&mut self, g: &mut Game, learner: usize) -> i64 {
        while let Some(s) = g.to_act() {
            if s == learner {
                return s as i64;
            }
            let m = g.pending[s].unwrap();
            let action = match self {
                Opponents::Random { state } => {
                    let legal: Vec<u8> = (0..N_ACTIONS as u8).filter(|&i| m.has(i)).collect();
                    legal[(splitmix(state) % legal.len() as u64) as usize]
                }
                Opponents::Greedy { rngs } => greedy(g, s, &m, &mut rngs[s], false),
            };
            g.apply(s, action);
        }
        RET_OVER
    }
}

/// ``SeatView.shanten``: the seat's concealed ``counts`` with ``melds``.
fn view_shanten(g: &Game, seat: usize, counts: &Counts, melds: &[Meld]) -> i32 {
    let lay = g.play.layout(&g.r);
    let caps = if melds.is_empty() {
        None
    } else {
        let mut c = [4u8; 30];
        for m in melds {
            c[m.tile as usize] -= m.size();
        }
        Some(c)
    };
    let suits = if lay.two_suit_rule { melds.iter().fold(0u8, |acc, m| acc | 1 << (m.tile / 9)) } else { 0 };
    let void = g.play.void(g, seat);
    shanten(&lay, counts, 4 - melds.len(), void, caps.as_ref(), melds.is_empty(), suits)
}

fn suit_counts(c: &Counts) -> [u32; 3] {
    let mut out = [0u32; 3];
    for s in 0..3 {
        out[s] = c[s * 9..s * 9 + 9].iter().map(|&x| x as u32).sum();
    }
    out
}

/// The kinds another seat still in the hand has shown it wins on (亮倒's and 跳舞's waits; 唱歌
/// shows only that it is ready), a bit per kind: ``majiang.engine.safety.unsafe_tiles``.
fn revealed_waits(g: &Game, seat: usize) -> u32 {
    let mut bits = 0u32;
    for s in 0..g.r.players {
        if s != seat && !g.out[s] && g.declared[s] && g.declared_kind[s] != DECLARED_SING {
            for &w in &g.declared_waits[s] {
                bits |= 1 << w;
            }
        }
    }
    bits
}

/// ``GreedyAgent.act`` for ``seat`` with legal actions ``m`` (no discard of a revealed wait while
/// another is legal), or with ``careful`` ``CarefulAgent.act``: also, in Sichuan, a pong that
/// costs no shanten with more than eight tiles left.
fn greedy(g: &Game, seat: usize, m: &Mask, rng: &mut Mt, careful: bool) -> u8 {
    if m.has(ACTION_WIN) {
        return ACTION_WIN;
    }
    let counts = g.hands[seat];
    if g.phase == PHASE_EXCHANGE {
        let sc = suit_counts(&counts);
        let suit = (0..3).filter(|&s| sc[s] >= 3).min_by_key(|&s| (sc[s], s)).unwrap();
        return ACTION_EXCHANGE + suit as u8;
    }
    if g.phase == PHASE_VOID {
        let sc = suit_counts(&counts);
        let suit = (0..3).min_by_key(|&s| (sc[s], s)).unwrap();
        return ACTION_VOID + suit as u8;
    }
    let melds = &g.melds[seat];
    if g.phase == PHASE_CLAIM || g.phase == PHASE_ROB {
        let t = g.last_discard.map(|x| x.1).unwrap_or(0);
        let before = view_shanten(g, seat, &counts, melds);
        if m.has(ACTION_KONG) {
            let mut after = counts;
            after[t as usize] -= 3;
            let mut with = *melds;
            with.push(Meld { kind: MeldKind::Kong, tile: t });
            if view_shanten(g, seat, &after, &with) <= before {
                return ACTION_KONG;
            }
        }
        if m.has(ACTION_PONG) {
            let mut after = counts;
            after[t as usize] -= 2;
            let mut with = *melds;
            with.push(Meld { kind: MeldKind::Pong, tile: t });
            let s = view_shanten(g, seat, &after, &with);
            if s < before || (careful && !g.r.kawuxing && g.tiles_left() > 8 && s <= before) {
                return ACTION_PONG;
            }
        }
        return if m.has(ACTION_PASS) { ACTION_PASS } else { (0..N_ACTIONS as u8).find(|&i| m.has(i)).unwrap() };
    }
    // kongs in the engine's order: concealed by tile, then added in meld order
    let mut kongs: Vec<u8> = (0..N_KINDS as u8).map(|k| ACTION_CONCEALED_KONG + k).filter(|&a| m.has(a)).collect();
    kongs.extend(
        melds
            .iter()
            .filter(|md| md.kind == MeldKind::Pong && m.has(ACTION_ADDED_KONG + md.tile))
            .map(|md| ACTION_ADDED_KONG + md.tile),
    );
    let mut current: Option<i32> = None;
    for a in kongs {
        let cur = *current.get_or_insert_with(|| view_shanten(g, seat, &counts, melds));
        let mut after = counts;
        let mut with = *melds;
        if a < ACTION_ADDED_KONG {
            let t = a - ACTION_CONCEALED_KONG;
            after[t as usize] -= 4;
            with.push(Meld { kind: MeldKind::Concealed, tile: t });
        } else {
            let t = a - ACTION_ADDED_KONG;
            after[t as usize] -= 1;
            for md in with.iter_mut() {
                if md.tile == t && md.kind == MeldKind::Pong {
                    md.kind = MeldKind::Kong;
                }
            }
        }
        if view_shanten(g, seat, &after, &with) <= cur {
            return a;
        }
    }
    // greedy and careful alike: a shown wait sorts last (``majiang.engine.safety``)
    let forbidden = revealed_waits(g, seat);
    let mut best: Option<(bool, i32, i64, f64, u8)> = None;
    let mut c = counts;
    for k in 0..N_KINDS as u8 {
        if !m.has(ACTION_DISCARD + k) {
            continue;
        }
        c[k as usize] -= 1;
        let s = view_shanten(g, seat, &c, melds);
        c[k as usize] += 1;
        let key = (forbidden >> k & 1 == 1, s, isolation(&c, k as usize), rng.random(), k);
        let better = match best {
            None => true,
            Some(b) => {
                (key.0, key.1, key.2) < (b.0, b.1, b.2) || ((key.0, key.1, key.2) == (b.0, b.1, b.2) && key.3 < b.3)
            }
        };
        if better {
            best = Some(key);
        }
    }
    let tile = best.map(|b| b.4).unwrap_or_else(|| (0..N_ACTIONS as u8).find(|&i| m.has(i)).unwrap());
    if (tile as usize) < N_KINDS && m.has(ACTION_DECLARE + tile) {
        ACTION_DECLARE + tile
    } else {
        tile
    }
}

/// One decision of the rollout ``policy`` for ``seat`` (``GreedyAgent(key)``'s, or with
/// ``ROLLOUT_CAREFUL`` ``CarefulAgent(key)``'s, as a fresh agent would choose it): the action
/// index, or None when the seat has no decision. The web server's greedy bots decide this way,
/// one library call on the event loop instead of a trip to a worker process.
pub fn policy_act(g: &Game, seat: usize, key: u32, policy: i64) -> Option<u8> {
    let m = (*g.pending.get(seat)?)?;
    let mut rng = Mt::from_key(&[key]);
    Some(greedy(g, seat, &m, &mut rng, policy == ROLLOUT_CAREFUL))
}

/// One rollout: from the game at a position, ``seat`` plays ``action`` at its first decision and
/// the ``policy`` plays every decision after (``ROLLOUT_GREEDY``: ``GreedyAgent(seed)`` at each
/// seat, ``ROLLOUT_CAREFUL``: ``CarefulAgent(seed)``, the generator seeded by that seat's key).
/// Returns each seat's points from the position on, or None when ``action`` is not legal there.
pub fn rollout(mut g: Game, seat: usize, action: u8, keys: &[u32], policy: i64) -> Option<Vec<i64>> {
    let careful = policy == ROLLOUT_CAREFUL;
    let mut rngs: Vec<Mt> = keys.iter().map(|&k| Mt::from_key(&[k])).collect();
    let mut first = true;
    while let Some(s) = g.to_act() {
        let m = g.pending[s].unwrap();
        let a = if s == seat && first {
            first = false;
            action
        } else {
            greedy(&g, s, &m, &mut rngs[s], careful)
        };
        if !g.apply(s, a) {
            return None;
        }
    }
    if first {
        return None;
    }
    Some(g.totals.to_vec())
}

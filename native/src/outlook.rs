//! ``majiang.bots.outlook``: what a hand is worth over this seat's own future draws, the other
//! seats as a model per round. The same numbers as the Python reference, sample for sample: the
//! same loops in the same order (floating-point sums included), the same draws from the same
//! ``random.Random(key)`` shuffles, the same tie-breaks.

use std::collections::HashMap;

use crate::game::isolation;
use crate::games::{play_for, Play, VariantPlay};
use crate::hand::Counts;
use crate::score::{Ctx, Meld, MeldKind, Rules};
use crate::shanten::{shanten, Layout};
use crate::spec::{
    N_KINDS, OUTLOOK_COST, OUTLOOK_DECLARE, OUTLOOK_DECLARED_COST, OUTLOOK_END_DECLARED, OUTLOOK_END_READY,
    OUTLOOK_END_READY_VALUE, OUTLOOK_END_UNREADY, OUTLOOK_FEED_DECLARED, OUTLOOK_FEED_HIDDEN, OUTLOOK_HAZARD,
    OUTLOOK_MAX_ROUNDS, OUTLOOK_PAYERS, OUTLOOK_PLAN_PAIRS, OUTLOOK_ROUNDS, OUTLOOK_SHARES_DECLARED,
};
use crate::wall::Mt;

/// ``outlook.Model``: the other seats' effect, per round t = 1 … rounds (index 0 unused).
pub struct Model {
    pub rounds: usize,
    pub payers: f64,
    pub hazard: Vec<f64>,
    pub cost: Vec<f64>,
    pub declared_cost: Vec<f64>,
    pub feed_hidden: Vec<f64>,
    pub feed_declared: Vec<f64>,
    pub shares_declared: Vec<f64>,
    pub end_unready: f64,
    pub end_ready: f64,
    pub end_ready_value: f64,
    pub end_declared: f64,
    pub declare: bool,
}

impl Model {
    /// From the ``OUTLOOK_MODEL_LEN`` floats ``majiang.native.outlook`` writes.
    pub fn from_array(a: &[f64]) -> Model {
        let rounds = (a[OUTLOOK_ROUNDS].max(0.0) as usize).min(OUTLOOK_MAX_ROUNDS);
        let row = |at: usize| a[at..at + rounds + 1].to_vec();
        Model {
            rounds,
            payers: a[OUTLOOK_PAYERS],
            hazard: row(OUTLOOK_HAZARD),
            cost: row(OUTLOOK_COST),
            declared_cost: row(OUTLOOK_DECLARED_COST),
            feed_hidden: row(OUTLOOK_FEED_HIDDEN),
            feed_declared: row(OUTLOOK_FEED_DECLARED),
            shares_declared: row(OUTLOOK_SHARES_DECLARED),
            end_unready: a[OUTLOOK_END_UNREADY],
            end_ready: a[OUTLOOK_END_READY],
            end_ready_value: a[OUTLOOK_END_READY_VALUE],
            end_declared: a[OUTLOOK_END_DECLARED],
            declare: a[OUTLOOK_DECLARE] != 0.0,
        }
    }
}

/// ``outlook.pairs_shanten``: toward seven pairs alone (a four is two pairs).
fn pairs_shanten(c: &Counts) -> i32 {
    let pairs: i32 = c.iter().map(|&x| (x >> 1) as i32).sum();
    6 - pairs.min(7)
}

type Ready = (Vec<f64>, Vec<bool>);

/// ``outlook.Outlook``: one seat's hand under a model.
pub struct Outlook<'a> {
    r: &'a Rules,
    play: Play,
    lay: Layout,
    kinds: Vec<u8>,
    melds: Vec<Meld>,
    sets: usize,
    void: i8,
    caps: Option<Counts>,
    meld_suits: u8,
    prob: [f64; N_KINDS],
    pool: Vec<u8>,
    m: Model,
    t: usize,
    allowed: i64,
    scores: HashMap<(Counts, u8, bool, bool), f64>,
    ready_memo: HashMap<(Counts, u8), Ready>,
    one_memo: HashMap<(Counts, u8), Vec<f64>>,
}

impl<'a> Outlook<'a> {
    pub fn new(r: &'a Rules, melds: Vec<Meld>, void: i8, unseen: &[i64], m: Model, allowed: i64) -> Outlook<'a> {
        let play = play_for(r);
        let lay = play.layout(r);
        let kinds = r.kinds.clone();
        let caps = if melds.is_empty() {
            None
        } else {
            let mut c = [4u8; N_KINDS];
            for md in &melds {
                c[md.tile as usize] -= md.size();
            }
            Some(c)
        };
        let meld_suits = if lay.two_suit_rule { melds.iter().fold(0u8, |acc, md| acc | 1 << (md.tile / 9)) } else { 0 };
        let total: i64 = kinds.iter().map(|&k| unseen[k as usize]).sum();
        let mut prob = [0.0f64; N_KINDS];
        if total > 0 {
            for (k, p) in prob.iter_mut().enumerate() {
                *p = unseen[k] as f64 / total as f64;
            }
        }
        let mut pool = Vec::new();
        for &k in &kinds {
            for _ in 0..unseen[k as usize].max(0) {
                pool.push(k);
            }
        }
        let t = m.rounds.min(OUTLOOK_MAX_ROUNDS);
        let sets = 4 - melds.len();
        Outlook {
            r,
            play,
            lay,
            kinds,
            melds,
            sets,
            void,
            caps,
            meld_suits,
            prob,
            pool,
            m,
            t,
            allowed,
            scores: HashMap::new(),
            ready_memo: HashMap::new(),
            one_memo: HashMap::new(),
        }
    }

    fn suit_present(&self, su: usize) -> bool {
        self.lay.suits[su]
    }

    pub fn plans(&self, c: &Counts) -> Vec<u8> {
        let mut out = vec![0u8];
        let total: u32 = c.iter().map(|&x| x as u32).sum();
        let meld_bits = self.melds.iter().fold(0u32, |acc, md| acc | 1 << (md.tile / 9));
        for su in 0..3usize {
            if !self.suit_present(su) {
                continue;
            }
            if self.void == su as i8 || (meld_bits != 0 && meld_bits != 1 << su) {
                continue;
            }
            let n: u32 = c[su * 9..su * 9 + 9].iter().map(|&x| x as u32).sum();
            if n >= 6 && n + 5 >= total && self.allowed >> (1 + su) & 1 == 1 {
                out.push(1 + su as u8);
            }
        }
        if self.melds.is_empty()
            && self.allowed >> OUTLOOK_PLAN_PAIRS & 1 == 1
            && c.iter().filter(|&&x| x >= 2).count() >= 4
        {
            out.push(OUTLOOK_PLAN_PAIRS as u8);
        }
        out
    }

    pub fn shanten(&self, c: &Counts, plan: u8) -> i32 {
        if plan as usize == OUTLOOK_PLAN_PAIRS {
            return pairs_shanten(c);
        }
        let caps = self.caps.as_ref();
        let closed = self.melds.is_empty();
        if plan == 0 {
            return shanten(&self.lay, c, self.sets, self.void, caps, closed, self.meld_suits);
        }
        let start = (plan as usize - 1) * 9;
        let mut masked = [0u8; N_KINDS];
        masked[start..start + 9].copy_from_slice(&c[start..start + 9]);
        shanten(&self.lay, &masked, self.sets, self.void, caps, closed, self.meld_suits)
    }

    fn junk(&self, k: usize, plan: u8) -> bool {
        if self.void >= 0 && k / 9 == self.void as usize && k < 27 {
            return true;
        }
        (1..=3).contains(&plan) && k / 9 != plan as usize - 1
    }

    fn holdable(&self, c: &Counts, x: usize) -> bool {
        c[x] < 4 && self.caps.is_none_or(|cp| c[x] < cp[x])
    }

    fn win_value(&mut self, c: &Counts, x: u8, self_draw: bool, declared: bool) -> f64 {
        let key = (*c, x, self_draw, declared);
        if let Some(&v) = self.scores.get(&key) {
            return v;
        }
        let ctx = Ctx {
            self_draw,
            kong_chain: 0,
            robbed: false,
            last_tile: false,
            declared,
            heavenly: false,
            earthly: false,
            void: self.void,
        };
        let s = self.play.score(self.r, c, &self.melds, x, &ctx);
        let v = if s.win { s.multiplier as f64 } else { 0.0 };
        self.scores.insert(key, v);
        v
    }

    pub fn ready(&mut self, c: &Counts, plan: u8) -> Ready {
        if let Some(got) = self.ready_memo.get(&(*c, plan)) {
            return got.clone();
        }
        let t_end = self.t;
        let mut cc = *c;
        let mut waits = Vec::new();
        for i in 0..self.kinds.len() {
            let x = self.kinds[i] as usize;
            if self.prob[x] > 0.0 && self.holdable(&cc, x) {
                cc[x] += 1;
                if self.shanten(&cc, plan) == -1 {
                    waits.push(x as u8);
                }
                cc[x] -= 1;
            }
        }
        let options: &[bool] = if self.m.declare { &[false, true] } else { &[false] };
        let mut rows: Vec<Vec<f64>> = Vec::new();
        for &declared in options {
            let (mut ps, mut es, mut pw, mut ew, mut best_ron) = (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
            for &x in &waits {
                let px = self.prob[x as usize];
                let ron = self.win_value(c, x, false, declared);
                let own = self.win_value(c, x, true, declared);
                ps += px;
                es += px * own * self.m.payers;
                pw += px;
                ew += px * ron;
                if ron > best_ron {
                    best_ron = ron;
                }
            }
            let m = &self.m;
            let feed = if declared { &m.feed_declared } else { &m.feed_hidden };
            let shares = if declared { &m.shares_declared } else { &m.feed_hidden };
            let cost = if declared { &m.declared_cost } else { &m.cost };
            let mut v = vec![0.0f64; t_end + 1];
            v[t_end] = if declared { m.end_declared } else { m.end_ready + m.end_ready_value * best_ron };
            for t in (1..=t_end).rev() {
                let mut stay = 1.0 - m.hazard[t] - pw * feed[t];
                if stay < 0.0 {
                    stay = 0.0;
                }
                v[t - 1] = ew * shares[t] - cost[t] + stay * (es + (1.0 - ps) * v[t]);
            }
            rows.push(v);
        }
        let out = if rows.len() == 1 {
            (rows.pop().unwrap(), vec![false; t_end + 1])
        } else {
            let (hidden, shown) = (&rows[0], &rows[1]);
            (
                hidden.iter().zip(shown).map(|(&h, &s)| if h >= s { h } else { s }).collect(),
                hidden.iter().zip(shown).map(|(&h, &s)| s > h).collect(),
            )
        };
        self.ready_memo.insert((*c, plan), out.clone());
        out
    }

    pub fn one_away(&mut self, c: &Counts, plan: u8) -> Vec<f64> {
        if let Some(got) = self.one_memo.get(&(*c, plan)) {
            return got.clone();
        }
        let t_end = self.t;
        let mut cc = *c;
        let mut moves: Vec<(f64, Vec<f64>)> = Vec::new();
        let mut stay = 1.0f64;
        for i in 0..self.kinds.len() {
            let x = self.kinds[i] as usize;
            let px = self.prob[x];
            if px == 0.0 || !self.holdable(&cc, x) {
                continue;
            }
            cc[x] += 1;
            if self.shanten(&cc, plan) == 0 {
                let mut best: Option<Vec<f64>> = None;
                for j in 0..self.kinds.len() {
                    let d = self.kinds[j] as usize;
                    if cc[d] > 0 && d != x {
                        cc[d] -= 1;
                        if self.shanten(&cc, plan) == 0 {
                            let v = self.ready(&cc, plan).0;
                            best = Some(match best {
                                None => v,
                                Some(b) => b.iter().zip(&v).map(|(&a, &bb)| if a >= bb { a } else { bb }).collect(),
                            });
                        }
                        cc[d] += 1;
                    }
                }
                if let Some(b) = best {
                    moves.push((px, b));
                    stay -= px;
                }
            }
            cc[x] -= 1;
        }
        let m = &self.m;
        let mut v = vec![0.0f64; t_end + 1];
        v[t_end] = m.end_unready;
        for t in (1..=t_end).rev() {
            let mut acc = stay * v[t];
            for (px, best) in &moves {
                acc += px * best[t];
            }
            v[t - 1] = (1.0 - m.hazard[t]) * acc - m.cost[t];
        }
        self.one_memo.insert((*c, plan), v.clone());
        v
    }

    fn rollout(&mut self, counts: &Counts, plan: u8, order: &[u8], mut s: i32) -> f64 {
        let mut c = *counts;
        let mut survive = 1.0f64;
        let mut total = 0.0f64;
        for t in 1..=self.t {
            total -= survive * self.m.cost[t];
            survive *= 1.0 - self.m.hazard[t];
            let x = order[t - 1] as usize;
            if !self.holdable(&c, x) {
                continue;
            }
            c[x] += 1;
            let s14 = self.shanten(&c, plan);
            if s14 >= s {
                c[x] -= 1;
                continue;
            }
            if s14 == 1 {
                let mut best: Option<f64> = None;
                for j in 0..self.kinds.len() {
                    let d = self.kinds[j] as usize;
                    if c[d] > 0 && d != x {
                        c[d] -= 1;
                        if self.shanten(&c, plan) == 1 {
                            let v = self.one_away(&c, plan)[t];
                            if best.is_none_or(|b| v > b) {
                                best = Some(v);
                            }
                        }
                        c[d] += 1;
                    }
                }
                if let Some(b) = best {
                    return total + survive * b;
                }
            }
            let mut pick: Option<(u8, i64, usize)> = None;
            for j in 0..self.kinds.len() {
                let d = self.kinds[j] as usize;
                if c[d] > 0 {
                    c[d] -= 1;
                    if self.shanten(&c, plan) == s14 {
                        let key = (if self.junk(d, plan) { 0u8 } else { 1u8 }, isolation(&c, d), d);
                        if pick.is_none_or(|p| key < p) {
                            pick = Some(key);
                        }
                    }
                    c[d] += 1;
                }
            }
            c[pick.expect("a discard keeps the shanten").2] -= 1;
            s = s14;
        }
        total + survive * self.m.end_unready
    }

    /// The best plan's value for a hand waiting for a draw, and that plan.
    pub fn value(&mut self, c: &Counts, orders: &[Vec<u8>]) -> (f64, u8) {
        let mut best: Option<(f64, u8)> = None;
        for plan in self.plans(c) {
            let s = self.shanten(c, plan);
            if s >= 98 {
                continue;
            }
            let v = if s == 0 {
                self.ready(c, plan).0[0]
            } else if s == 1 {
                self.one_away(c, plan)[0]
            } else if orders.is_empty() {
                continue;
            } else {
                let mut acc = 0.0f64;
                for order in orders {
                    acc += self.rollout(c, plan, order, s);
                }
                acc / orders.len() as f64
            };
            if best.is_none_or(|b| v > b.0) {
                best = Some((v, plan));
            }
        }
        best.unwrap_or((-1.0e9, 0))
    }

    /// ``samples`` orders of this seat's next draws: the pool shuffled by ``random.Random(key)``.
    pub fn orders(&self, samples: usize, key: u32) -> Vec<Vec<u8>> {
        let mut rng = Mt::from_key(&[key]);
        (0..samples)
            .map(|_| {
                let mut pool = self.pool.clone();
                for i in (1..pool.len()).rev() {
                    let j = rng.below(i as u32 + 1) as usize;
                    pool.swap(i, j);
                }
                pool.truncate(self.t);
                pool
            })
            .collect()
    }
}

/// ``outlook.evaluate``: each candidate discard's (value, plan, declare) over the same orders.
#[allow(clippy::too_many_arguments)]
pub fn evaluate(
    r: &Rules,
    counts: &Counts,
    melds: Vec<Meld>,
    void: i8,
    unseen: &[i64],
    m: Model,
    samples: usize,
    key: u32,
    candidates: &[u8],
    plans: i64,
) -> Vec<(f64, u8, bool)> {
    let declare_ok = m.declare;
    let mut out = Outlook::new(r, melds, void, unseen, m, plans);
    let orders = out.orders(samples, key);
    let mut c = *counts;
    let mut result = Vec::with_capacity(candidates.len());
    for &k in candidates {
        let k = k as usize;
        c[k] -= 1;
        let (v, plan) = out.value(&c, &orders);
        let declare = declare_ok && out.shanten(&c, plan) == 0 && out.ready(&c, plan).1[0];
        c[k] += 1;
        result.push((v, plan, declare));
    }
    result
}

/// ``outlook.evaluate_waiting``: a hand waiting for a draw, its best plan's value and that plan.
#[allow(clippy::too_many_arguments)]
pub fn evaluate_waiting(
    r: &Rules,
    counts: &Counts,
    melds: Vec<Meld>,
    void: i8,
    unseen: &[i64],
    m: Model,
    samples: usize,
    key: u32,
    plans: i64,
) -> (f64, u8) {
    let mut out = Outlook::new(r, melds, void, unseen, m, plans);
    let orders = out.orders(samples, key);
    out.value(counts, &orders)
}

/// A meld from its ``POS_MELD_*`` code and tile.
pub fn meld_of(kind: i64, tile: i64) -> Meld {
    let kind = match kind {
        0 => MeldKind::Pong,
        1 => MeldKind::Kong,
        _ => MeldKind::Concealed,
    };
    Meld { kind, tile: tile as u8 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::OUTLOOK_MODEL_LEN;

    #[test]
    fn seven_pairs_count_a_four_as_two_pairs() {
        let mut c = [0u8; N_KINDS];
        c[9] = 4; // 1111p
        c[19] = 2; // 22s
        c[20] = 2; // 33s
        c[27] = 2; // 55z
        c[28] = 2; // 66z
        c[29] = 1; // 7z
        assert_eq!(pairs_shanten(&c), 0);
        c[29] = 2;
        assert_eq!(pairs_shanten(&c), -1);
    }

    #[test]
    fn a_model_reads_its_rows_up_to_its_rounds() {
        let mut a = vec![0.0f64; OUTLOOK_MODEL_LEN];
        a[OUTLOOK_ROUNDS] = 3.0;
        a[OUTLOOK_PAYERS] = 2.0;
        a[OUTLOOK_DECLARE] = 1.0;
        for t in 0..=3 {
            a[OUTLOOK_HAZARD + t] = t as f64 / 10.0;
            a[OUTLOOK_COST + t] = t as f64;
        }
        a[OUTLOOK_END_DECLARED] = -2.0;
        let m = Model::from_array(&a);
        assert_eq!(m.rounds, 3);
        assert_eq!(m.hazard, vec![0.0, 0.1, 0.2, 0.3]);
        assert_eq!(m.cost, vec![0.0, 1.0, 2.0, 3.0]);
        assert!(m.declare && m.payers == 2.0 && m.end_declared == -2.0);
        a[OUTLOOK_ROUNDS] = 1000.0; // never past the rows
        assert_eq!(Model::from_array(&a).rounds, OUTLOOK_MAX_ROUNDS);
    }
}

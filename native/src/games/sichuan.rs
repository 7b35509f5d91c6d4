//! Sichuan (血战到底), as ``majiang.sichuan``: its ``SichuanPlay`` (换三张 and 定缺, the void
//! suit, 唱歌/跳舞, kong money and 杠上炮 refunds or 呼叫转移, 血战 / 血流 play after a win, 查花猪
//! and 查大叫 at a draw) and ``score_win`` reduced to the multiplier (2^番).

use super::VariantPlay;
use crate::game::{held_kinds, Game, KindBits, KongKind, Payment, WinRecord};
use crate::hand::{Counts, Reading};
use crate::score::{complete_hand, suit_count, Ctx, Meld, Rules, Score};
use crate::spec::{
    ACTION_DECLARE, ACTION_SING, CAP_FAN_NONE, DECLARED_DANCE, DECLARED_SING, EARTHLY_FIRST_ROUND,
    LATE_ADDED_KONG_FORBID, LATE_ADDED_KONG_NONE, N_KINDS, PHASE_EXCHANGE, PHASE_VOID, SELF_DRAW_BONUS_BASE,
    SELF_DRAW_BONUS_FAN,
};

pub struct Sichuan;

impl VariantPlay for Sichuan {
    fn two_suit_rule(&self) -> bool {
        true
    }

    fn dragons(&self) -> bool {
        false
    }

    fn setup_phase(&self, r: &Rules) -> u8 {
        if r.exchange_three {
            PHASE_EXCHANGE
        } else {
            PHASE_VOID
        }
    }

    fn void(&self, g: &Game, seat: usize) -> i8 {
        g.void[seat]
    }

    /// The void suit goes first; a dancer's waits are kept back while other tiles remain.
    fn can_discard(&self, g: &Game, seat: usize, tile: u8) -> bool {
        if holds_void(g, seat) {
            return (tile / 9) as i8 == g.void[seat];
        }
        if g.r.sing_dance && !g.declared[seat] {
            let protected = dancers_waits(g, seat);
            if protected[tile as usize] {
                return (0..N_KINDS).all(|k| g.hands[seat][k] == 0 || protected[k]);
            }
        }
        true
    }

    fn discardable(&self, g: &Game, seat: usize) -> KindBits {
        let held = held_kinds(&g.hands[seat]);
        let v = g.void[seat];
        if v >= 0 {
            let vt = held & 0x1ff << (9 * v as u32);
            if vt != 0 {
                return vt;
            }
        }
        if g.r.sing_dance && !g.declared[seat] {
            let protected = dancers_waits(g, seat);
            let safe = held & !(0..N_KINDS).fold(0, |b, k| b | (protected[k] as KindBits) << k);
            if safe != 0 {
                return safe;
            }
        }
        held
    }

    fn can_claim_tile(&self, g: &Game, seat: usize, tile: u8) -> bool {
        (tile / 9) as i8 != g.void[seat]
    }

    fn declare_actions(&self, r: &Rules) -> &'static [u8] {
        if r.sing_dance {
            &[ACTION_DECLARE, ACTION_SING] // 跳舞, 唱歌
        } else {
            &[]
        }
    }

    fn added_kong_only_at_once(&self, r: &Rules) -> bool {
        r.late_added_kong == LATE_ADDED_KONG_FORBID
    }

    fn must_win(&self, r: &Rules) -> bool {
        r.last_four_must_win
    }

    fn earthly_on_discard(&self, r: &Rules) -> bool {
        r.earthly == EARTHLY_FIRST_ROUND
    }

    fn pass_allows_bigger(&self, r: &Rules) -> bool {
        r.pass_win_unless_more
    }

    fn winners_play_on(&self, r: &Rules) -> bool {
        r.blood_river
    }

    fn declare(&self, g: &mut Game, seat: usize, sing: bool) {
        g.declared_kind[seat] = if sing { DECLARED_SING } else { DECLARED_DANCE };
    }

    fn score(&self, r: &Rules, counts: &Counts, melds: &[Meld], win: u8, ctx: &Ctx) -> Score {
        match complete_hand(counts, melds, win, Some(ctx.void)) {
            Some(c) => score_win(r, &c.full, &c.totals, melds, ctx, &c.readings),
            None => Score::default(),
        }
    }

    fn kong_payments(
        &self,
        g: &Game,
        seat: usize,
        kind: KongKind,
        discarder: usize,
        _chain: i64,
        at_once: bool,
    ) -> Vec<Payment> {
        let r = &g.r;
        if !r.kong_money || (kind == KongKind::Added && !at_once && r.late_added_kong == LATE_ADDED_KONG_NONE) {
            return Vec::new(); // 未即时加杠的不收取分数
        }
        match kind {
            KongKind::Direct => vec![Payment { payer: discarder, payee: seat, amount: r.direct_kong_pay * r.base }],
            _ => {
                let each = if kind == KongKind::Concealed { 2 * r.base } else { r.base };
                payers(g, seat).into_iter().map(|s| Payment { payer: s, payee: seat, amount: each }).collect()
            }
        }
    }

    fn win_payments(&self, g: &mut Game, w: &WinRecord) -> Vec<Payment> {
        let base = g.r.base;
        let value = w.score.multiplier * base;
        if w.self_draw {
            let bonus = if g.r.self_draw_bonus == SELF_DRAW_BONUS_BASE { base } else { 0 };
            return payers(g, w.seat)
                .into_iter()
                .map(|s| Payment { payer: s, payee: w.seat, amount: value + bonus })
                .collect();
        }
        let mut out = vec![Payment { payer: w.discarder, payee: w.seat, amount: value }];
        if !w.robbed && g.discard_chain > 0 {
            out.extend(gangshangpao(g, w));
        }
        out
    }

    /// 血战: the winners are out and play goes on while two remain; 血流: everyone plays on.
    fn after_wins(&self, g: &mut Game, wins: &[WinRecord]) -> bool {
        if !g.r.blood_battle {
            return false;
        }
        if g.r.blood_river {
            return true;
        }
        for w in wins {
            g.out[w.seat] = true;
        }
        g.out.iter().filter(|&&o| !o).count() >= 2
    }

    /// 查花猪 (a hand of three suits, or holding its void, pays every clean hand), 查大叫 (a hand
    /// not ready pays every ready one its best value), and kong money back from hands not ready.
    fn draw_settlement(&self, g: &Game) -> Vec<Payment> {
        let r = &g.r;
        let mut out = Vec::new();
        let active: Vec<usize> = (0..g.n).filter(|&s| !g.out[s]).collect();
        if active.len() < 2 {
            return out;
        }
        let pigs: Vec<usize> = active.iter().copied().filter(|&s| is_pig(g, s)).collect();
        let fine = r.flower_pig_penalty * r.base;
        for &p in &pigs {
            for &s in &active {
                if !pigs.contains(&s) {
                    out.push(Payment { payer: p, payee: s, amount: fine });
                }
            }
        }
        let values: Vec<(usize, i64)> =
            active.iter().copied().filter(|s| !pigs.contains(s)).map(|s| (s, best_ready_value(g, s))).collect();
        let ready: Vec<usize> = values.iter().filter(|v| v.1 > 0).map(|v| v.0).collect();
        for &(nr, v) in &values {
            if v == 0 {
                for &(rd, rv) in &values {
                    if rv > 0 {
                        out.push(Payment { payer: nr, payee: rd, amount: rv });
                    }
                }
            }
        }
        for k in &g.kongs {
            if ready.contains(&k.seat) || g.out[k.seat] || k.settled {
                continue;
            }
            for p in &k.payments {
                if p.payee == k.seat && !g.out[p.payer] {
                    out.push(Payment { payer: k.seat, payee: p.payer, amount: p.amount });
                }
            }
        }
        out
    }
}

/// The seats still in the hand that pay ``seat`` (``_payers``).
fn payers(g: &Game, seat: usize) -> Vec<usize> {
    (0..g.n).filter(|&s| s != seat && !g.out[s]).collect()
}

/// 杠上炮: the discarder's last kong money is refunded, or (呼叫转移) passed to the winner.
fn gangshangpao(g: &mut Game, w: &WinRecord) -> Vec<Payment> {
    let i = match g.kongs.iter().rposition(|k| k.seat == w.discarder) {
        Some(i) if !g.kongs[i].settled => i,
        _ => return Vec::new(),
    };
    g.kongs[i].settled = true;
    let received: Vec<(usize, i64)> =
        g.kongs[i].payments.iter().filter(|p| p.payee == w.discarder).map(|p| (p.payer, p.amount)).collect();
    if g.r.call_transfer {
        let total: i64 = received.iter().map(|x| x.1).sum();
        return vec![Payment { payer: w.discarder, payee: w.seat, amount: total }];
    }
    received
        .into_iter()
        .filter(|&(payer, _)| !g.out[payer] || payer == w.seat)
        .map(|(payer, amount)| Payment { payer: w.discarder, payee: payer, amount })
        .collect()
}

fn holds_void(g: &Game, seat: usize) -> bool {
    let v = g.void[seat];
    v >= 0 && g.hands[seat][v as usize * 9..v as usize * 9 + 9].iter().any(|&c| c > 0)
}

fn dancers_waits(g: &Game, seat: usize) -> [bool; N_KINDS] {
    let mut out = [false; N_KINDS];
    for s in 0..g.n {
        if s != seat && !g.out[s] && g.declared_kind[s] == DECLARED_DANCE {
            for &t in &g.declared_waits[s] {
                out[t as usize] = true;
            }
        }
    }
    out
}

fn is_pig(g: &Game, seat: usize) -> bool {
    let mut suits = [false; 3];
    for k in 0..27 {
        if g.hands[seat][k] > 0 {
            suits[k / 9] = true;
        }
    }
    for m in &g.melds[seat] {
        if m.tile < 27 {
            suits[(m.tile / 9) as usize] = true;
        }
    }
    suits.iter().all(|&x| x) || holds_void(g, seat)
}

/// 查大叫: the highest value the ready hand could win (0 if not ready).
fn best_ready_value(g: &Game, seat: usize) -> i64 {
    let counts = &g.hands[seat];
    let n: u32 = counts.iter().map(|&c| c as u32).sum();
    if n % 3 != 1 {
        return 0;
    }
    let melds = &g.melds[seat];
    let mut best = 0;
    for t in g.waits_of(seat, counts, melds) {
        let ctx = Ctx { void: g.void[seat], ..Ctx::default() };
        let s = Sichuan.score(&g.r, counts, melds, t, &ctx);
        if s.win {
            best = best.max(s.multiplier * g.r.base);
        }
    }
    best
}

/// ``score_win``: the best reading's 番 (pattern, roots, situation), capped, as 2^番.
fn rank(t: u8) -> u8 {
    t % 9 + 1
}

fn score_win(r: &Rules, full: &Counts, totals: &Counts, melds: &[Meld], ctx: &Ctx, rs: &[Reading]) -> Score {
    let roots_all = totals.iter().filter(|&&x| x == 4).count() as i64;
    let mut situation = 0i64;
    let kongs = if r.gangshang_chain { ctx.kong_chain } else { 1 }; // 成都: "每杠", per kong of the chain
    if ctx.kong_chain > 0 && ctx.self_draw {
        situation += r.gangshanghua_fan * kongs;
    } else if ctx.kong_chain > 0 {
        situation += kongs;
    }
    if ctx.robbed {
        situation += r.robbed_kong_fan;
    }
    if ctx.last_tile && r.sichuan_haidi {
        situation += 1;
    }
    if ctx.self_draw && r.self_draw_bonus == SELF_DRAW_BONUS_FAN {
        situation += 1;
    }
    let qing = suit_count(full, melds).0 == 1;
    let mut best_total = -1i64;
    for rd in rs {
        let (mut pattern, mut used): (Option<i64>, i64) = (None, 0);
        if rd.seven {
            let fours = full.iter().filter(|&&x| x == 4).count();
            pattern = Some(match (fours > 0, qing) {
                (true, true) => 5,
                (true, false) => 4,
                (false, true) => 4,
                (false, false) => 2,
            });
            used = if fours > 0 { 1 } else { 0 };
        } else {
            let mut sets: Vec<(u8, u8)> = rd.sets.clone();
            sets.extend(melds.iter().map(|m| (1u8, m.tile)));
            let pr = rank(rd.pair);
            if sets.iter().all(|s| s.0 == 1) {
                let jiang = sets.iter().all(|s| matches!(rank(s.1), 2 | 5 | 8)) && matches!(pr, 2 | 5 | 8);
                let golden = melds.len() == 4;
                pattern = Some(if golden && (qing || jiang) {
                    4
                } else if golden {
                    2
                } else if qing || jiang {
                    3
                } else {
                    1
                });
            } else {
                let terminal =
                    |s: &(u8, u8)| if s.0 == 0 { matches!(rank(s.1), 1 | 7) } else { matches!(rank(s.1), 1 | 9) };
                if sets.iter().all(terminal) && matches!(pr, 1 | 9) {
                    pattern = Some(if qing { 4 } else { 2 });
                } else if qing {
                    pattern = Some(2);
                }
            }
        }
        if r.heavenly_earthly && (ctx.heavenly || ctx.earthly) && pattern.is_none_or(|p| 5 >= p) {
            pattern = Some(5);
            used = 0;
        }
        let total = pattern.unwrap_or(0) + (roots_all - used) + situation;
        if total > best_total {
            best_total = total;
        }
    }
    if best_total < 0 {
        return Score::default();
    }
    let fan = if r.cap_fan > CAP_FAN_NONE { best_total.min(r.cap_fan) } else { best_total };
    Score { win: true, multiplier: 1i64 << fan, uncapped: best_total, kan: 0 }
}

/// Worked hands of ``tests/engine/test_engine_sichuan.py``.
#[cfg(test)]
mod tests {
    use super::super::testing::{act, game_with, sichuan_one_win, tile, SICHUAN};
    use crate::spec::{
        ACTION_DISCARD, ACTION_PASS, ACTION_WIN, OPT_HEAVENLY_EARTHLY, OPT_SELF_DRAW_BONUS, PHASE_TURN,
        SELF_DRAW_BONUS_BASE,
    };

    const T0: &str = "1133557799m2458p"; // dealer, two suits (void s), not ready
    const T1: &str = "123m456m789m11p55p"; // ready: 1p, 5p (void s)
    const T2: &str = "234s567s678s999s5p"; // ready: 5p tanki (void m)
    const T3: &str = "111s222s333s444s6p"; // ready: 6p tanki (void m)

    #[test]
    fn voids_are_automatic_for_two_suit_hands() {
        let g = game_with(&SICHUAN, &[T0, T1, T2, T3], 0, "");
        assert_eq!(g.void, vec![2, 2, 0, 0]);
        assert_eq!(g.phase, PHASE_TURN);
    }

    #[test]
    fn multiple_ron_then_blood_battle_goes_on() {
        let mut g = game_with(&SICHUAN, &[T0, T1, T2, T3], 0, "6p");
        act(&mut g, 0, ACTION_DISCARD + tile("5p"));
        act(&mut g, 1, ACTION_WIN);
        act(&mut g, 2, ACTION_WIN);
        assert_eq!(g.totals, vec![-2, 1, 1, 0]); // (0, 1, 1, "点炮"), (0, 2, 1, "点炮")
        assert!(!g.over() && g.out == vec![false, true, true, false]);
        // seat 3 draws 6p and self-draws: only the players still in pay
        assert_eq!(g.to_act(), Some(3));
        act(&mut g, 3, ACTION_WIN);
        assert_eq!(g.totals, vec![-4, 1, 1, 2]); // (0, 3, 2, "自摸"): 对对胡, 1 番
        assert!(g.over() && g.wins[2].self_draw && g.wins[2].score.multiplier == 2);
        assert_eq!(g.next_dealer(), 0); // the first win was a multiple ron: the discarder deals
    }

    #[test]
    fn standard_mode_one_win_ends_the_hand() {
        let mut g = game_with(&sichuan_one_win(), &[T0, T1, T2, T3], 0, "");
        act(&mut g, 0, ACTION_DISCARD + tile("5p"));
        act(&mut g, 1, ACTION_WIN);
        act(&mut g, 2, ACTION_PASS);
        assert!(g.over());
        assert_eq!(g.totals, vec![-1, 1, 0, 0]); // (0, 1, 1, "点炮")
        assert_eq!(g.next_dealer(), 1);
    }

    #[test]
    fn self_draw_bonus_base_every_other_seat_pays() {
        let mut config = SICHUAN;
        config[OPT_SELF_DRAW_BONUS] = SELF_DRAW_BONUS_BASE;
        config[OPT_HEAVENLY_EARTHLY] = 0;
        let mut g = game_with(&config, &[T0, T1, T2, T3], 0, "1p");
        act(&mut g, 0, ACTION_DISCARD + tile("2p"));
        assert_eq!(g.to_act(), Some(1));
        act(&mut g, 1, ACTION_WIN);
        assert_eq!(g.totals, vec![-2, 6, -2, -2]); // (0, 1, 2, "自摸"), (2, 1, 2, "自摸"), (3, 1, 2, "自摸")
        assert!(g.wins[0].self_draw && !g.over()); // 血战: the others play on
    }
}

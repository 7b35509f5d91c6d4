//! Kawuxing (卡五星), as ``majiang.kawuxing``: its ``KawuxingPlay`` (亮倒, kong money doubling
//! along a chain, 包胡, piao / 数坎 / 买马 extras, the draw penalty of declared hands) and
//! ``score_win`` reduced to the multiplier and the 坎 count.

use super::VariantPlay;
use crate::game::{Game, KongKind, Payment, WinRecord};
use crate::hand::{Counts, Reading};
use crate::score::{complete_hand, suit_count, Ctx, Meld, MeldKind, Rules, Score};
use crate::spec::{
    ACTION_DECLARE, DECLARED_LIANGDAO, KAWUXING_HAIDI_BOTH, KAWUXING_HAIDI_NONE, LIANGDAO_DRAW_PENALTY_COUNT,
    LIANGDAO_DRAW_PENALTY_FIRST, SIGUI_FULL, SIGUI_HALF, SIGUI_HALF_CONCEALED,
};

pub struct Kawuxing;

impl VariantPlay for Kawuxing {
    fn two_suit_rule(&self) -> bool {
        false
    }

    fn dragons(&self) -> bool {
        true
    }

    fn declare_actions(&self, _r: &Rules) -> &'static [u8] {
        &[ACTION_DECLARE] // 亮倒
    }

    fn last_tile_discards_drawn(&self) -> bool {
        true
    }

    fn added_kong_only_at_once(&self, _r: &Rules) -> bool {
        true
    }

    fn kong_chain_spans_players(&self) -> bool {
        true // "如果A杠后打出的牌被别人杠…第二杠要翻倍": another player's kong continues the chain
    }

    fn pass_allows_bigger(&self, r: &Rules) -> bool {
        r.louhu_unless_more
    }

    fn declare(&self, g: &mut Game, seat: usize, _sing: bool) {
        g.declared_kind[seat] = DECLARED_LIANGDAO;
        g.declare_order.push(seat);
    }

    fn score(&self, r: &Rules, counts: &Counts, melds: &[Meld], win: u8, ctx: &Ctx) -> Score {
        match complete_hand(counts, melds, win, None) {
            Some(c) => score_win(r, counts, &c.full, melds, win, ctx, &c.readings),
            None => Score::default(),
        }
    }

    fn kong_payments(
        &self,
        g: &Game,
        seat: usize,
        kind: KongKind,
        discarder: usize,
        chain: i64,
        _at_once: bool,
    ) -> Vec<Payment> {
        let r = &g.r;
        let unit = r.base * (1i64 << (chain - 1));
        let each = match kind {
            KongKind::Direct => r.direct_kong_pay,
            KongKind::Concealed => 2,
            KongKind::Added => 1,
        };
        let amount = if r.cap > 0 { (each * unit).min(r.cap * r.base) } else { each * unit }; // 满
        if kind == KongKind::Direct {
            return vec![Payment { payer: discarder, payee: seat, amount }];
        }
        (0..g.n).filter(|&s| s != seat).map(|s| Payment { payer: s, payee: seat, amount }).collect()
    }

    fn win_payments(&self, g: &mut Game, w: &WinRecord) -> Vec<Payment> {
        let r = &g.r;
        let base = r.base;
        let value = w.score.multiplier * base;
        let mut extras: Vec<i64> = Vec::new();
        if r.piao > 0 {
            extras.push(2 * r.piao * base);
        }
        if r.shukan && w.score.kan > 0 {
            extras.push(w.score.kan * base);
        }
        if r.maima && w.self_draw && g.tiles_left() > 0 {
            let horse = g.wall[g.front];
            let points = if horse >= 27 { 10 } else { (horse % 9 + 1) as i64 };
            extras.push(points * base);
        }
        let (payers, shares): (Vec<usize>, i64) = if w.self_draw {
            ((0..g.n).filter(|&s| s != w.seat).collect(), 1)
        } else if g.declared[w.seat] && !g.declared[w.discarder] {
            (vec![w.discarder], 2) // 包胡
        } else {
            (vec![w.discarder], 1)
        };
        let mut out: Vec<Payment> =
            payers.iter().map(|&p| Payment { payer: p, payee: w.seat, amount: shares * value }).collect();
        for a in extras {
            out.extend(payers.iter().map(|&p| Payment { payer: p, payee: w.seat, amount: shares * a }));
        }
        out
    }

    /// Declared hands pay the undeclared ones, or (``liangdao_draw_penalty`` "first" and
    /// "first_pays") the first to declare pays everyone.
    fn draw_settlement(&self, g: &Game) -> Vec<Payment> {
        let r = &g.r;
        let mut out = Vec::new();
        let declared: Vec<usize> = (0..g.n).filter(|&s| g.declared[s]).collect();
        if declared.is_empty() {
            return out;
        }
        if r.liangdao_draw_penalty != LIANGDAO_DRAW_PENALTY_COUNT {
            let first = g.declare_order[0];
            for s in 0..g.n {
                if s != first {
                    out.push(Payment { payer: first, payee: s, amount: r.base });
                }
            }
            return out;
        }
        for &d in &declared {
            for u in 0..g.n {
                if !g.declared[u] {
                    out.push(Payment { payer: d, payee: u, amount: r.base });
                }
            }
        }
        out
    }

    /// After a draw with the "first" penalty, the first to declare deals.
    fn next_dealer(&self, g: &Game) -> usize {
        if g.wins.is_empty() && g.r.liangdao_draw_penalty == LIANGDAO_DRAW_PENALTY_FIRST && !g.declare_order.is_empty()
        {
            return g.declare_order[0];
        }
        super::next_dealer(g)
    }
}

/// ``score_win``: the best reading's multiplier (after the cap) and its 坎 count.
fn score_win(r: &Rules, hand: &Counts, full: &Counts, melds: &[Meld], win: u8, ctx: &Ctx, rs: &[Reading]) -> Score {
    let mut situation = 1i64;
    if ctx.kong_chain > 0 && ctx.self_draw {
        situation *= 1 << ctx.kong_chain; // 杠上开花
    } else if ctx.kong_chain > 0 {
        situation *= if r.gangshangpao_chain { 1 << ctx.kong_chain } else { 2 };
        // 杠上炮
    }
    if ctx.robbed {
        situation *= 2;
    }
    if ctx.last_tile
        && r.kawuxing_haidi != KAWUXING_HAIDI_NONE
        && (ctx.self_draw || r.kawuxing_haidi == KAWUXING_HAIDI_BOTH)
    {
        situation *= 2; // 海底捞 / 海底炮
    }
    if ctx.declared {
        situation *= 2; // 亮倒
    }
    let (nsuits, honours) = suit_count(full, melds);
    let one_suit = nsuits == 1 && !honours;
    let w = win as usize;
    let mut best_value = 0i64;
    let mut best: Option<&Reading> = None;
    for rd in rs {
        let mut v = if one_suit { 4 } else { 1 };
        if rd.seven {
            let fours = full.iter().filter(|&&x| x == 4).count();
            v *= [4, 8, 16, 32][fours];
        } else {
            let mut triplet_tiles: Vec<u8> = rd.sets.iter().filter(|s| s.0 == 1).map(|s| s.1).collect();
            triplet_tiles.extend(melds.iter().map(|m| m.tile));
            if rd.sets.iter().all(|s| s.0 == 1) {
                v *= 2; // 碰碰胡
            }
            let dragons = triplet_tiles.iter().filter(|&&t| t >= 27).count();
            let mut big = one_suit;
            if dragons == 3 {
                v *= 8;
                big = true;
            } else if dragons == 2 && rd.pair >= 27 {
                v *= 4;
                big = true;
            }
            if win < 27 && win % 9 == 4 && rd.sets.contains(&(0, win - 1)) {
                v *= 2; // 卡五星
            }
            if melds.len() == 4 {
                v *= r.shouzhuayi;
            }
            let is_pong = |k: usize| melds.iter().any(|m| m.kind == MeldKind::Pong && m.tile as usize == k);
            if is_pong(w) {
                v *= 2; // 明四归
            } else if hand[w] == 3 {
                v *= 4; // 暗四归
            }
            let half = r.sigui == SIGUI_HALF || r.sigui == SIGUI_HALF_CONCEALED;
            if r.sigui == SIGUI_FULL || (half && big) {
                for (k, &fk) in full.iter().enumerate() {
                    if k == w {
                        continue;
                    }
                    if fk == 4 {
                        v *= 4;
                    } else if is_pong(k) && fk == 1 && r.sigui != SIGUI_HALF_CONCEALED {
                        v *= 2; // 随州: a pong's kept fourth is no 明四归 (否则不算明四规)
                    }
                }
            }
        }
        v *= situation;
        if v > best_value {
            best_value = v;
            best = Some(rd);
        }
    }
    let best = match best {
        Some(b) => b,
        None => return Score::default(),
    };
    if !ctx.self_draw && best_value < r.min_ron_multiplier {
        return Score::default();
    }
    let capped = if r.cap > 0 { best_value.min(r.cap) } else { best_value };
    let concealed_kongs = melds.iter().filter(|m| m.kind == MeldKind::Concealed).count() as i64;
    let mut kan = concealed_kongs;
    if !best.seven {
        kan += best.sets.iter().filter(|s| s.0 == 1).count() as i64;
        if !ctx.self_draw && best.sets.contains(&(1, win)) && hand[w] == 2 {
            kan -= 1;
        }
    }
    Score { win: true, multiplier: capped, uncapped: best_value, kan }
}

/// Worked hands of ``tests/engine/test_engine_kawuxing.py``.
#[cfg(test)]
mod tests {
    use super::super::testing::{act, game_with, tile, KAWUXING};
    use crate::spec::{ACTION_DISCARD, ACTION_PASS, ACTION_PONG, ACTION_WIN, PHASE_OVER, RESULT_WIN};

    const S0: &str = "11335p2468s6677z5z"; // dealer, 14 tiles
    const S1: &str = "123p456p789s11s55z"; // ready: waits 1s and 5z
    const S2: &str = "234s567s678p999p7z"; // ready: waits 7z
    const S2_5Z: &str = "234s567s678p999p5z"; // ready: waits 5z

    #[test]
    fn ron_discarder_pays_and_winner_deals() {
        let mut g = game_with(&KAWUXING, &[S0, S1, S2], 0, "");
        assert_eq!(g.to_act(), Some(0));
        act(&mut g, 0, ACTION_DISCARD + tile("5z"));
        let m = g.pending[1].expect("seat 1 may claim");
        assert!(m.has(ACTION_WIN) && m.has(ACTION_PONG) && m.has(ACTION_PASS));
        act(&mut g, 1, ACTION_WIN);
        assert_eq!((g.phase, g.result), (PHASE_OVER, RESULT_WIN));
        assert_eq!(g.totals, vec![-1, 1, 0]); // (0, 1, 1, "点炮")
        assert_eq!(g.payments, 1);
        assert_eq!(g.next_dealer(), 1);
        let w = g.wins[0];
        assert!(!w.self_draw && w.discarder == 0 && w.score.multiplier == 1);
    }

    #[test]
    fn self_draw_both_others_pay() {
        let mut g = game_with(&KAWUXING, &[S0, S1, S2], 0, "1s");
        act(&mut g, 0, ACTION_DISCARD + tile("3p"));
        assert_eq!(g.to_act(), Some(1));
        act(&mut g, 1, ACTION_WIN);
        assert_eq!(g.totals, vec![-1, 2, -1]); // (0, 1, 1, "自摸"), (2, 1, 1, "自摸")
        assert!(g.wins[0].self_draw && g.over());
    }

    #[test]
    fn double_ron_each_paid_and_discarder_deals() {
        let mut g = game_with(&KAWUXING, &[S0, S1, S2_5Z], 0, "");
        act(&mut g, 0, ACTION_DISCARD + tile("5z"));
        act(&mut g, 1, ACTION_WIN);
        act(&mut g, 2, ACTION_WIN);
        assert_eq!(g.totals, vec![-2, 1, 1]); // (0, 1, 1, "点炮"), (0, 2, 1, "点炮")
        assert_eq!(g.next_dealer(), 0); // 一炮双响: the discarder deals next
    }
}

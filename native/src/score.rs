//! Rules options and what a win is worth: ``kawuxing.score_win`` and ``sichuan.score_win``,
//! reduced to the numbers the settlement uses (the multiplier and Kawuxing's 坎 count).

use crate::hand::{complete, readings, suits_ok, Counts, Reading};
use crate::spec::{
    CAP_FAN_NONE, KAWUXING_HAIDI_BOTH, KAWUXING_HAIDI_NONE, OPT_BASE, OPT_BLOOD_BATTLE, OPT_BLOOD_RIVER,
    OPT_CALL_TRANSFER, OPT_CAP, OPT_CAP_FAN, OPT_DIRECT_KONG_PAY, OPT_EARTHLY_FIRST_ROUND, OPT_EXCHANGE_THREE,
    OPT_FLOWER_PIG_PENALTY, OPT_GANGSHANGHUA_FAN, OPT_GANGSHANGPAO_CHAIN, OPT_HEAVENLY_EARTHLY, OPT_KAWUXING_HAIDI,
    OPT_KONG_MONEY, OPT_LAST_FOUR_MUST_WIN, OPT_LATE_ADDED_KONG, OPT_LIANGDAO_DRAW_PENALTY_FIRST,
    OPT_LOUHU_UNLESS_MORE, OPT_MAIMA, OPT_MIN_RON_MULTIPLIER, OPT_PASS_WIN_UNLESS_MORE, OPT_PIAO, OPT_SELF_DRAW_BONUS,
    OPT_SHOUZHUAYI, OPT_SHUKAN, OPT_SICHUAN_HAIDI, OPT_SIGUI, OPT_SING_DANCE, OPT_SUITS, OPT_VARIANT,
    SELF_DRAW_BONUS_FAN, SIGUI_FULL, SIGUI_HALF, VARIANT_KAWUXING,
};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum MeldKind {
    Pong,
    Kong,
    Concealed,
}

#[derive(Clone, Copy)]
pub struct Meld {
    pub kind: MeldKind,
    pub tile: u8,
}

impl Meld {
    pub fn size(&self) -> u8 {
        if self.kind == MeldKind::Pong {
            3
        } else {
            4
        }
    }
}

/// The options of either game, from the flat integer array ``majiang.native`` builds.
#[derive(Clone)]
pub struct Rules {
    pub kawuxing: bool,
    pub players: usize,
    pub base: i64,
    pub kinds: Vec<u8>,
    pub direct_kong_pay: i64,
    // Kawuxing
    pub draw_penalty_first: bool,
    pub sigui: i64, // 0 half, 1 full, 2 winning
    pub cap: i64,   // 0: none
    pub min_ron: i64,
    pub shouzhuayi: i64,
    pub k_haidi: i64, // 0 self_draw, 1 both, 2 none
    pub louhu_unless_more: bool,
    pub piao: i64,
    pub maima: bool,
    pub shukan: bool,
    pub gangshangpao_chain: bool,
    // Sichuan
    pub exchange_three: bool,
    pub blood_battle: bool,
    pub blood_river: bool,
    pub kong_money: bool,
    pub cap_fan: i64, // -1: none
    pub gangshanghua_fan: i64,
    pub call_transfer: bool,
    pub heavenly_earthly: bool,
    pub self_draw_bonus: i64, // 0 none, 1 base, 2 fan
    pub s_haidi: bool,
    pub pig_penalty: i64,
    pub pass_win_unless_more: bool,
    pub last_four_must_win: bool,
    pub sing_dance: bool,
    pub late_added_kong: i64, // 0 none (unpaid), 1 collect, 2 forbid
    pub earthly_first_round: bool,
}

impl Rules {
    pub fn from_config(c: &[i64]) -> Rules {
        let kawuxing = c[OPT_VARIANT] == VARIANT_KAWUXING;
        let mut kinds = Vec::new();
        for k in 0..30u8 {
            let s = k / 9;
            let present = if kawuxing { s == 3 || (c[OPT_SUITS] >> s) & 1 == 1 } else { s < 3 };
            if present {
                kinds.push(k);
            }
        }
        Rules {
            kawuxing,
            players: if kawuxing { 3 } else { 4 },
            base: c[OPT_BASE],
            direct_kong_pay: c[OPT_DIRECT_KONG_PAY],
            kinds,
            draw_penalty_first: c[OPT_LIANGDAO_DRAW_PENALTY_FIRST] != 0,
            sigui: c[OPT_SIGUI],
            cap: c[OPT_CAP],
            min_ron: c[OPT_MIN_RON_MULTIPLIER],
            shouzhuayi: c[OPT_SHOUZHUAYI],
            k_haidi: c[OPT_KAWUXING_HAIDI],
            louhu_unless_more: c[OPT_LOUHU_UNLESS_MORE] != 0,
            piao: c[OPT_PIAO],
            maima: c[OPT_MAIMA] != 0,
            shukan: c[OPT_SHUKAN] != 0,
            gangshangpao_chain: c[OPT_GANGSHANGPAO_CHAIN] != 0,
            exchange_three: c[OPT_EXCHANGE_THREE] != 0,
            blood_battle: c[OPT_BLOOD_BATTLE] != 0,
            blood_river: c[OPT_BLOOD_RIVER] != 0,
            kong_money: c[OPT_KONG_MONEY] != 0,
            cap_fan: c[OPT_CAP_FAN],
            gangshanghua_fan: c[OPT_GANGSHANGHUA_FAN],
            call_transfer: c[OPT_CALL_TRANSFER] != 0,
            heavenly_earthly: c[OPT_HEAVENLY_EARTHLY] != 0,
            self_draw_bonus: c[OPT_SELF_DRAW_BONUS],
            s_haidi: c[OPT_SICHUAN_HAIDI] != 0,
            pig_penalty: c[OPT_FLOWER_PIG_PENALTY],
            pass_win_unless_more: c[OPT_PASS_WIN_UNLESS_MORE] != 0,
            last_four_must_win: c[OPT_LAST_FOUR_MUST_WIN] != 0,
            sing_dance: c[OPT_SING_DANCE] != 0,
            late_added_kong: c[OPT_LATE_ADDED_KONG],
            earthly_first_round: c[OPT_EARTHLY_FIRST_ROUND] != 0,
        }
    }
}

#[derive(Clone, Copy, Default)]
pub struct Ctx {
    pub self_draw: bool,
    pub kong_chain: i64,
    pub robbed: bool,
    pub last_tile: bool,
    pub declared: bool,
    pub heavenly: bool,
    pub earthly: bool,
    pub void: i8,
}

#[derive(Clone, Copy, Default)]
pub struct Score {
    pub win: bool,
    pub multiplier: i64,
    pub uncapped: i64, // multiplier (Kawuxing) or 番 (Sichuan) before any cap: 过水 compares this
    pub kan: i64,
}

fn all_counts(counts: &Counts, melds: &[Meld]) -> Counts {
    let mut t = *counts;
    for m in melds {
        t[m.tile as usize] += m.size();
    }
    t
}

fn suit_count(full: &Counts, melds: &[Meld]) -> (usize, bool) {
    // how many suits the tiles and melds show (honours count as one), and whether honours are among them
    let mut seen = [false; 4];
    for k in 0..30 {
        if full[k] > 0 {
            seen[k / 9] = true;
        }
    }
    for m in melds {
        seen[(m.tile / 9) as usize] = true;
    }
    (seen.iter().filter(|&&x| x).count(), seen[3])
}

/// Score ``counts`` (concealed, before the win) with ``melds``, completed by ``win``.
pub fn score(r: &Rules, counts: &Counts, melds: &[Meld], win: u8, ctx: &Ctx) -> Score {
    let mut full = *counts;
    full[win as usize] += 1;
    let closed = melds.is_empty();
    let totals = all_counts(&full, melds);
    if !r.kawuxing && !suits_ok(&totals, ctx.void) {
        return Score::default();
    }
    if !complete(&full, &totals, false, -1, closed) {
        return Score::default();
    }
    let rs = readings(&full, closed);
    if r.kawuxing {
        kawuxing(r, counts, &full, melds, win, ctx, &rs)
    } else {
        sichuan(r, &full, &totals, melds, ctx, &rs)
    }
}

fn kawuxing(r: &Rules, hand: &Counts, full: &Counts, melds: &[Meld], win: u8, ctx: &Ctx, rs: &[Reading]) -> Score {
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
    if ctx.last_tile && r.k_haidi != KAWUXING_HAIDI_NONE && (ctx.self_draw || r.k_haidi == KAWUXING_HAIDI_BOTH) {
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
            if r.sigui == SIGUI_FULL || (r.sigui == SIGUI_HALF && big) {
                for (k, &fk) in full.iter().enumerate() {
                    if k == w {
                        continue;
                    }
                    if fk == 4 {
                        v *= 4;
                    } else if is_pong(k) && fk == 1 {
                        v *= 2;
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
    if !ctx.self_draw && best_value < r.min_ron {
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

fn rank(t: u8) -> u8 {
    t % 9 + 1
}

fn sichuan(r: &Rules, full: &Counts, totals: &Counts, melds: &[Meld], ctx: &Ctx, rs: &[Reading]) -> Score {
    let roots_all = totals.iter().filter(|&&x| x == 4).count() as i64;
    let mut situation = 0i64;
    if ctx.kong_chain > 0 && ctx.self_draw {
        situation += r.gangshanghua_fan;
    } else if ctx.kong_chain > 0 {
        situation += 1;
    }
    if ctx.robbed {
        situation += 1;
    }
    if ctx.last_tile && r.s_haidi {
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

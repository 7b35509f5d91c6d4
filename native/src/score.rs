//! What both games' scoring shares: the rules options (from the ``config`` array
//! ``majiang.native`` builds, positions in ``spec``), melds, the win context, a score reduced to
//! the numbers the settlement uses (the multiplier and Kawuxing's 坎 count), and the complete hand
//! each game's ``score_win`` (``games``) starts from.

use crate::hand::{complete, readings, suits_ok, Counts, Reading};
use crate::spec::{
    OPT_BASE, OPT_BLOOD_BATTLE, OPT_BLOOD_RIVER, OPT_CALL_TRANSFER, OPT_CAP, OPT_CAP_FAN, OPT_DIRECT_KONG_PAY,
    OPT_EARTHLY_FIRST_ROUND, OPT_EXCHANGE_THREE, OPT_FLOWER_PIG_PENALTY, OPT_GANGSHANGHUA_FAN, OPT_GANGSHANGPAO_CHAIN,
    OPT_GANGSHANG_CHAIN, OPT_HEAVENLY_EARTHLY, OPT_KAWUXING_HAIDI, OPT_KONG_MONEY, OPT_LAST_FOUR_MUST_WIN,
    OPT_LATE_ADDED_KONG, OPT_LIANGDAO_DRAW_PENALTY, OPT_LOUHU_UNLESS_MORE, OPT_MAIMA, OPT_MIN_RON_MULTIPLIER,
    OPT_PASS_WIN_UNLESS_MORE, OPT_PIAO, OPT_ROBBED_KONG_FAN, OPT_SELF_DRAW_BONUS, OPT_SHOUZHUAYI, OPT_SHUKAN,
    OPT_SICHUAN_HAIDI, OPT_SIGUI, OPT_SING_DANCE, OPT_SUITS, OPT_VARIANT, VARIANT_KAWUXING,
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
    pub draw_penalty: i64, // LIANGDAO_DRAW_PENALTY_…: count, first (and deals next), first_pays
    pub sigui: i64,        // 0 half, 1 full, 2 winning
    pub cap: i64,          // 0: none
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
    pub gangshang_chain: bool, // 杠上花/杠上炮 per kong of the chain
    pub robbed_kong_fan: i64,
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
            draw_penalty: c[OPT_LIANGDAO_DRAW_PENALTY],
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
            gangshang_chain: c[OPT_GANGSHANG_CHAIN] != 0,
            robbed_kong_fan: c[OPT_ROBBED_KONG_FAN],
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

pub fn suit_count(full: &Counts, melds: &[Meld]) -> (usize, bool) {
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

/// A complete hand: its concealed tiles with the winning one, all its tiles (melds included) and
/// its readings.
pub struct Complete {
    pub full: Counts,
    pub totals: Counts,
    pub readings: Vec<Reading>,
}

/// ``counts`` (concealed, before the win) with ``melds``, completed by ``win``, if that is a win;
/// ``suit_rule_void`` (Sichuan) also asks for at most two suits and none of the void's.
pub fn complete_hand(counts: &Counts, melds: &[Meld], win: u8, suit_rule_void: Option<i8>) -> Option<Complete> {
    let mut full = *counts;
    full[win as usize] += 1;
    let closed = melds.is_empty();
    let totals = all_counts(&full, melds);
    if let Some(void) = suit_rule_void {
        if !suits_ok(&totals, void) {
            return None;
        }
    }
    if !complete(&full, &totals, false, -1, closed) {
        return None;
    }
    Some(Complete { full, totals, readings: readings(&full, closed) })
}

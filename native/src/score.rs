//! What both games' scoring shares: the rules options (from the ``config`` array
//! ``majiang.native`` builds, positions in ``spec``), melds, the win context, a score reduced to
//! the numbers the settlement uses (the multiplier and Kawuxing's 坎 count), and the complete hand
//! each game's ``score_win`` (``games``) starts from.

use crate::hand::{complete, readings, suits_ok, Counts, Reading};
use crate::spec::{Options, VARIANT_KAWUXING};

#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub enum MeldKind {
    #[default]
    Pong,
    Kong,
    Concealed,
}

#[derive(Clone, Copy, Default)]
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

/// The options of either game (``Options``, generated in ``spec``: every declared option, read
/// through ``Deref``), and what the game's choice fixes: the seats and the tile kinds.
#[derive(Clone)]
pub struct Rules {
    pub options: Options,
    pub kawuxing: bool,
    pub players: usize,
    pub kinds: Vec<u8>,
}

impl std::ops::Deref for Rules {
    type Target = Options;
    fn deref(&self) -> &Options {
        &self.options
    }
}

impl Rules {
    pub fn from_config(c: &[i64]) -> Rules {
        let options = Options::from_config(c);
        let kawuxing = options.variant == VARIANT_KAWUXING;
        let mut kinds = Vec::new();
        for k in 0..30u8 {
            let s = k / 9;
            let present = if kawuxing { s == 3 || (options.suits >> s) & 1 == 1 } else { s < 3 };
            if present {
                kinds.push(k);
            }
        }
        Rules { options, kawuxing, players: if kawuxing { 3 } else { 4 }, kinds }
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

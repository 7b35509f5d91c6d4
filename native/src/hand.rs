//! Win tests and waits on count vectors: one per-suit lookup table (5^9 entries) says whether a
//! suit's counts split into sets, or into sets and one pair; honours split only into triplets.

use std::sync::OnceLock;

pub const KINDS: usize = 30;
pub type Counts = [u8; KINDS];

const SETS_ONLY: u8 = 1;
const SETS_AND_PAIR: u8 = 2;

static SUIT_TABLE: OnceLock<Vec<u8>> = OnceLock::new();

fn suit_key(c: &[u8]) -> usize {
    let mut k = 0usize;
    for r in (0..9).rev() {
        k = k * 5 + c[r] as usize;
    }
    k
}

fn fill(table: &mut [u8], c: &mut [u8; 9], first_set: usize, sets_left: u32) {
    // every multiset of at most four sets (16 kinds: 9 triplets, 7 sequences), with and without a pair
    let key = suit_key(c);
    table[key] |= SETS_ONLY;
    for p in 0..9 {
        if c[p] + 2 <= 4 {
            c[p] += 2;
            table[suit_key(c)] |= SETS_AND_PAIR;
            c[p] -= 2;
        }
    }
    if sets_left == 0 {
        return;
    }
    for s in first_set..16 {
        if s < 9 {
            if c[s] + 3 > 4 {
                continue;
            }
            c[s] += 3;
            fill(table, c, s, sets_left - 1);
            c[s] -= 3;
        } else {
            let r = s - 9;
            if c[r] == 4 || c[r + 1] == 4 || c[r + 2] == 4 {
                continue;
            }
            c[r] += 1;
            c[r + 1] += 1;
            c[r + 2] += 1;
            fill(table, c, s, sets_left - 1);
            c[r] -= 1;
            c[r + 1] -= 1;
            c[r + 2] -= 1;
        }
    }
}

fn table() -> &'static [u8] {
    SUIT_TABLE.get_or_init(|| {
        let mut t = vec![0u8; 5usize.pow(9)];
        let mut c = [0u8; 9];
        fill(&mut t, &mut c, 0, 4);
        t
    })
}

/// The standard form (sets and one pair), honours only as triplets and the pair.
pub fn standard_win(c: &Counts) -> bool {
    let t = table();
    let mut pairs = 0;
    for g in 0..3 {
        let s = &c[g * 9..g * 9 + 9];
        let n: u32 = s.iter().map(|&x| x as u32).sum();
        if n == 0 {
            continue;
        }
        match n % 3 {
            1 => return false,
            2 => {
                pairs += 1;
                if pairs > 1 || t[suit_key(s)] & SETS_AND_PAIR == 0 {
                    return false;
                }
            }
            _ => {
                if t[suit_key(s)] & SETS_ONLY == 0 {
                    return false;
                }
            }
        }
    }
    for k in 27..30 {
        match c[k] {
            0 | 3 => {}
            2 => {
                pairs += 1;
                if pairs > 1 {
                    return false;
                }
            }
            _ => return false,
        }
    }
    pairs == 1
}

pub fn seven_pairs(c: &Counts) -> bool {
    c.iter().map(|&x| x as u32).sum::<u32>() == 14 && c.iter().all(|&x| x % 2 == 0)
}

/// Sichuan's suit rule on all tiles held (melds included): at most two suits, never the void.
pub fn suits_ok(totals: &Counts, void: i8) -> bool {
    let mut present = 0;
    for s in 0..3 {
        if totals[s * 9..s * 9 + 9].iter().any(|&x| x > 0) {
            if void == s as i8 {
                return false;
            }
            present += 1;
        }
    }
    present <= 2
}

/// ``complete_counts``: is the 3n+2 concealed ``counts`` a win (``totals`` adds the meld tiles)?
pub fn complete(counts: &Counts, totals: &Counts, two_suit_rule: bool, void: i8, closed: bool) -> bool {
    if two_suit_rule && !suits_ok(totals, void) {
        return false;
    }
    standard_win(counts) || (closed && seven_pairs(counts))
}

/// Tiles that complete a 3n+1 hand, among ``kinds``, leaving out any the player holds all four of.
pub fn waits(counts: &Counts, totals: &Counts, kinds: &[u8], two_suit_rule: bool, void: i8, closed: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if two_suit_rule && !suits_ok(totals, void) {
        return out;
    }
    let mut c = *counts;
    let mut t = *totals;
    for &k in kinds {
        let k = k as usize;
        if totals[k] >= 4 {
            continue;
        }
        // a tile neither held nor next to a held one completes nothing (seven pairs wait on a held tile)
        if counts[k] == 0 && no_neighbours(counts, k) {
            continue;
        }
        c[k] += 1;
        t[k] += 1;
        if complete(&c, &t, two_suit_rule, void, closed) {
            out.push(k as u8);
        }
        c[k] -= 1;
        t[k] -= 1;
    }
    out
}

pub fn no_neighbours(c: &Counts, t: usize) -> bool {
    if t >= 27 {
        return true;
    }
    let r = t % 9;
    !((r > 0 && c[t - 1] > 0) || (r > 1 && c[t - 2] > 0) || (r < 8 && c[t + 1] > 0) || (r < 7 && c[t + 2] > 0))
}

/// One way to read a complete hand: a pair and the concealed sets (kind 0 sequence, 1 triplet,
/// lowest tile), or seven pairs. Ordered as the Python ``readings`` sorts them.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Reading {
    pub seven: bool,
    pub pair: u8,
    pub sets: Vec<(u8, u8)>,
}

fn decompose(c: &mut Counts, start: usize, acc: &mut Vec<(u8, u8)>, out: &mut Vec<Vec<(u8, u8)>>) {
    let mut i = start;
    while i < 30 && c[i] == 0 {
        i += 1;
    }
    if i == 30 {
        out.push(acc.clone());
        return;
    }
    if c[i] >= 3 {
        c[i] -= 3;
        acc.push((1, i as u8));
        decompose(c, i, acc, out);
        acc.pop();
        c[i] += 3;
    }
    if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        acc.push((0, i as u8));
        decompose(c, i, acc, out);
        acc.pop();
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
}

/// Every reading of a winning hand (the caller has checked it wins).
pub fn readings(full: &Counts, closed: bool) -> Vec<Reading> {
    let mut out = Vec::new();
    let mut c = *full;
    for p in 0..30 {
        if c[p] >= 2 {
            c[p] -= 2;
            let mut found = Vec::new();
            decompose(&mut c, 0, &mut Vec::new(), &mut found);
            for sets in found {
                out.push(Reading { seven: false, pair: p as u8, sets });
            }
            c[p] += 2;
        }
    }
    if closed && seven_pairs(full) {
        out.push(Reading { seven: true, pair: 0, sets: Vec::new() });
    }
    out.sort();
    out.dedup();
    out
}

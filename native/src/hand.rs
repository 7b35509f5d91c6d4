//! Win tests and waits on count vectors: one per-suit lookup table (5^9 entries of one bit,
//! eight to a byte: 238 KiB, which stays in the core's cache beside a batch's games) says whether
//! a suit's counts split into sets, or into sets and one pair; honours split only into triplets.

use std::sync::OnceLock;

use crate::seats::Kinds;
use crate::spec::N_KINDS;
pub type Counts = [u8; N_KINDS];

const SETS_ONLY: u8 = 1;
const SETS_AND_PAIR: u8 = 2;

static SUIT_TABLE: OnceLock<SuitTable> = OnceLock::new();

/// A suit key's ``SETS_ONLY | SETS_AND_PAIR`` flags, one bit an entry: a key's tiles number
/// 0 mod 3 (only ``SETS_ONLY`` can hold) or 2 mod 3 (only ``SETS_AND_PAIR``), and every caller
/// asks the flag its count implies, so the bit says "that flag" and ``flags`` answers both.
struct SuitTable(Vec<u8>);

impl SuitTable {
    fn flags(&self, key: usize) -> u8 {
        if self.0[key >> 3] >> (key & 7) & 1 == 1 {
            SETS_ONLY | SETS_AND_PAIR
        } else {
            0
        }
    }
}

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

fn table() -> &'static SuitTable {
    SUIT_TABLE.get_or_init(|| {
        let mut t = vec![0u8; 5usize.pow(9)];
        let mut c = [0u8; 9];
        fill(&mut t, &mut c, 0, 4);
        debug_assert!(t.iter().all(|&f| f != SETS_ONLY | SETS_AND_PAIR));
        SuitTable(t.chunks(8).map(|q| q.iter().rev().fold(0, |packed, &f| packed << 1 | (f != 0) as u8)).collect())
    })
}

/// Build the suit table now (tens of milliseconds, once), not on the first win test or waits.
#[cfg_attr(not(feature = "python"), allow(dead_code))] // the CPython binding's
pub fn prepare() {
    table();
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
                if pairs > 1 || t.flags(suit_key(s)) & SETS_AND_PAIR == 0 {
                    return false;
                }
            }
            _ => {
                if t.flags(suit_key(s)) & SETS_ONLY == 0 {
                    return false;
                }
            }
        }
    }
    for &ck in &c[27..30] {
        match ck {
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
///
/// The new tile changes one group (suit or honours), so each group's state is worked out once
/// and each candidate costs one table lookup.
pub fn waits(counts: &Counts, totals: &Counts, kinds: &[u8], two_suit_rule: bool, void: i8, closed: bool) -> Vec<u8> {
    scan_waits(counts, totals, kinds, two_suit_rule, void, closed, false).to_vec()
}

/// ``waits`` without the allocation (the CPython binding's hot path).
#[cfg_attr(not(feature = "python"), allow(dead_code))]
pub fn waits_inline(
    counts: &Counts,
    totals: &Counts,
    kinds: &[u8],
    two_suit_rule: bool,
    void: i8,
    closed: bool,
) -> Kinds {
    scan_waits(counts, totals, kinds, two_suit_rule, void, closed, false)
}

/// Whether the 3n+1 hand waits on anything (``waits`` stopping at the first).
pub fn is_ready(counts: &Counts, totals: &Counts, kinds: &[u8], two_suit_rule: bool, void: i8, closed: bool) -> bool {
    !scan_waits(counts, totals, kinds, two_suit_rule, void, closed, true).is_empty()
}

fn scan_waits(
    counts: &Counts,
    totals: &Counts,
    kinds: &[u8],
    two_suit_rule: bool,
    void: i8,
    closed: bool,
    first_only: bool,
) -> Kinds {
    let mut out = Kinds::default();
    if two_suit_rule && !suits_ok(totals, void) {
        return out;
    }
    let t = table();
    // per group: tiles, suit key, and whether it is complete as it stands (0 bad, 1 sets, 2 sets + pair)
    let mut n = [0u32; 4];
    let mut key = [0usize; 3];
    let mut state = [0u8; 4];
    for g in 0..3 {
        let s = &counts[g * 9..g * 9 + 9];
        n[g] = s.iter().map(|&x| x as u32).sum();
        key[g] = suit_key(s);
        state[g] = group_state(t, n[g], key[g]);
    }
    n[3] = counts[27..30].iter().map(|&x| x as u32).sum();
    state[3] = honour_state(&counts[27..30]);
    let bad = state.iter().filter(|&&x| x == 0).count();
    let pairs = state.iter().filter(|&&x| x == 2).count();
    // seven pairs: thirteen tiles with one odd count wait on that tile
    let mut seven: Option<usize> = None;
    if closed && n.iter().sum::<u32>() == 13 {
        let mut odd = (0..30).filter(|&k| counts[k] % 2 == 1);
        if let (Some(k), None) = (odd.next(), odd.next()) {
            seven = Some(k);
        }
    }
    let mut present = [false; 3];
    for g in 0..3 {
        present[g] = totals[g * 9..g * 9 + 9].iter().any(|&x| x > 0);
    }
    let suits = present.iter().filter(|&&p| p).count();
    for &k in kinds {
        let k = k as usize;
        if totals[k] >= 4 {
            continue;
        }
        if Some(k) == seven {
            out.push(k as u8);
            if first_only {
                break;
            }
            continue;
        }
        // a tile neither held nor next to a held one completes nothing
        if counts[k] == 0 && no_neighbours(counts, k) {
            continue;
        }
        let g = k / 9;
        if two_suit_rule && g < 3 && !present[g] && (suits >= 2 || void == g as i8) {
            continue;
        }
        let others_bad = bad - (state[g] == 0) as usize;
        if others_bad > 0 {
            continue;
        }
        let others_pairs = pairs - (state[g] == 2) as usize;
        let new_state = if g < 3 {
            group_state(t, n[g] + 1, key[g] + POW5[k % 9])
        } else {
            let mut h = [counts[27], counts[28], counts[29]];
            h[k - 27] += 1;
            honour_state(&h)
        };
        if new_state != 0 && others_pairs + (new_state == 2) as usize == 1 {
            out.push(k as u8);
            if first_only {
                break;
            }
        }
    }
    out
}

const POW5: [usize; 9] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625];

fn group_state(t: &SuitTable, n: u32, key: usize) -> u8 {
    match n % 3 {
        0 if t.flags(key) & SETS_ONLY != 0 => 1,
        2 if t.flags(key) & SETS_AND_PAIR != 0 => 2,
        _ => 0,
    }
}

fn honour_state(h: &[u8]) -> u8 {
    let mut pairs = 0;
    for &c in h {
        match c {
            0 | 3 => {}
            2 => pairs += 1,
            _ => return 0,
        }
    }
    match pairs {
        0 => 1,
        1 => 2,
        _ => 0,
    }
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

/// Tiles written as the Python package writes them (``"2345p555s6z"``: ranks then a suit letter;
/// 5z 6z 7z are 白 发 中), for the tests.
#[cfg(test)]
pub mod testing {
    use super::Counts;

    pub fn tiles(s: &str) -> Vec<u8> {
        let mut out = Vec::new();
        let mut ranks: Vec<u8> = Vec::new();
        for ch in s.chars() {
            match ch {
                '1'..='9' => ranks.push(ch as u8 - b'0'),
                'm' | 'p' | 's' | 'z' => {
                    for r in ranks.drain(..) {
                        out.push(match ch {
                            'm' => r - 1,
                            'p' => 9 + r - 1,
                            's' => 18 + r - 1,
                            _ => 27 + r - 5,
                        });
                    }
                }
                _ => panic!("bad tile string {s}"),
            }
        }
        assert!(ranks.is_empty(), "ranks without a suit in {s}");
        out
    }

    pub fn counts(s: &str) -> Counts {
        let mut c = [0u8; 30];
        for t in tiles(s) {
            c[t as usize] += 1;
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{counts, tiles};
    use super::*;

    fn kawuxing_kinds() -> Vec<u8> {
        (9..30).collect() // p, s and the dragons
    }

    fn sichuan_kinds() -> Vec<u8> {
        (0..27).collect()
    }

    fn kawuxing_waits(s: &str) -> Vec<u8> {
        let c = counts(s);
        waits(&c, &c, &kawuxing_kinds(), false, -1, true)
    }

    fn sichuan_waits(s: &str, void: i8) -> Vec<u8> {
        let c = counts(s);
        waits(&c, &c, &sichuan_kinds(), true, void, true)
    }

    #[test]
    fn parses_tiles_like_python() {
        assert_eq!(tiles("19m1p9s5z7z"), vec![0, 8, 9, 26, 27, 29]);
    }

    #[test]
    fn complete_hands() {
        let c = counts("123p456p789s11s555z");
        assert!(standard_win(&c) && complete(&c, &c, false, -1, true));
        assert!(!standard_win(&counts("123p456p789s11s556z")));
        // four of a kind counts as two pairs of seven pairs (closed hands only)
        let c = counts("11113355p3377s55z");
        assert!(seven_pairs(&c) && !standard_win(&c));
        assert!(complete(&c, &c, false, -1, true) && !complete(&c, &c, false, -1, false));
        let c = counts("11112233445566p"); // also 11 + 123 123 456 456
        assert!(seven_pairs(&c) && standard_win(&c));
        // Sichuan: three suits, or the void suit, is never a win
        let c = counts("123m456m789m11p123s");
        assert!(standard_win(&c) && !complete(&c, &c, true, -1, true));
        let c = counts("123m456m789m11p222p");
        assert!(complete(&c, &c, true, -1, true) && !complete(&c, &c, true, 1, true));
    }

    #[test]
    fn kawuxing_waits_as_the_package_doctest() {
        assert_eq!(kawuxing_waits("2345p555s789s666z"), tiles("25p"));
        assert_eq!(kawuxing_waits("11115577p3377s5z"), tiles("5z"));
        assert!(!kawuxing_waits("1111234567899p").contains(&9)); // all four 1p are held
        assert_eq!(kawuxing_waits("123p456p789s11s55z"), tiles("1s5z"));
    }

    #[test]
    fn sichuan_waits_as_seed_004() {
        assert_eq!(sichuan_waits("2345m111p222p333p", -1), tiles("25m"));
        assert_eq!(sichuan_waits("4567778m111p222p", -1), tiles("3689m"));
        assert_eq!(sichuan_waits("3334555m111p222p", -1), tiles("23456m"));
        assert_eq!(sichuan_waits("1112345678999m", -1), tiles("123456789m"));
        assert_eq!(sichuan_waits("23456m11p222p333p", -1), tiles("147m"));
        assert_eq!(sichuan_waits("123m456m789m111p2p", -1), tiles("23p"));
        assert_eq!(sichuan_waits("123m456m789m111p2p", 1), vec![]); // void p
        assert_eq!(sichuan_waits("123m456m789m11p23s", -1), vec![]); // three suits
    }

    #[test]
    fn ready_agrees_with_waits() {
        for s in ["2345p555s789s666z", "123p456p789s11s55z", "1357p2468s135z79p"] {
            let c = counts(s);
            let kinds = kawuxing_kinds();
            assert_eq!(is_ready(&c, &c, &kinds, false, -1, true), !waits(&c, &c, &kinds, false, -1, true).is_empty());
        }
    }

    #[test]
    fn readings_of_a_hand() {
        // 111222333p: three triplets or three sequences
        let rs = readings(&counts("111222333p456s99s"), true);
        assert_eq!(rs.len(), 2);
        assert!(rs.iter().all(|r| !r.seven && r.pair == 26));
        let rs = readings(&counts("11223344556677p"), true);
        assert!(rs.iter().any(|r| r.seven));
    }
}

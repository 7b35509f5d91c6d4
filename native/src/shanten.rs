//! Shanten exactly as ``majiang.analysis.shanten_counts``: per-group rows of distances (tiles to add
//! for m sets and p pairs) from the package's shipped tables, which Python hands over at load
//! (``mj_set_tables``); groups with tiles held in melds use the same capped dynamic programme as
//! ``capped_row``; the rows are combined by min-plus over the groups a win may use.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

use crate::hand::Counts;

pub const INF: i32 = 99;
pub const NO_WIN: i32 = INF - 1;

pub type Row = [i32; 10];

pub struct Tables {
    suit: Vec<u16>,
    pub(crate) honour: Vec<u16>,
    pub(crate) rows: Vec<Row>,
    // a suit's class by the rank of its vector among those of at most 14 tiles (405,350 of them:
    // 400 kB, which stays in cache, where the shipped 5**9 table of uint16 is 3.9 MB and does not)
    pub(crate) suit_class: Vec<u8>,
    pub(crate) rank_step: [[[u32; 5]; 15]; 9], // rank = sum over kinds i of rank_step[i][tiles before i][count at i]
    // the rows as bytes (1.4 kB, always in cache), and min-plus worked out once for every pair of
    // classes: a win from three groups is the first two's combined row (one read) and the third's
    // (a table of two-group answers would be faster alone, but falls out of cache between calls)
    pub(crate) small_rows: Vec<[u8; 10]>,
    pub(crate) pair_rows: Vec<[u8; 10]>, // [a * classes + b]: min_plus(rows[a], rows[b])
    // those combined rows are few distinct ones (180 of 146 * 146 with the shipped tables): a win
    // from three groups is then one read of final3 (26 kB a number of sets, where pair_rows is 213 kB)
    pub(crate) pair_class: Vec<u8>, // [a * classes + b]: the number of the distinct row pair_rows[a, b]
    pub(crate) final3: Vec<u8>,     // [sets][pair class * classes + c]: final_two of that row and class c
    pub(crate) pair_classes: usize, // 0: not laid out (more than 256 distinct rows)
    pub(crate) final2: Vec<u8>,     // [sets][a * classes + b]: final_two of classes a and b (21 kB a number of sets)
}

pub(crate) const SUIT_VECTORS: usize = 405_350; // vectors of nine counts 0-4 holding at most 14 tiles

fn rank_steps() -> [[[u32; 5]; 15]; 9] {
    // fit[k][s]: vectors of k counts (0-4) holding at most s tiles
    let mut fit = [[0u32; 15]; 10];
    fit[0] = [1; 15];
    for k in 1..10 {
        for s in 0..15 {
            fit[k][s] = (0..=4.min(s)).map(|v| fit[k - 1][s - v]).sum();
        }
    }
    let mut step = [[[0u32; 5]; 15]; 9];
    for (i, per_before) in step.iter_mut().enumerate() {
        for (before, per_count) in per_before.iter_mut().enumerate() {
            for (c, r) in per_count.iter_mut().enumerate() {
                *r = (0..c).filter(|&v| before + v <= 14).map(|v| fit[8 - i][14 - before - v]).sum();
            }
        }
    }
    step
}

/// Every suit vector of at most 14 tiles by rank: its class in the shipped table.
fn suit_classes(suit: &[u16], step: &[[[u32; 5]; 15]; 9]) -> Vec<u8> {
    fn walk(i: usize, before: usize, rank: u32, key: usize, suit: &[u16], step: &[[[u32; 5]; 15]; 9], out: &mut [u8]) {
        if i == 9 {
            out[rank as usize] = suit[key] as u8;
            return;
        }
        for c in 0..=4.min(14 - before) {
            walk(i + 1, before + c, rank + step[i][before][c], key * 5 + c, suit, step, out);
        }
    }
    let mut out = vec![0u8; SUIT_VECTORS];
    walk(0, 0, 0, 0, suit, step, &mut out);
    out
}

#[inline(always)]
pub(crate) fn suit_rank(step: &[[[u32; 5]; 15]; 9], c: &[u8]) -> usize {
    let (mut r, mut before) = (0u32, 0usize);
    for i in 0..9 {
        r += step[i][before][c[i] as usize];
        before += c[i] as usize;
    }
    r as usize
}

pub static TABLES: OnceLock<Tables> = OnceLock::new();

impl Tables {
    fn new(suit: Vec<u16>, honour: Vec<u16>, rows: Vec<Row>) -> Tables {
        let rank_step = rank_steps();
        let suit_class = suit_classes(&suit, &rank_step);
        let nc = rows.len();
        let bytes = |r: &Row| -> [u8; 10] { r.map(|v| v.min(INF) as u8) };
        let mut pair_rows = vec![[0u8; 10]; nc * nc];
        for a in 0..nc {
            for b in 0..nc {
                pair_rows[a * nc + b] = bytes(&min_plus(&rows[a], &rows[b]));
            }
        }
        let small_rows: Vec<[u8; 10]> = rows.iter().map(bytes).collect();
        let mut distinct: Vec<[u8; 10]> = Vec::new();
        let mut seen = HashMap::new();
        let mut pair_class = vec![0u8; nc * nc];
        let mut fits = true;
        for (ab, row) in pair_rows.iter().enumerate() {
            let id = *seen.entry(*row).or_insert_with(|| {
                distinct.push(*row);
                distinct.len() - 1
            });
            fits &= id < 256;
            pair_class[ab] = id as u8;
        }
        let pair_classes = if fits { distinct.len() } else { 0 };
        let mut final3 = vec![0u8; 5 * pair_classes * nc];
        for sets in 0..5 {
            for (p, row) in distinct.iter().enumerate().take(pair_classes) {
                for (c, third) in small_rows.iter().enumerate() {
                    final3[(sets * pair_classes + p) * nc + c] = final_two(row, third, sets) as u8;
                }
            }
        }
        let mut final2 = vec![0u8; 5 * nc * nc];
        for sets in 0..5 {
            for a in 0..nc {
                for b in 0..nc {
                    final2[(sets * nc + a) * nc + b] = final_two(&small_rows[a], &small_rows[b], sets) as u8;
                }
            }
        }
        Tables {
            suit,
            honour,
            rows,
            suit_class,
            rank_step,
            small_rows,
            pair_rows,
            pair_class,
            final3,
            pair_classes,
            final2,
        }
    }

    /// The distance (at most INF) of ``sets`` sets and a pair from the groups of classes ``cls``.
    #[inline(always)]
    fn combined(&self, cls: &[usize], sets: usize) -> i32 {
        let nc = self.rows.len();
        match cls.len() {
            1 => self.rows[cls[0]][sets * 2 + 1].min(INF),
            2 => self.final2[(sets * nc + cls[0]) * nc + cls[1]] as i32,
            // min_plus caps at INF, so the third group's split is what remains to choose
            _ if self.pair_classes > 0 => {
                let pc = self.pair_class[cls[0] * nc + cls[1]] as usize;
                self.final3[(sets * self.pair_classes + pc) * nc + cls[2]] as i32
            }
            _ => final_two(&self.pair_rows[cls[0] * nc + cls[1]], &self.small_rows[cls[2]], sets),
        }
    }
}

/// ``sets`` sets and one pair from two rows (the pair in either), at most INF.
#[inline(always)]
pub(crate) fn final_two(a: &[u8; 10], b: &[u8; 10], sets: usize) -> i32 {
    let mut best = INF;
    for s0 in 0..=sets {
        let s1 = sets - s0;
        best = best.min(a[s0 * 2 + 1] as i32 + b[s1 * 2] as i32);
        best = best.min(a[s0 * 2] as i32 + b[s1 * 2 + 1] as i32);
    }
    best
}

/// Python's ``_min_plus``: the best split of m sets and p pairs between two groups (at most INF).
fn min_plus(a: &Row, b: &Row) -> Row {
    let mut out = [INF; 10];
    for m in 0..5 {
        for p in 0..2 {
            for m1 in 0..=m {
                for p1 in 0..=p {
                    out[m * 2 + p] = out[m * 2 + p].min(a[m1 * 2 + p1] + b[(m - m1) * 2 + p - p1]);
                }
            }
        }
    }
    out
}

pub fn set_tables(suit: &[u16], honour: &[u16], rows: &[u16]) -> bool {
    let rows: Vec<Row> = rows
        .chunks(10)
        .map(|c| {
            let mut r = [0i32; 10];
            for (i, &v) in c.iter().enumerate() {
                r[i] = v as i32;
            }
            r
        })
        .collect();
    if suit.len() != 5usize.pow(9) || honour.len() != 125 {
        return false;
    }
    TABLES.set(Tables::new(suit.to_vec(), honour.to_vec(), rows)).is_ok() || TABLES.get().is_some()
}

pub fn tables_loaded() -> bool {
    TABLES.get().is_some()
}

/// Which groups a variant has: suits present, and whether the dragons are a group.
#[derive(Clone, Copy)]
pub struct Layout {
    pub suits: [bool; 3],
    pub dragons: bool,
    pub two_suit_rule: bool,
}

fn packed(t: &Tables, c: &Counts, g: usize) -> u16 {
    if g < 3 {
        // by rank: a 400 kB table that stays in cache (a suit of a hand holds at most 14 tiles)
        let s = &c[g * 9..g * 9 + 9];
        if s.iter().map(|&x| x as u32).sum::<u32>() <= 14 {
            let pairs: u16 = s.iter().map(|&x| (x / 2) as u16).sum();
            return pairs << 8 | t.suit_class[suit_rank(&t.rank_step, s)] as u16;
        }
    }
    if g == 3 {
        t.honour[((c[27] as usize * 5 + c[28] as usize) * 5) + c[29] as usize]
    } else {
        let s = g * 9;
        let mut k = 0usize;
        for i in 0..9 {
            k = k * 5 + c[s + i] as usize;
        }
        t.suit[k]
    }
}

fn group_range(g: usize) -> std::ops::Range<usize> {
    if g == 3 {
        27..30
    } else {
        g * 9..g * 9 + 9
    }
}

thread_local! {
    // capped rows already worked out (Python's ``capped_row`` is an lru_cache too): greedy play
    // asks for the same melded group at every discard it weighs
    static CAPPED: RefCell<HashMap<u64, Row>> = RefCell::new(HashMap::new());
}

/// ``capped_row``, remembered per thread (at most a million rows, then started afresh).
pub fn capped_row(counts: &[u8], caps: &[u8], sequences: bool) -> Row {
    let mut key = sequences as u64;
    for (&c, &cap) in counts.iter().zip(caps) {
        key = (key << 6) | ((c as u64) << 3) | cap as u64;
    }
    key |= (counts.len() as u64) << 60;
    if let Some(row) = CAPPED.with(|m| m.borrow().get(&key).copied()) {
        return row;
    }
    let row = capped_row_dp(counts, caps, sequences);
    CAPPED.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= 1 << 20 {
            m.clear();
        }
        m.insert(key, row);
    });
    row
}

/// The dynamic programme of ``capped_row``: the distances for one group when some kinds have
/// fewer than four copies left.
#[allow(clippy::needless_range_loop)] // a recurrence over four state indices reads best as index loops
fn capped_row_dp(counts: &[u8], caps: &[u8], sequences: bool) -> Row {
    let n = counts.len();
    // state (pending sequences from i-1, from i-2, sets, pairs) -> best overlap; -1 absent
    let mut states = [[[[-1i32; 2]; 5]; 5]; 5];
    states[0][0][0][0] = 0;
    for i in 0..n {
        let (h, cap) = (counts[i] as i32, caps[i] as i32);
        let seq_here = sequences && i + 3 <= n;
        let mut new = [[[[-1i32; 2]; 5]; 5]; 5];
        for a in 0..5 {
            for b in 0..5 {
                for m in 0..5 {
                    for p in 0..2 {
                        let ov = states[a][b][m][p];
                        if ov < 0 {
                            continue;
                        }
                        let base = (a + b) as i32;
                        let room = cap - base;
                        if room < 0 {
                            continue;
                        }
                        for k in 0..(if seq_here { 5 } else { 1 }) {
                            for trip in 0..2 {
                                for pr in 0..2 {
                                    let add = k as i32 + 3 * trip + 2 * pr;
                                    if add > room {
                                        continue;
                                    }
                                    let (dm, dp) = (k + trip as usize, pr as usize);
                                    if m + dm > 4 || p + dp > 1 {
                                        continue;
                                    }
                                    let t = base + add;
                                    let val = ov + h.min(t);
                                    let slot = &mut new[k][a][m + dm][p + dp];
                                    if *slot < val {
                                        *slot = val;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        states = new;
    }
    let mut row = [INF; 10];
    for m in 0..5 {
        for p in 0..2 {
            let best = states[0][0][m][p];
            if best >= 0 {
                row[m * 2 + p] = 3 * m as i32 + 2 * p as i32 - best;
            }
        }
    }
    row
}

fn combine(rows: &[Row], sets: usize) -> i32 {
    let mut best = i32::MAX;
    match rows.len() {
        2 => {
            for s0 in 0..=sets {
                let s1 = sets - s0;
                best = best.min(rows[0][s0 * 2 + 1] + rows[1][s1 * 2]);
                best = best.min(rows[0][s0 * 2] + rows[1][s1 * 2 + 1]);
            }
        }
        3 => {
            for s0 in 0..=sets {
                for s1 in 0..=sets - s0 {
                    let s2 = sets - s0 - s1;
                    best = best.min(rows[0][s0 * 2 + 1] + rows[1][s1 * 2] + rows[2][s2 * 2]);
                    best = best.min(rows[0][s0 * 2] + rows[1][s1 * 2 + 1] + rows[2][s2 * 2]);
                    best = best.min(rows[0][s0 * 2] + rows[1][s1 * 2] + rows[2][s2 * 2 + 1]);
                }
            }
        }
        _ => {
            best = rows[0][sets * 2 + 1];
        }
    }
    best
}

fn seven_pairs_distance(pairs: i32, tiles: i32) -> i32 {
    let need = 7 - pairs;
    if need <= 0 {
        return 0;
    }
    let singles = tiles - 2 * pairs;
    need + 0.max(need - singles)
}

/// ``shanten_counts(counts, variant, sets, void, caps, seven_pairs, meld_suits)``; ``caps`` is
/// per kind the copies not held by melds (None without melds), ``meld_suits`` a bit per suit.
pub fn shanten(
    lay: &Layout,
    counts: &Counts,
    sets: usize,
    void: i8,
    caps: Option<&Counts>,
    seven_pairs: bool,
    meld_suits: u8,
) -> i32 {
    let t = TABLES.get().expect("shanten tables not loaded");
    shanten_in(t, lay, counts, sets, void, caps, seven_pairs, meld_suits)
}

/// ``shanten`` with the given tables (the tests build their own).
#[allow(clippy::too_many_arguments)] // shanten_counts' parameters one for one, plus the tables
fn shanten_in(
    t: &Tables,
    lay: &Layout,
    counts: &Counts,
    sets: usize,
    void: i8,
    caps: Option<&Counts>,
    seven_pairs: bool,
    meld_suits: u8,
) -> i32 {
    // the groups (suits present, then the dragons), and the group sets a win may use, as bit sets
    let mut groups = [0usize; 4];
    let mut ng = 0;
    for g in 0..3 {
        if lay.suits[g] {
            groups[ng] = g;
            ng += 1;
        }
    }
    if lay.dragons {
        groups[ng] = 3;
        ng += 1;
    }
    let groups = &groups[..ng];
    let all: u8 = groups.iter().fold(0, |acc, &g| acc | 1 << g);
    let mut choices = [0u8; 4];
    let mut nc = 0;
    if !lay.two_suit_rule {
        choices[0] = all;
        nc = 1;
    } else if void >= 0 {
        choices[0] = all & !(1 << void);
        nc = 1;
    } else {
        for &v in groups {
            choices[nc] = all & !(1 << v);
            nc += 1;
        }
    }
    let capped = match caps {
        Some(cp) => groups.iter().any(|&g| group_range(g).any(|k| cp[k] < 4)),
        None => false,
    };
    let mut class_of = [0usize; 4];
    let mut row_of = [[0i32; 10]; 4];
    let mut pairs_of = [0i32; 4];
    let mut tiles_of = [0i32; 4];
    for &g in groups {
        let r = group_range(g);
        if g < 3 && !capped {
            // every copy can still come: rank, pairs and tiles in one pass over the suit
            let (mut rank, mut before, mut pairs) = (0u32, 0usize, 0i32);
            for (i, &c) in counts[r.clone()].iter().enumerate() {
                rank += t.rank_step[i][before.min(14)][c as usize];
                before += c as usize;
                pairs += (c >> 1) as i32;
            }
            if before <= 14 {
                class_of[g] = t.suit_class[rank as usize] as usize;
                pairs_of[g] = pairs;
                tiles_of[g] = before as i32;
                continue;
            }
        }
        let pk = packed(t, counts, g);
        class_of[g] = (pk & 255) as usize;
        if capped {
            // the rows themselves are combined only when some are capped (else the class lookups)
            row_of[g] = match caps {
                Some(cp) if r.clone().any(|k| cp[k] < 4) => capped_row(&counts[r.clone()], &cp[r.clone()], g < 3),
                _ => t.rows[(pk & 255) as usize],
            };
        }
        pairs_of[g] = if capped { r.clone().map(|k| (counts[k] / 2) as i32).sum() } else { (pk >> 8) as i32 };
        tiles_of[g] = r.map(|k| counts[k] as i32).sum();
    }
    let mut best = NO_WIN + 1;
    for &choice in &choices[..nc] {
        if meld_suits & !choice & 0b111 != 0 {
            continue; // a meld's suit must stay in the hand
        }
        let mut rows = [[0i32; 10]; 3];
        let mut cls = [0usize; 3];
        let mut nr = 0;
        let (mut pairs, mut tiles) = (0, 0);
        for g in 0..4 {
            if choice >> g & 1 == 1 {
                if capped {
                    rows[nr] = row_of[g];
                }
                cls[nr] = class_of[g];
                nr += 1;
                pairs += pairs_of[g];
                tiles += tiles_of[g];
            }
        }
        // nothing capped: every row is a shipped class, and the combination a lookup
        let mut d = if capped { combine(&rows[..nr], sets) } else { t.combined(&cls[..nr], sets) };
        if !capped {
            d = d.min(INF);
        }
        if seven_pairs {
            d = d.min(seven_pairs_distance(pairs, tiles));
        }
        best = best.min(d);
    }
    best - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::testing::{counts, tiles};
    use crate::spec::{HONOUR_TABLE_LEN, SUIT_TABLE_LEN};

    /// Tables as the package ships them, for every honour vector and for the suits of ``hands``
    /// only: a row is the capped-row programme with nothing capped (that is how the shipped rows
    /// are defined; ``majiang.analysis.capped_row`` is what the Python tests check them against),
    /// the packed value ``class | pairs << 8``. So the tests need no table files.
    fn tables_for(hands: &[&str]) -> Tables {
        let mut rows: Vec<Row> = Vec::new();
        let mut pack = |c: &[u8], sequences: bool| -> u16 {
            let row = capped_row_dp(c, &[4; 9][..c.len()], sequences);
            let class = rows.iter().position(|r| *r == row).unwrap_or_else(|| {
                rows.push(row);
                rows.len() - 1
            });
            let pairs: u16 = c.iter().map(|&x| (x / 2) as u16).sum();
            class as u16 | pairs << 8
        };
        let mut honour = vec![0u16; HONOUR_TABLE_LEN];
        for (k, h) in honour.iter_mut().enumerate() {
            *h = pack(&[(k / 25) as u8, (k / 5 % 5) as u8, (k % 5) as u8], false);
        }
        let mut suit = vec![0u16; SUIT_TABLE_LEN];
        for hand in hands {
            let c = counts(hand);
            for g in 0..3 {
                let s = &c[g * 9..g * 9 + 9];
                suit[s.iter().fold(0usize, |k, &x| k * 5 + x as usize)] = pack(s, true);
            }
        }
        Tables::new(suit, honour, rows)
    }

    const KAWUXING: Layout = Layout { suits: [false, true, true], dragons: true, two_suit_rule: false };
    const SICHUAN: Layout = Layout { suits: [true, true, true], dragons: false, two_suit_rule: true };

    /// A closed hand's shanten.
    fn closed(lay: &Layout, hand: &str, void: i8, seven_pairs: bool) -> i32 {
        let t = tables_for(&[hand]);
        shanten_in(&t, lay, &counts(hand), 4, void, None, seven_pairs, 0)
    }

    /// Shanten with pongs of ``pongs`` (their copies leave the caps).
    fn with_pongs(lay: &Layout, hand: &str, pongs: &str) -> i32 {
        let t = tables_for(&[hand]);
        let mut caps = [4u8; 30];
        let mut suits = 0u8;
        let melds = tiles(pongs);
        for &p in &melds {
            caps[p as usize] -= 3;
            suits |= 1 << (p / 9);
        }
        let suits = if lay.two_suit_rule { suits } else { 0 };
        shanten_in(&t, lay, &counts(hand), 4 - melds.len(), -1, Some(&caps), false, suits)
    }

    #[test]
    fn kawuxing_shanten() {
        assert_eq!(closed(&KAWUXING, "123p456p789s11s555z", -1, true), -1); // complete
        assert_eq!(closed(&KAWUXING, "123p456p789s11s55z", -1, true), 0); // waits 1s, 5z
        assert_eq!(closed(&KAWUXING, "2345p555s789s666z", -1, true), 0); // the package doctest
        assert_eq!(closed(&KAWUXING, "1122p3344s5566s77z", -1, true), -1); // seven pairs
        assert_eq!(closed(&KAWUXING, "1122p3344s5566s7z", -1, true), 0); // seven pairs ready
        assert_eq!(closed(&KAWUXING, "1122p3344s5566s7z", -1, false), 1); // without seven pairs
        assert_eq!(closed(&KAWUXING, "1p4p7p1s4s7s5z6z7z2p5p8p3s", -1, true), 4);
    }

    #[test]
    fn kawuxing_shanten_with_melds() {
        // a lone 5p beside a pong of 5p cannot pair (test_pong_limits_shanten)
        assert_eq!(with_pongs(&KAWUXING, "5p", "5p1s2s3s"), 1);
        // 5p123s with pongs of 5p 7s 8s: not ready (test_exhausted_tiles_are_not_waits)
        assert_eq!(with_pongs(&KAWUXING, "5p123s", "5p7s8s"), 1);
    }

    #[test]
    fn sichuan_shanten() {
        assert_eq!(closed(&SICHUAN, "123m456m789m111p22p", -1, true), -1);
        assert_eq!(closed(&SICHUAN, "2345m111p222p333p", -1, true), 0);
        assert_eq!(closed(&SICHUAN, "1112345678999m", -1, true), 0); // 九莲宝灯
        assert_eq!(closed(&SICHUAN, "123m456m789m11p23s", -1, true), 2); // three suits: drop one
        assert_eq!(closed(&SICHUAN, "123m456m789m111p2p", 1, true), 4); // void p: nine m tiles left
        assert_eq!(closed(&SICHUAN, "11m22m33p44p55p66s7s", -1, true), 3); // seven pairs, but a suit must go
        assert_eq!(closed(&SICHUAN, "1m4m7m1p4p7p1s4s7s2m5m8m3p", -1, true), 4);
    }

    #[test]
    fn sichuan_shanten_with_melds() {
        assert_eq!(with_pongs(&SICHUAN, "123m456m11p23p", "5m"), 0);
        // the pong's suit must stay: the s tiles go
        assert_eq!(with_pongs(&SICHUAN, "123p456p11p23s", "5m"), 2);
    }

    #[test]
    fn capped_rows_from_the_docstring() {
        let row = capped_row_dp(&[1, 0, 0, 0, 0, 0, 0, 0, 0], &[4; 9], true);
        assert_eq!(row[..4], [0, 1, 2, 4]);
        let row = capped_row_dp(&[1, 0, 0, 0, 0, 0, 0, 0, 0], &[1, 4, 4, 4, 4, 4, 4, 4, 4], true);
        assert_eq!(row[1], 2); // a pair of 1s needs a second 1: gone
    }
}

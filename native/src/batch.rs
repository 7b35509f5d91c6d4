//! Shanten and waits of many closed hands at once (``majiang.core.batch``), on rows of 1-byte
//! counts: a row is a few table reads. A suit's class comes from the rank of its nine counts
//! (three reads of a table by blocks of three kinds); for a win from two groups the shanten of
//! the two classes is one read of ``Tables::final2``, for a win from all three the first two classes'
//! combined row has a number among few (``Tables::pair_class``) and ``Tables::final3`` answers
//! from it and the third class. Waits read, per group, which drawn kinds complete it (``suit_wait``). Laid out
//! once from the shanten tables Python handed over (``shanten::set_tables``).
//!
//! The common layouts (three groups, the first two suits, the third a suit or the honours: every
//! variant the package ships) get their own loop per layout, a chunk of rows at a time: the ranks
//! first, then the reads they index, so the reads of many rows are under way together.

use std::mem::MaybeUninit;
use std::sync::OnceLock;

use crate::shanten::{suit_rank, Layout, Tables, INF, NO_WIN, SUIT_VECTORS, TABLES};

/// Rows done at a time: their keys fit the first-level cache, wider counts are converted so.
pub const CHUNK_ROWS: usize = 256;
const COMPLETE_BIT: u16 = 1 << 9;

/// The batch tables, laid out from the shanten tables on the first batch.
struct Batch {
    classes: usize,
    // a block of three kinds' part of a suit's rank, by the tiles before it and its counts in base
    // 5, with the block's pairs in the top byte (the parts add up to below 2**24)
    rank_block: Box<[[[u32; 128]; 16]; 3]>, // 125 and 15 used: the indices are masked, no bounds tests
    honour_class: [u8; 128],
}

/// Waits by group: for a suit by rank, an honour group by its counts in base 5, bits 0-8 the
/// kinds that complete it, bit 9 it is complete as it is, bits 10-11 its tiles mod 3 (so bits
/// 9-11 are the group's digit of ``takes``, with no division in the loop).
struct Waits {
    suit: Vec<u16>,
    honour: [u16; 128],
    // by each group's (tiles mod 3) * 2 + complete, three bits a group: bit g when the drawn tile
    // may go to group g (its tiles are not a multiple of 3, every other group is complete, one
    // pair in all)
    takes: [u8; 512],
    spread: [u64; 256], // eight bits as eight bytes of 0 or 1, in memory order
}
const REMAINDER_SHIFT: u32 = 10;

static BATCH: OnceLock<Batch> = OnceLock::new();
static WAITS: OnceLock<Waits> = OnceLock::new();

fn batch(t: &Tables) -> &'static Batch {
    BATCH.get_or_init(|| {
        let mut rank_block = Box::new([[[0u32; 128]; 16]; 3]);
        for b in 0..3 {
            for before in 0..15 {
                for key in 0..125 {
                    let c = [key / 25, key / 5 % 5, key % 5];
                    let (mut at, mut r, mut pairs) = (before, 0u32, 0u32);
                    for (j, &x) in c.iter().enumerate() {
                        r += t.rank_step[3 * b + j][at.min(14)][x];
                        at += x;
                        pairs += (x >> 1) as u32;
                    }
                    rank_block[b][before][key] = r | pairs << 24;
                }
            }
        }
        let mut honour_class = [0u8; 128];
        for (k, c) in honour_class.iter_mut().enumerate().take(125) {
            *c = (t.honour[k] & 255) as u8;
        }
        let nc = t.small_rows.len();
        Batch { classes: nc, rank_block, honour_class }
    })
}

fn waits_tables(t: &Tables, b: &Batch) -> &'static Waits {
    WAITS.get_or_init(|| {
        let complete = |row: &[u8; 10], n: usize| n % 3 != 1 && row[(n / 3) * 2 + (n % 3 == 2) as usize] == 0;
        let mut suit = vec![0u16; SUIT_VECTORS];
        // every suit vector of at most 14 tiles, by an odometer over the counts
        let mut c = [0u8; 9];
        loop {
            let total: usize = c.iter().map(|&x| x as usize).sum();
            if total <= 14 {
                let class = |c: &[u8; 9]| &t.small_rows[t.suit_class[suit_rank(&t.rank_step, c)] as usize];
                let mut bits = if complete(class(&c), total) { COMPLETE_BIT } else { 0 };
                bits |= ((total % 3) as u16) << REMAINDER_SHIFT;
                for i in 0..9 {
                    if total <= 13 && c[i] < 4 {
                        c[i] += 1;
                        bits |= (complete(class(&c), total + 1) as u16) << i;
                        c[i] -= 1;
                    }
                }
                suit[suit_rank(&t.rank_step, &c)] = bits;
            }
            let Some(i) = (0..9).rev().find(|&i| c[i] < 4) else { break };
            c[i] += 1;
            c[i + 1..].fill(0);
        }
        let mut honour = [0u16; 128];
        for (key, bits) in honour.iter_mut().enumerate().take(125) {
            let h = [key / 25, key / 5 % 5, key % 5];
            let n = h[0] + h[1] + h[2];
            let row = |k: usize| &t.small_rows[b.honour_class[k] as usize];
            *bits = if complete(row(key), n) { COMPLETE_BIT } else { 0 };
            *bits |= ((n % 3) as u16) << REMAINDER_SHIFT;
            for (i, pow) in [25, 5, 1].into_iter().enumerate() {
                if h[i] < 4 && complete(row(key + pow), n + 1) {
                    *bits |= 1 << i;
                }
            }
        }
        let mut takes = [0u8; 512];
        for (code, bits) in takes.iter_mut().enumerate() {
            let digit = [code >> 6, code >> 3 & 7, code & 7];
            if digit.iter().any(|&d| d >= 6) {
                continue; // no group's tiles leave 3 mod 3
            }
            let r = digit.map(|d| d / 2);
            let done = digit.map(|d| d % 2);
            let unfinished = 3 - done.iter().sum::<usize>();
            let pairs_in = r.iter().filter(|&&x| x == 2).count();
            for g in 0..3 {
                if r[g] != 0
                    && (unfinished == 0 || (unfinished == 1 && done[g] == 0))
                    && pairs_in - (r[g] == 2) as usize + (r[g] == 1) as usize == 1
                {
                    *bits |= 1 << g;
                }
            }
        }
        let mut spread = [0u64; 256];
        for (m, word) in spread.iter_mut().enumerate() {
            *word = u64::from_ne_bytes(std::array::from_fn(|k| (m >> k & 1) as u8));
        }
        Waits { suit, honour, takes, spread }
    })
}

/// A variant's groups and the groups a win may use, for one void.
pub struct Plan {
    groups: usize,
    start: [usize; 4],
    size: [usize; 4],
    choices: usize,
    choice: [[usize; 3]; 3], // group indices (into start/size) of each choice
    choice_size: [usize; 3],
    two_suit_rule: bool,
    void_group: Option<usize>,
    // bit m: a closed hand whose groups holding tiles are the bits of m may win (the two-suit
    // rule: not three suits, not the void suit)
    wins_by_present: u32,
}

static PLANS: OnceLock<Vec<Plan>> = OnceLock::new();

impl Plan {
    /// The plan of ``lay`` with ``void`` (-1 none, 0-2 a suit), worked out once for every layout.
    #[inline(always)]
    pub fn of(lay: &Layout, void: i8) -> &'static Plan {
        let index = |lay: &Layout, void: i8| {
            let bits = lay.suits.iter().enumerate().fold(0, |acc, (g, &x)| acc | (x as usize) << g);
            ((bits | (lay.dragons as usize) << 3 | (lay.two_suit_rule as usize) << 4) << 2) + (void + 1) as usize
        };
        let plans = PLANS.get_or_init(|| {
            let mut all: Vec<Option<Plan>> = (0..128).map(|_| None).collect();
            for bits in 0..32 {
                let lay = Layout {
                    suits: [bits & 1 != 0, bits & 2 != 0, bits & 4 != 0],
                    dragons: bits & 8 != 0,
                    two_suit_rule: bits & 16 != 0,
                };
                for void in -1..3 {
                    all[index(&lay, void)] = Some(Plan::new(&lay, void));
                }
            }
            all.into_iter().map(|p| p.unwrap()).collect()
        });
        &plans[index(lay, void.clamp(-1, 2))]
    }

    /// The plan of ``lay`` with ``void``, as ``shanten::shanten`` chooses.
    fn new(lay: &Layout, void: i8) -> Plan {
        let mut p = Plan {
            groups: 0,
            start: [0; 4],
            size: [0; 4],
            choices: 0,
            choice: [[0; 3]; 3],
            choice_size: [0; 3],
            two_suit_rule: lay.two_suit_rule,
            void_group: None,
            wins_by_present: 0,
        };
        let mut ids = [0usize; 4]; // the group of each index: suit 0-2, the dragons 3
        for g in 0..4 {
            if (g < 3 && lay.suits[g]) || (g == 3 && lay.dragons) {
                ids[p.groups] = g;
                p.start[p.groups] = g * 9;
                p.size[p.groups] = if g == 3 { 3 } else { 9 };
                if void >= 0 && g == void as usize {
                    p.void_group = Some(p.groups);
                }
                p.groups += 1;
            }
        }
        let mut add = |leave: Option<usize>| {
            let mut k = 0;
            for (i, &id) in ids[..p.groups].iter().enumerate() {
                if Some(id) != leave && k < 3 {
                    p.choice[p.choices][k] = i;
                    k += 1;
                }
            }
            p.choice_size[p.choices] = k;
            p.choices += 1;
        };
        if !lay.two_suit_rule {
            add(None);
        } else if void >= 0 {
            add(Some(void as usize));
        } else {
            for &id in &ids[..p.groups.min(3)] {
                add(Some(id));
            }
        }
        p.wins_by_present = (0..8u32).fold(0, |acc, m| {
            let void_clear = p.void_group.is_none_or(|g| m >> g & 1 == 0);
            acc | ((!p.two_suit_rule || (m.count_ones() <= 2 && void_clear)) as u32) << m
        });
        p
    }

    /// The common layout: three groups, two suits then a suit (true) or the honours (false).
    fn three(&self) -> Option<bool> {
        (self.groups == 3 && self.size[0] == 9 && self.size[1] == 9).then_some(self.size[2] == 9)
    }

    /// Whether a win may come from one group alone (the numpy path refuses those plans).
    pub fn single_group_win(&self) -> bool {
        self.choice_size[..self.choices].iter().any(|&k| k < 2)
    }
}

/// Any count over 4 (a negative one read as a byte is too).
#[inline(always)]
pub fn any_over_four(src: &[u8]) -> bool {
    src.iter().fold(0u8, |m, &x| m.max(x)) > 4
}

/// A group of nine counts (each 0-4): its rank (0, a valid index, past 14 tiles), tiles and pairs.
#[inline(always)]
fn block_rank(b: &Batch, c: &[u8]) -> (usize, u32, u32) {
    // eight counts a word (byte k count k): one multiplication puts 25 c[k-2] + 5 c[k-1] + c[k]
    // in byte k, another the sum of counts 0..k (no byte carries: at most 124 and 32)
    let c: &[u8; 9] = c[..9].try_into().unwrap();
    let w = u64::from_le_bytes(c[..8].try_into().unwrap());
    let w1 = u64::from_le_bytes(c[1..].try_into().unwrap());
    let (keys, keys1, before) =
        (w.wrapping_mul(0x19_0501), w1.wrapping_mul(0x19_0501), w.wrapping_mul(0x0101_0101_0101_0101));
    let (t0, t1) = ((before >> 16 & 255) as usize, (before >> 40 & 255) as usize);
    let t = (before >> 56) as u32 + c[8] as u32;
    let (k0, k1, k2) = ((keys >> 16 & 127) as usize, (keys >> 40 & 127) as usize, (keys1 >> 56 & 127) as usize);
    let r = &b.rank_block;
    let s = r[0][0][k0] + r[1][t0 & 15][k1] + r[2][t1.min(14)][k2];
    (if t > 14 { 0 } else { (s & 0xFF_FFFF) as usize }, t, s >> 24)
}

/// A suit table's entry by rank: a rank comes from ``block_rank``, below ``SUIT_VECTORS``.
#[inline(always)]
fn suit_entry<T: Copy>(table: &[T], rank: usize) -> T {
    debug_assert!(table.len() == SUIT_VECTORS && rank < SUIT_VECTORS);
    // SAFETY: the tables hold every rank of a suit of at most 14 tiles (block_rank gives 0 past)
    unsafe { *table.get_unchecked(rank) }
}

#[derive(Clone, Copy)]
struct Keys {
    key: [u32; 3], // a suit's rank, the honours' counts in base 5
    // words, not bytes: each is stored and read back alone, so a row read just after its keys
    // were written (a batch of one) takes them from the store buffer without a stall
    tiles: [u32; 3],
    pairs: [u32; 3],
}

/// The keys of the rows in ``src`` (at most ``CHUNK_ROWS``), written to the start of ``keys`` (left
/// uninitialised past them: a first row need not pay for clearing them all); and true when a group
/// holds more than 14 tiles. The tables' lines they index are asked for on the way (``table``,
/// ``item`` bytes an entry), so the reads of many rows are under way together.
#[inline(always)]
fn keys_of_rows<'k, const THIRD_SUIT: bool>(
    b: &Batch,
    src: &[u8],
    width: usize,
    p: &Plan,
    keys: &'k mut [MaybeUninit<Keys>; CHUNK_ROWS],
    table: *const u8,
    item: usize,
) -> (&'k [Keys], bool) {
    let rows = src.len() / width;
    let mut over = false;
    for (slot, row) in keys[..rows].iter_mut().zip(src.chunks_exact(width)) {
        let mut k = Keys { key: [0; 3], tiles: [0; 3], pairs: [0; 3] };
        for g in 0..2 {
            let (rank, tiles, pairs) = block_rank(b, &row[p.start[g]..p.start[g] + 9]);
            (k.key[g], k.tiles[g], k.pairs[g]) = (rank as u32, tiles, pairs);
        }
        let x = &row[p.start[2]..];
        if THIRD_SUIT {
            let (rank, tiles, pairs) = block_rank(b, &x[..9]);
            (k.key[2], k.tiles[2], k.pairs[2]) = (rank as u32, tiles, pairs);
        } else {
            k.key[2] = (x[0] as u32 * 5 + x[1] as u32) * 5 + x[2] as u32;
            k.tiles[2] = x[0] as u32 + x[1] as u32 + x[2] as u32;
            k.pairs[2] = (x[0] >> 1) as u32 + (x[1] >> 1) as u32 + (x[2] >> 1) as u32;
        }
        over |= k.tiles.iter().any(|&t| t > 14);
        prefetch(table.wrapping_add(k.key[0] as usize * item));
        prefetch(table.wrapping_add(k.key[1] as usize * item));
        if THIRD_SUIT {
            prefetch(table.wrapping_add(k.key[2] as usize * item));
        }
        slot.write(k);
    }
    // SAFETY: the first ``rows`` were written just above
    (unsafe { std::slice::from_raw_parts(keys.as_ptr() as *const Keys, rows) }, over)
}

#[inline(always)]
fn prefetch(_at: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it never faults, whatever the address
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(_at as *const i8)
    }
}

/// The tiles and pairs of a row of 27 or 30 counts (each 0-4), eight bytes at a time: the last
/// eight read overlap the third, and the bytes read twice are taken off.
#[inline(always)]
fn row_totals(c: &[u8]) -> (u32, u32) {
    let last = c.len() - 8;
    let word = |at: usize| u64::from_le_bytes(c[at..at + 8].try_into().unwrap());
    let w = [word(0), word(8), word(16), word(last)];
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let sum = w[0] + w[1] + w[2] + w[3]; // each byte at most 16: no carry between bytes
    let half = w.iter().map(|&x| (x >> 1) & LOW7).sum::<u64>();
    let (mut t, mut pr) = ((sum.wrapping_mul(ONES) >> 56) as u32, (half.wrapping_mul(ONES) >> 56) as u32);
    for &x in &c[last..24] {
        t -= x as u32;
        pr -= (x >> 1) as u32;
    }
    (t, pr)
}

/// ``analysis.seven_pairs_distance`` without a branch (random hands would mispredict one).
#[inline(always)]
fn seven_pairs_flat(pairs: u32, tiles: u32) -> i32 {
    let need = 7 - pairs as i32;
    let short_of = need - (tiles as i32 - 2 * pairs as i32);
    (need + short_of.max(0)) * (need > 0) as i32
}

#[inline(always)]
fn shanten_chunk<const THIRD_SUIT: bool, const TRIPLE: bool>(
    t: &Tables,
    b: &Batch,
    src: &[u8],
    width: usize,
    p: &Plan,
    sets: usize,
    dst: &mut [i8],
) -> bool {
    let nc = b.classes;
    let seven_off = if sets == 4 { 0 } else { INF };
    let fin = &t.final2[sets * nc * nc..(sets + 1) * nc * nc];
    let pc = t.pair_classes;
    let fin3 = &t.final3[sets * pc * nc..(sets + 1) * pc * nc];
    let mut keys = [MaybeUninit::uninit(); CHUNK_ROWS];
    let (keys, over) = keys_of_rows::<THIRD_SUIT>(b, src, width, p, &mut keys, t.suit_class.as_ptr(), 1);
    if over {
        return false;
    }
    for (k, out) in keys.iter().zip(dst.iter_mut()) {
        let third = if THIRD_SUIT {
            suit_entry(&t.suit_class, k.key[2] as usize)
        } else {
            b.honour_class[k.key[2] as usize & 127]
        };
        let cls = [
            suit_entry(&t.suit_class, k.key[0] as usize) as usize,
            suit_entry(&t.suit_class, k.key[1] as usize) as usize,
            third as usize,
        ];
        let best = if TRIPLE {
            let d = fin3[t.pair_class[cls[0] * nc + cls[1]] as usize * nc + cls[2]] as i32;
            let d7 = seven_pairs_flat(k.pairs.iter().sum(), k.tiles.iter().sum()) + seven_off;
            d.min(d7)
        } else {
            let mut best = NO_WIN + 1;
            for c in 0..p.choices {
                let (x, y) = (p.choice[c][0], p.choice[c][1]);
                let d = fin[cls[x] * nc + cls[y]] as i32;
                let d7 = seven_pairs_flat(k.pairs[x] + k.pairs[y], k.tiles[x] + k.tiles[y]) + seven_off;
                best = best.min(d.min(d7));
            }
            best
        };
        *out = (best - 1) as i8;
    }
    true
}

/// Shanten of rows of 1-byte counts 0-4 (``width`` 27 or 30 a row) into ``dst``, one a row:
/// ``sets`` sets and a pair, seven pairs too when ``sets`` is 4. False (``dst`` part written) when
/// a row holds a count over 4 or a group of more than 14 tiles: the Python path answers those.
pub fn shanten_rows(lay: &Layout, void: i8, src: &[u8], width: usize, sets: usize, dst: &mut [i8]) -> bool {
    let t = TABLES.get().expect("shanten tables not loaded");
    let b = batch(t);
    let p = Plan::of(lay, void);
    let triple = p.choices == 1 && p.choice_size[0] == 3 && t.pair_classes > 0;
    let pairs_only = p.choice_size[..p.choices].iter().all(|&k| k == 2);
    for (rows, out) in src.chunks(CHUNK_ROWS * width).zip(dst.chunks_mut(CHUNK_ROWS)) {
        if any_over_four(rows) {
            return false;
        }
        let done = match (p.three(), triple, pairs_only) {
            (Some(true), true, _) => shanten_chunk::<true, true>(t, b, rows, width, p, sets, out),
            (Some(false), true, _) => shanten_chunk::<false, true>(t, b, rows, width, p, sets, out),
            (Some(true), false, true) => shanten_chunk::<true, false>(t, b, rows, width, p, sets, out),
            (Some(false), false, true) => shanten_chunk::<false, false>(t, b, rows, width, p, sets, out),
            _ => {
                let mut ok = true;
                for (row, o) in rows.chunks(width).zip(out.iter_mut()) {
                    let mut counts = [0u8; 30];
                    counts[..width].copy_from_slice(row);
                    ok &= (0..3).all(|g| counts[g * 9..g * 9 + 9].iter().map(|&x| x as u32).sum::<u32>() <= 14);
                    *o = crate::shanten::shanten(lay, &counts, sets, void, None, sets == 4, 0) as i8;
                }
                ok
            }
        };
        if !done {
            return false;
        }
    }
    true
}

#[inline(always)]
fn waits_chunk<const THIRD_SUIT: bool, const WIDTH: usize>(
    b: &Batch,
    w: &Waits,
    src: &[u8],
    p: &Plan,
    allowed: u32,
    dst: &mut [u8],
) -> bool {
    let (s0, s1, s2) = (p.start[0], p.start[1], p.start[2]);
    let mask2: u32 = if THIRD_SUIT { 0x1FF } else { 0x7 };
    let mut keys = [MaybeUninit::uninit(); CHUNK_ROWS];
    let (keys, mut over) = keys_of_rows::<THIRD_SUIT>(b, src, WIDTH, p, &mut keys, w.suit.as_ptr() as *const u8, 2);
    for ((k, row), d) in keys.iter().zip(src.chunks_exact(WIDTH)).zip(dst.chunks_exact_mut(WIDTH)) {
        let row: &[u8; WIDTH] = row.try_into().unwrap();
        let n = k.tiles;
        let third =
            if THIRD_SUIT { suit_entry(&w.suit, k.key[2] as usize) } else { w.honour[k.key[2] as usize & 127] } as u32;
        let info =
            [suit_entry(&w.suit, k.key[0] as usize) as u32, suit_entry(&w.suit, k.key[1] as usize) as u32, third];
        over |= n.iter().any(|&x| x > 13);
        // the two-suit rule (``allowed``: ``Plan::wins_by_present``): tiles of three suits, or of
        // the void suit, never win
        let present = (n[0] > 0) as u32 | ((n[1] > 0) as u32) << 1 | ((THIRD_SUIT && n[2] > 0) as u32) << 2;
        let can_win = allowed >> present & 1;
        let code = (info[0] >> 9 & 7) << 6 | (info[1] >> 9 & 7) << 3 | (info[2] >> 9 & 7);
        let takes = w.takes[code as usize] as u32 & 0u32.wrapping_sub(can_win);
        let mut out = (info[0] & 0x1FF & 0u32.wrapping_sub(takes & 1)) << s0
            | (info[1] & 0x1FF & 0u32.wrapping_sub(takes >> 1 & 1)) << s1
            | (info[2] & mask2 & 0u32.wrapping_sub(takes >> 2 & 1)) << s2;
        let (total, pairs) = row_totals(row);
        over |= total != n[0] + n[1] + n[2]; // a tile of a kind the variant does not have
        if total == 13 && pairs == 6 && can_win != 0 {
            // seven pairs: six pairs and an odd tile (one or three of it: never a fourth)
            if let Some(k) = row.iter().position(|&x| x & 1 == 1) {
                out |= 1 << k;
            }
        }
        // the mask as bools, eight at a time, the last eight overlapping the third
        for (at, shift) in [(0, 0), (8, 8), (16, 16), (WIDTH - 8, WIDTH - 8)] {
            d[at..at + 8].copy_from_slice(&w.spread[(out >> shift & 255) as usize].to_ne_bytes());
        }
    }
    !over
}

/// Waits of closed rows of 1-byte counts 0-4 as bools into ``dst`` (``width`` a row): ``[i, k]``
/// when kind ``k`` completes row ``i``, as ``analysis.waits_counts(row, row, variant, void)``. False
/// (``dst`` part written) when a row holds a count over 4, a group of more than 13 tiles, or a
/// tile of a kind the variant does not have, or the variant is not a common layout: the Python
/// path answers those.
pub fn waits_rows(lay: &Layout, void: i8, src: &[u8], width: usize, dst: &mut [u8]) -> bool {
    let t = TABLES.get().expect("shanten tables not loaded");
    let b = batch(t);
    let w = waits_tables(t, b);
    let p = Plan::of(lay, void);
    let Some(third_suit) = p.three() else { return false };
    if width != 27 && width != 30 {
        return false;
    }
    let allowed = p.wins_by_present;
    for (rows, out) in src.chunks(CHUNK_ROWS * width).zip(dst.chunks_mut(CHUNK_ROWS * width)) {
        if any_over_four(rows) {
            return false;
        }
        let done = match (third_suit, width) {
            (true, 30) => waits_chunk::<true, 30>(b, w, rows, p, allowed, out),
            (false, 30) => waits_chunk::<false, 30>(b, w, rows, p, allowed, out),
            (true, _) => waits_chunk::<true, 27>(b, w, rows, p, allowed, out),
            (false, _) => waits_chunk::<false, 27>(b, w, rows, p, allowed, out),
        };
        if !done {
            return false;
        }
    }
    true
}

/// Whether the tables are laid out (for a first call that would otherwise pay for it).
pub fn prepare(waits: bool) {
    if let Some(t) = TABLES.get() {
        let b = batch(t);
        if waits {
            waits_tables(t, b);
        }
    }
}

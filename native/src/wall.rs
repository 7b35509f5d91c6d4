//! The wall, shuffled exactly as ``majiang.engine.shuffled_wall`` does with Python's ``random``:
//! MT19937 seeded by ``init_by_array`` from the key Python derives from the seed string (the
//! caller passes its 32-bit words), Python's ``shuffle`` and ``randint(1, 6)`` for the dice.

const N: usize = 624;
const M: usize = 397;

#[derive(Clone)]
pub struct Mt {
    mt: [u32; N],
    index: usize,
    /// Words of the current generation twisted so far: the twist runs in order, a part at a time,
    /// as outputs are asked for (a shuffle takes ~150 of the 624), and equals the whole twist.
    ready: usize,
}

/// ``init_genrand(s)``'s state, computed at compile time for the one seed ``init_by_array`` uses.
const fn genrand_state(s: u32) -> [u32; N] {
    let mut mt = [0u32; N];
    mt[0] = s;
    let mut i = 1;
    while i < N {
        mt[i] = 1_812_433_253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        i += 1;
    }
    mt
}

const BY_ARRAY_START: [u32; N] = genrand_state(19_650_218);

const UPPER: u32 = 0x8000_0000;
const LOWER: u32 = 0x7fff_ffff;

fn twisted(word: u32, next: u32, far: u32) -> u32 {
    let y = (word & UPPER) | (next & LOWER);
    far ^ (y >> 1) ^ if y & 1 == 1 { 0x9908_b0df } else { 0 }
}

impl Mt {
    /// ``init_by_array(key)``. Each word depends on the one before: the previous word is kept in
    /// a register (``prev``) rather than read back from the array, which is half the time.
    pub fn from_key(key: &[u32]) -> Mt {
        let mut mt = BY_ARRAY_START;
        let key: &[u32] = if key.is_empty() { &[0] } else { key };
        let len = key.len();
        let (mut i, mut j) = (1usize, 0usize);
        let mut prev = mt[0];
        for _ in 0..N.max(len) {
            let x = prev ^ (prev >> 30);
            prev = (mt[i] ^ x.wrapping_mul(1_664_525)).wrapping_add(key[j]).wrapping_add(j as u32);
            mt[i] = prev;
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = prev; // mt[N - 1]
                i = 1;
            }
            if j >= len {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let x = prev ^ (prev >> 30);
            prev = (mt[i] ^ x.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            mt[i] = prev;
            i += 1;
            if i >= N {
                mt[0] = prev;
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        Mt { mt, index: N, ready: N }
    }

    /// Twist the next part of the state (a new generation when the last one is used up): words
    /// below ``N - M`` read only words not yet twisted, the rest read ones twisted before them.
    #[cold]
    fn twist_more(&mut self) {
        let mt = &mut self.mt;
        if self.ready >= N {
            self.ready = 0;
            self.index = 0;
        }
        if self.ready < N - M {
            for kk in 0..N - M {
                mt[kk] = twisted(mt[kk], mt[kk + 1], mt[kk + M]);
            }
            self.ready = N - M;
        } else {
            for kk in N - M..N - 1 {
                mt[kk] = twisted(mt[kk], mt[kk + 1], mt[kk + M - N]);
            }
            mt[N - 1] = twisted(mt[N - 1], mt[0], mt[M - 1]);
            self.ready = N;
        }
    }

    pub fn next_u32(&mut self) -> u32 {
        if self.index >= self.ready {
            self.twist_more();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// Python's ``random.random()``: 53 bits from two outputs.
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// Python's ``_randbelow_with_getrandbits`` for n < 2**32.
    pub(crate) fn below(&mut self, n: u32) -> u32 {
        let k = 32 - n.leading_zeros();
        loop {
            let r = self.next_u32() >> (32 - k);
            if r < n {
                return r;
            }
        }
    }
}

/// The most key words ``seed_key`` makes: a prefix, a hand index's 20 digits and the digest.
pub const MAX_KEY_WORDS: usize = (crate::spec::MAX_SEED_PREFIX + 20 + 64).div_ceil(4);

/// The key ``majiang.native.seed_key`` makes for the seed string ``prefix`` + ``hand_index`` (in
/// decimal): the string's bytes and their SHA-512, read as one big-endian integer, in 32-bit words
/// from the least significant. Returns the words and how many there are.
pub fn seed_key(prefix: &[u8], hand_index: u64) -> ([u32; MAX_KEY_WORDS], usize) {
    let mut text = [0u8; crate::spec::MAX_SEED_PREFIX + 20 + 64];
    let p = prefix.len().min(crate::spec::MAX_SEED_PREFIX);
    text[..p].copy_from_slice(&prefix[..p]);
    let mut digits = [0u8; 20];
    let (mut d, mut v) = (20, hand_index);
    loop {
        d -= 1;
        digits[d] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let len = p + 20 - d;
    text[p..len].copy_from_slice(&digits[d..]);
    let digest = crate::sha512::sha512(&text[..len]);
    text[len..len + 64].copy_from_slice(&digest);
    let bytes = &text[..len + 64];
    let top = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len()); // leading zero bytes drop out
    let significant = &bytes[top..];
    let mut words = [0u32; MAX_KEY_WORDS];
    for (k, b) in significant.iter().rev().enumerate() {
        words[k / 4] |= (*b as u32) << (8 * (k % 4));
    }
    (words, significant.len().div_ceil(4).max(1))
}

/// Four of each kind, shuffled; then the two dice.
pub fn shuffled(kinds: &[u8], key: &[u32]) -> (Vec<u8>, (u8, u8)) {
    let mut rng = Mt::from_key(key);
    let mut wall: Vec<u8> = kinds.iter().flat_map(|&k| [k; 4]).collect();
    for i in (1..wall.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        wall.swap(i, j);
    }
    let d0 = 1 + rng.below(6) as u8;
    let d1 = 1 + rng.below(6) as u8;
    (wall, (d0, d1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kawuxing_kinds() -> Vec<u8> {
        (9..30).collect() // p, s and the dragons (the default suits)
    }

    fn sichuan_kinds() -> Vec<u8> {
        (0..27).collect()
    }

    #[test]
    fn python_random_from_an_int_seed() {
        // random.Random(5): init_by_array([5]); .random() twice, then _randbelow(37) five times
        let mut r = Mt::from_key(&[5]);
        assert_eq!(r.random(), 0.6229016948897019);
        assert_eq!(r.random(), 0.7417869892607294);
        let mut r = Mt::from_key(&[5]);
        let below: Vec<u32> = (0..5).map(|_| r.below(37)).collect();
        assert_eq!(below, vec![16, 22, 33, 1, 29]);
        // random.Random(2**40 + 7): two key words, least significant first
        assert_eq!(Mt::from_key(&[7, 256]).random(), 0.6137037779936511);
    }

    #[test]
    fn the_twist_in_parts_is_the_whole_twist() {
        // MT19937's twist of all 624 words at once (the reference), against 2,000 outputs
        for key in [&[5u32][..], &[1, 2, 3], &[]] {
            let mut r = Mt::from_key(key);
            let mut state = r.mt;
            let mut whole = Vec::new();
            for _ in 0..4 {
                for kk in 0..N {
                    let y = (state[kk] & UPPER) | (state[(kk + 1) % N] & LOWER);
                    state[kk] = state[(kk + M) % N] ^ (y >> 1) ^ if y & 1 == 1 { 0x9908_b0df } else { 0 };
                }
                for &w in &state {
                    let mut y = w;
                    y ^= y >> 11;
                    y ^= (y << 7) & 0x9d2c_5680;
                    y ^= (y << 15) & 0xefc6_0000;
                    whole.push(y ^ (y >> 18));
                }
            }
            let parts: Vec<u32> = (0..whole.len()).map(|_| r.next_u32()).collect();
            assert_eq!(parts, whole);
        }
    }

    #[test]
    fn the_python_engines_wall() {
        // Game(rules_for(v), seed=7).wall and .dice; the key is majiang.native.seed_key(7, 0)
        let key = [
            3106840014, 1758919352, 896595618, 3412027360, 1803755973, 2713893206, 905151598, 654221315, 4289337820,
            2112303230, 3845625989, 69448956, 2056091576, 3355497892, 2823238649, 2216867557, 792145712, 1852256049,
            1634363745, 109,
        ];
        let (wall, dice) = shuffled(&kawuxing_kinds(), &key);
        assert_eq!(wall[..16], [9, 27, 22, 13, 20, 18, 11, 19, 12, 10, 19, 23, 25, 16, 9, 27]);
        assert_eq!(dice, (5, 1));
        let (wall, dice) = shuffled(&sichuan_kinds(), &key);
        assert_eq!(wall[..16], [0, 18, 7, 20, 14, 25, 10, 26, 25, 20, 16, 20, 1, 17, 12, 23]);
        assert_eq!(dice, (4, 2));
    }

    #[test]
    fn seed_keys_as_python_makes_them() {
        // majiang.native.seed_key(7, 0): the key of the_python_engines_wall
        let (words, len) = seed_key(b"majiang/1/7/", 0);
        assert_eq!(
            words[..len],
            [
                3106840014, 1758919352, 896595618, 3412027360, 1803755973, 2713893206, 905151598, 654221315,
                4289337820, 2112303230, 3845625989, 69448956, 2056091576, 3355497892, 2823238649, 2216867557,
                792145712, 1852256049, 1634363745, 109
            ]
        );
        // seed_key(-12, 1234567)[:3] and its length in words
        let (words, len) = seed_key(b"majiang/1/-12/", 1234567);
        assert_eq!((words[..3].to_vec(), len), (vec![1971230023, 3443644461, 1382892313], 22));
    }

    #[test]
    fn walls_are_the_tile_set_shuffled() {
        for (kinds, len) in [(kawuxing_kinds(), 84), (sichuan_kinds(), 108)] {
            let (wall, (d0, d1)) = shuffled(&kinds, &[1, 2, 3]);
            assert_eq!(wall.len(), len);
            let mut sorted = wall.clone();
            sorted.sort_unstable();
            let expected: Vec<u8> = kinds.iter().flat_map(|&k| [k; 4]).collect();
            assert_eq!(sorted, expected);
            assert!((1..=6).contains(&d0) && (1..=6).contains(&d1));
            assert_ne!(wall, expected, "shuffled");
        }
    }

    #[test]
    fn same_seed_same_wall_other_seeds_differ() {
        for kinds in [kawuxing_kinds(), sichuan_kinds()] {
            let a = shuffled(&kinds, &[42, 7]);
            assert_eq!(a, shuffled(&kinds, &[42, 7]));
            assert_ne!(a.0, shuffled(&kinds, &[43, 7]).0);
            assert_ne!(a.0, shuffled(&kinds, &[42]).0);
        }
    }
}

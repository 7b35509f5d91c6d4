//! One hand as a state machine: ``majiang.engine.Game``, asking its game's ``VariantPlay``
//! (``games``) wherever the two games' rules part, step for step (the Python engine is the reference; ``tests/native/test_native.py`` plays both side
//! by side). Actions are the RL env's indices (``majiang.env`` documents them).

mod position;

use crate::games::{play_for, Play, VariantPlay};
use crate::hand::{complete, is_ready, no_neighbours, waits, Counts};
use crate::score::{Ctx, Meld, MeldKind, Rules, Score};
pub use crate::seats::Kinds;
use crate::seats::{Inline, Seats};
use crate::spec::{
    ACTION_ADDED_KONG, ACTION_CONCEALED_KONG, ACTION_DECLARE, ACTION_DISCARD, ACTION_EXCHANGE, ACTION_KONG,
    ACTION_PASS, ACTION_PONG, ACTION_SING, ACTION_VOID, ACTION_WIN, N_ACTIONS, N_KINDS, PHASE_CLAIM, PHASE_EXCHANGE,
    PHASE_OVER, PHASE_ROB, PHASE_TURN, PHASE_VOID, POS_MELD, POS_SEAT_LEN, RESULT_DRAW, RESULT_NONE, RESULT_WIN,
};

#[derive(Clone, Copy, Default)]
pub struct Mask(pub [u64; 3]);

impl Mask {
    pub fn set(&mut self, i: u8) {
        self.0[(i / 64) as usize] |= 1 << (i % 64);
    }
    pub fn has(&self, i: u8) -> bool {
        i < N_ACTIONS as u8 && self.0[(i / 64) as usize] >> (i % 64) & 1 == 1
    }
    pub fn any_win(&self) -> bool {
        self.has(ACTION_WIN)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum KongKind {
    Concealed,
    Added,
    Direct,
}

pub struct Payment {
    pub payer: usize,
    pub payee: usize,
    pub amount: i64,
}

pub struct KongRecord {
    pub seat: usize,
    pub payments: Vec<Payment>,
    pub settled: bool,
}

#[derive(Clone, Copy)]
pub struct WinRecord {
    pub seat: usize,
    pub tile: u8,
    pub self_draw: bool,
    pub discarder: usize,
    pub robbed: bool,
    pub score: Score,
}

/// A seat's melds: at most four (the position layout's room, ``spec::POS_MELD`` on).
pub type Melds = Inline<Meld, MAX_MELDS>;
pub const MAX_MELDS: usize = 4;
const _: () = assert!((POS_SEAT_LEN - POS_MELD) / 2 == MAX_MELDS);

/// A seat's discards in order, used as a slice of them (room for every tile of the game, four of
/// each kind: a tile is discarded once, a claimed one goes to a meld), and how many of each kind
/// (the observation's counts, kept as tiles are pushed).
#[derive(Clone, Copy, Default)]
pub struct Discards {
    tiles: Inline<u8, { 4 * N_KINDS }>,
    pub counts: Counts,
}

impl Discards {
    pub fn push(&mut self, t: u8) {
        self.tiles.push(t);
        self.counts[t as usize] += 1;
    }

    pub fn clear(&mut self) {
        *self = Discards::default();
    }
}

impl std::ops::Deref for Discards {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.tiles
    }
}

/// A set of tile kinds, bit ``k`` for kind ``k``.
pub type KindBits = u32;
const _: () = assert!(N_KINDS <= KindBits::BITS as usize);

/// The kinds ``counts`` holds.
pub fn held_kinds(counts: &Counts) -> KindBits {
    counts.iter().enumerate().fold(0, |bits, (k, &c)| bits | ((c > 0) as KindBits) << k)
}

pub struct Game {
    pub r: Rules,
    pub play: Play,
    pub n: usize,
    pub dealer: usize,
    pub dice: (u8, u8),
    pub wall: Vec<u8>,
    pub front: usize,
    pub back: usize,
    pub hands: Seats<Counts>,
    pub melds: Seats<Melds>,
    pub discards: Seats<Discards>,
    pub declared: Seats<bool>,
    pub declared_kind: Seats<u8>, // DECLARED_*
    pub declared_waits: Vec<Vec<u8>>,
    pub won_tiles: Seats<usize>,
    pub declare_order: Seats<usize>,
    pub void: Seats<i8>,
    pub exchange_choice: Seats<[u8; 3]>,
    pub exchange_best: Seats<[Option<[u8; 3]>; 3]>,
    pub out: Seats<bool>,
    pub wins: Vec<WinRecord>,
    pub first_win_multi: bool,
    pub kongs: Vec<KongRecord>,
    pub totals: Seats<i64>,
    pub payments: usize,
    pub pending: Seats<Option<Mask>>,
    pub responses: Seats<Option<u8>>,
    pub current: usize,
    pub last_draw: Option<u8>,
    pub drawn_from_wall: bool,
    pub last_four_draw: bool,    // that draw took one of the wall's last four tiles
    pub discard_last_four: bool, // the last discard is the tile just drawn from the last four
    pub kong_chain: i64,
    pub discard_chain: i64,
    pub last_discard: Option<(usize, u8)>,
    pub pending_kong: Option<(usize, u8)>,
    pub passed_win: Seats<Option<i64>>,
    pub draws_by_seat: Seats<u32>,
    pub any_claim: bool,
    pub phase: u8,
    pub result: u8,         // RESULT_*
    pub paid: Seats<i64>,   // totals when rewards were last taken
    pub log: Vec<(u8, u8)>, // (seat, action) as applied, to rebuild the hand in Python
}

/// ``agents._isolation``: higher is more useful (neighbours and copies make a tile worth keeping).
pub fn isolation(c: &Counts, k: usize) -> i64 {
    let mut score = c[k] as i64 * 3;
    if k < 27 {
        let r = (k % 9) as i64;
        for (d, w) in [(-2i64, 1i64), (-1, 2), (1, 2), (2, 1)] {
            if (0..=8).contains(&(r + d)) {
                score += w * (c[(k as i64 + d) as usize].min(1) as i64);
            }
        }
        if r == 0 || r == 8 {
            score -= 1;
        }
    }
    score
}

/// Ask the cache for the ``bytes`` at ``at`` (a prefetch never faults, whatever the address).
#[inline(always)]
pub fn prefetch_bytes(at: *const u8, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    for line in (0..bytes).step_by(64) {
        // SAFETY: only an address is computed and prefetched; nothing is read or written
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at.wrapping_add(line) as *const i8)
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (at, bytes);
}

fn prefetch_vec<T>(v: &[T]) {
    prefetch_bytes(v.as_ptr() as *const u8, std::mem::size_of_val(v).max(1));
}

impl Game {
    /// Ask the cache for the state a step reads outside the ``Game`` itself (the few vectors
    /// left: the wall, the log's end, the rules' kinds, the declared waits), the game itself
    /// being in cache already: a large batch's games are out of cache by the time their turn
    /// comes round.
    pub fn prefetch_state(&self) {
        prefetch_vec(&self.wall);
        prefetch_vec(&self.declared_waits);
        prefetch_vec(&self.r.kinds);
        let end = self.log.len();
        prefetch_bytes(self.log[end.saturating_sub(1)..].as_ptr() as *const u8, 2);
    }

    pub fn new(r: Rules, wall: Vec<u8>, dealer: usize, dice: (u8, u8)) -> Game {
        let n = r.players;
        let len = wall.len();
        let play = play_for(&r);
        let mut g = Game {
            r,
            play,
            n,
            dealer,
            dice,
            wall,
            front: 0,
            back: len,
            hands: Seats::new([0; 30], n),
            melds: Seats::new(Melds::default(), n),
            discards: Seats::new(Discards::default(), n),
            declared: Seats::new(false, n),
            declared_kind: Seats::new(0, n),
            declared_waits: vec![Vec::new(); n],
            won_tiles: Seats::new(0, n),
            declare_order: Seats::default(),
            void: Seats::new(-1, n),
            exchange_choice: Seats::new([0; 3], n),
            exchange_best: Seats::new([None; 3], n),
            out: Seats::new(false, n),
            wins: Vec::new(),
            first_win_multi: false,
            kongs: Vec::new(),
            totals: Seats::new(0, n),
            payments: 0,
            pending: Seats::new(None, n),
            responses: Seats::new(None, n),
            current: dealer,
            last_draw: None,
            drawn_from_wall: false,
            last_four_draw: false,
            discard_last_four: false,
            kong_chain: 0,
            discard_chain: 0,
            last_discard: None,
            pending_kong: None,
            passed_win: Seats::new(None, n),
            draws_by_seat: Seats::new(0, n),
            any_claim: false,
            phase: 255,
            result: RESULT_NONE,
            paid: Seats::new(0, n),
            log: Vec::with_capacity(160), // a hand's actions, without regrowing in most hands
        };
        g.deal();
        g
    }

    pub fn tiles_left(&self) -> usize {
        self.back - self.front
    }

    pub fn over(&self) -> bool {
        self.phase == PHASE_OVER
    }

    /// The lowest seat that still has to decide (``pending_seats()[0]``), if any.
    pub fn to_act(&self) -> Option<usize> {
        (0..self.n).find(|&s| self.pending[s].is_some() && self.responses[s].is_none())
    }

    fn clear_pending(&mut self) {
        for s in 0..self.n {
            self.pending[s] = None;
            self.responses[s] = None;
        }
    }

    fn next_seat(&self, seat: usize) -> usize {
        for k in 1..=self.n {
            let s = (seat + k) % self.n;
            if !self.out[s] {
                return s;
            }
        }
        seat
    }

    fn order_from(&self, seat: usize) -> impl Iterator<Item = usize> + '_ {
        (1..self.n).map(move |k| (seat + k) % self.n)
    }

    // ------------------------------------------------------------------ deal and setup

    fn deal(&mut self) {
        for _ in 0..13 {
            for k in 0..self.n {
                let seat = (self.dealer + k) % self.n;
                let t = self.wall[self.front];
                self.hands[seat][t as usize] += 1;
                self.front += 1;
            }
        }
        let t = self.wall[self.front];
        self.hands[self.dealer][t as usize] += 1;
        self.last_draw = Some(t);
        self.front += 1;
        match self.play.setup_phase(&self.r) {
            PHASE_EXCHANGE => self.start_exchange(),
            PHASE_VOID => self.start_void(),
            _ => self.begin_turn(self.dealer),
        }
    }

    fn start_exchange(&mut self) {
        self.phase = PHASE_EXCHANGE;
        for s in 0..self.n {
            let mut m = Mask::default();
            for suit in 0..3 {
                let best = self.least_connected_three(s, suit);
                self.exchange_best[s][suit] = best;
                if best.is_some() {
                    m.set(ACTION_EXCHANGE + suit as u8);
                }
            }
            self.pending[s] = Some(m);
        }
    }

    /// 换三张 as the env offers it: of every three tiles of the suit (in sorted order), the first
    /// with the least summed isolation score.
    fn least_connected_three(&self, seat: usize, suit: usize) -> Option<[u8; 3]> {
        let h = &self.hands[seat];
        let start = suit * 9;
        let mut best: Option<([u8; 3], i64)> = None;
        for a in start..start + 9 {
            for b in a..start + 9 {
                for c in b..start + 9 {
                    let mut need = [0u8; 30];
                    need[a] += 1;
                    need[b] += 1;
                    need[c] += 1;
                    if need[a] > h[a] || need[b] > h[b] || need[c] > h[c] {
                        continue;
                    }
                    let v = isolation(h, a) + isolation(h, b) + isolation(h, c);
                    if best.is_none_or(|(_, bv)| v < bv) {
                        best = Some(([a as u8, b as u8, c as u8], v));
                    }
                }
            }
        }
        best.map(|(t, _)| t)
    }

    fn finish_exchange(&mut self) {
        let total = self.dice.0 + self.dice.1;
        let step = if total == 6 || total == 12 {
            2
        } else if total % 2 == 1 {
            1
        } else {
            self.n - 1
        };
        let chosen = self.exchange_choice;
        for (hand, picked) in self.hands.iter_mut().zip(&chosen) {
            for &t in picked {
                hand[t as usize] -= 1;
            }
        }
        for (s, picked) in chosen.iter().enumerate() {
            for &t in picked {
                self.hands[(s + step) % self.n][t as usize] += 1;
            }
        }
        self.start_void();
    }

    fn start_void(&mut self) {
        self.phase = PHASE_VOID;
        self.clear_pending();
        let mut any = false;
        for s in 0..self.n {
            let present: Vec<bool> = (0..3).map(|x| self.hands[s][x * 9..x * 9 + 9].iter().any(|&c| c > 0)).collect();
            if present.iter().filter(|&&p| p).count() <= 2 {
                self.void[s] = present.iter().position(|&p| !p).unwrap() as i8;
            } else {
                let mut m = Mask::default();
                for suit in 0..3 {
                    m.set(ACTION_VOID + suit);
                }
                self.pending[s] = Some(m);
                any = true;
            }
        }
        if !any {
            self.finish_void();
        }
    }

    fn finish_void(&mut self) {
        self.clear_pending();
        self.begin_turn(self.dealer);
    }

    // ------------------------------------------------------------------ turns

    fn begin_turn(&mut self, seat: usize) {
        self.phase = PHASE_TURN;
        self.current = seat;
        self.clear_pending();
        let m = self.turn_options(seat);
        self.pending[seat] = Some(m);
    }

    fn draw(&mut self, seat: usize, replacement: bool) {
        if self.tiles_left() == 0 {
            self.end_draw();
            return;
        }
        let t = if replacement {
            self.back -= 1;
            self.wall[self.back]
        } else {
            let t = self.wall[self.front];
            self.front += 1;
            self.kong_chain = 0;
            t
        };
        self.hands[seat][t as usize] += 1;
        self.last_draw = Some(t);
        self.drawn_from_wall = true;
        self.last_four_draw = self.tiles_left() < 4;
        self.passed_win[seat] = None;
        self.draws_by_seat[seat] += 1;
        self.begin_turn(seat);
    }

    fn can_claim_tile(&self, seat: usize, tile: u8) -> bool {
        self.play.can_claim_tile(self, seat, tile)
    }

    fn totals_of(&self, seat: usize, counts: &Counts) -> Counts {
        let mut t = *counts;
        for m in &self.melds[seat] {
            t[m.tile as usize] += m.size();
        }
        t
    }

    pub fn waits_of(&self, seat: usize, counts: &Counts, melds: &[Meld]) -> Vec<u8> {
        let mut totals = *counts;
        for m in melds {
            totals[m.tile as usize] += m.size();
        }
        let void = self.play.void(self, seat);
        waits(counts, &totals, &self.r.kinds, self.play.two_suit_rule(), void, melds.is_empty())
    }

    fn is_complete(&self, seat: usize, counts: &Counts) -> bool {
        let melds = &self.melds[seat];
        let two_suit_rule = self.play.two_suit_rule();
        let totals = if !melds.is_empty() && two_suit_rule { self.totals_of(seat, counts) } else { *counts };
        complete(counts, &totals, two_suit_rule, self.void[seat], melds.is_empty())
    }

    fn completes(&self, seat: usize, tile: u8) -> bool {
        let counts = &self.hands[seat];
        if counts[tile as usize] == 0 && no_neighbours(counts, tile as usize) {
            return false;
        }
        let mut full = *counts;
        full[tile as usize] += 1;
        self.is_complete(seat, &full)
    }

    fn first_dealer_turn(&self, seat: usize) -> bool {
        seat == self.dealer && self.discards.iter().all(|d| d.is_empty()) && !self.any_claim && self.kongs.is_empty()
    }

    fn score_self_draw(&self, seat: usize) -> Option<Score> {
        let t = self.last_draw?;
        let counts = &self.hands[seat];
        if counts[t as usize] == 0 || !self.is_complete(seat, counts) {
            return None;
        }
        let mut before = *counts;
        before[t as usize] -= 1;
        let ctx = Ctx {
            self_draw: true,
            kong_chain: self.kong_chain,
            robbed: false,
            last_tile: self.tiles_left() == 0 && self.drawn_from_wall,
            declared: self.declared[seat],
            heavenly: self.first_dealer_turn(seat),
            earthly: self.earthly(seat, true),
            void: self.void[seat],
        };
        Some(self.play.score(&self.r, &before, &self.melds[seat], t, &ctx))
    }

    /// 地胡: a non-dealer's win after its first draw, nothing claimed, konged or won before it: a
    /// self-draw on that draw, or (``earthly`` first_round) a win on a discard made before the
    /// dealer draws again.
    fn earthly(&self, seat: usize, self_draw: bool) -> bool {
        if seat == self.dealer
            || self.draws_by_seat[seat] != 1
            || self.any_claim
            || !self.kongs.is_empty()
            || !self.wins.is_empty()
        {
            return false;
        }
        if self_draw {
            return self.discards[seat].is_empty() && self.drawn_from_wall;
        }
        self.play.earthly_on_discard(&self.r) && self.draws_by_seat[self.dealer] == 0
    }

    fn score_ron(&self, seat: usize, tile: u8, robbed: bool) -> Score {
        let ctx = Ctx {
            self_draw: false,
            kong_chain: if robbed { 0 } else { self.discard_chain },
            robbed,
            last_tile: self.tiles_left() == 0 && !robbed,
            declared: self.declared[seat],
            heavenly: false,
            earthly: self.earthly(seat, false),
            void: self.void[seat],
        };
        self.play.score(&self.r, &self.hands[seat], &self.melds[seat], tile, &ctx)
    }

    fn added_kong_allowed(&self, seat: usize, tile: u8) -> bool {
        if !self.can_claim_tile(seat, tile) {
            return false;
        }
        if self.play.added_kong_only_at_once(&self.r) {
            return self.added_kong_at_once(tile);
        }
        true
    }

    /// An added kong of ``tile`` made at the moment its fourth tile is drawn (即时加杠).
    fn added_kong_at_once(&self, tile: u8) -> bool {
        self.drawn_from_wall && self.last_draw == Some(tile)
    }

    /// 最后四张必胡: a win on one of the wall's last four tiles must be taken (asked only then).
    fn must_win(&self) -> bool {
        self.play.must_win(&self.r)
    }

    /// Is ``tile`` the one just drawn this turn, from the wall's last four?
    fn fresh_last_four(&self, tile: Option<u8>) -> bool {
        self.drawn_from_wall && self.last_four_draw && self.last_draw == tile
    }

    fn pass_allows_bigger(&self) -> bool {
        self.play.pass_allows_bigger(&self.r)
    }

    /// Tiles whose discard leaves the hand ready (亮倒, 唱歌/跳舞).
    fn ready_discards(&self, seat: usize) -> Kinds {
        let mut counts = self.hands[seat];
        let mut totals = self.totals_of(seat, &counts);
        let void = self.play.void(self, seat);
        let two_suit_rule = self.play.two_suit_rule();
        let closed = self.melds[seat].is_empty();
        let mut out = Kinds::default();
        for k in 0..30u8 {
            if counts[k as usize] == 0 || !self.play.can_discard(self, seat, k) {
                continue;
            }
            counts[k as usize] -= 1;
            totals[k as usize] -= 1;
            if is_ready(&counts, &totals, &self.r.kinds, two_suit_rule, void, closed) {
                out.push(k);
            }
            counts[k as usize] += 1;
            totals[k as usize] += 1;
        }
        out
    }

    fn turn_options(&self, seat: usize) -> Mask {
        let h = &self.hands[seat];
        let mut m = Mask::default();
        if self.drawn_from_wall || self.first_dealer_turn(seat) {
            if let Some(s) = self.score_self_draw(seat) {
                if s.win {
                    m.set(ACTION_WIN);
                }
            }
        }
        let left = self.tiles_left();
        let last_tile_turn = left == 0 && self.drawn_from_wall;
        if left > 0 && !self.declared[seat] {
            for k in 0..30u8 {
                if h[k as usize] == 4 && self.can_claim_tile(seat, k) {
                    m.set(ACTION_CONCEALED_KONG + k);
                }
            }
            for md in &self.melds[seat] {
                if md.kind == MeldKind::Pong && h[md.tile as usize] > 0 && self.added_kong_allowed(seat, md.tile) {
                    m.set(ACTION_ADDED_KONG + md.tile);
                }
            }
        } else if left > 0 && self.drawn_from_wall && self.last_draw.is_some() {
            let t = self.last_draw.unwrap();
            if h[t as usize] == 4 && self.can_claim_tile(seat, t) {
                let mut after = *h;
                after[t as usize] -= 4;
                let mut kept = self.melds[seat];
                kept.push(Meld { kind: MeldKind::Concealed, tile: t });
                if self.waits_of(seat, &after, &kept) == self.declared_waits[seat] {
                    m.set(ACTION_CONCEALED_KONG + t);
                }
            }
            if self.melds[seat].iter().any(|md| md.kind == MeldKind::Pong && md.tile == t)
                && self.added_kong_allowed(seat, t)
            {
                m.set(ACTION_ADDED_KONG + t);
            }
        }
        // 亮倒 (Kawuxing), 唱歌/跳舞 (Sichuan sing_dance)
        let declarations = self.play.declare_actions(&self.r);
        if !self.declared[seat] && left > 0 && !declarations.is_empty() {
            for t in self.ready_discards(seat) {
                for &base in declarations {
                    m.set(base + t);
                }
            }
        }
        let mut discards = self.play.discardable(self, seat);
        if last_tile_turn && self.play.last_tile_discards_drawn() {
            if let Some(t) = self.last_draw {
                discards = 1 << t;
            }
        }
        if self.declared[seat] {
            if let Some(t) = self.last_draw {
                if h[t as usize] > 0 {
                    discards = 1 << t;
                }
            }
        }
        while discards != 0 {
            m.set(ACTION_DISCARD + discards.trailing_zeros() as u8);
            discards &= discards - 1;
        }
        if m.any_win() && self.fresh_last_four(self.last_draw) && self.must_win() {
            let mut only = Mask::default();
            only.set(ACTION_WIN);
            return only;
        }
        m
    }

    // ------------------------------------------------------------------ applying actions

    /// Apply ``action`` (an env index) for ``seat``; false (and nothing changed) if not legal.
    pub fn apply(&mut self, seat: usize, action: u8) -> bool {
        if !self.legal(seat, action) {
            return false;
        }
        self.log.push((seat as u8, action));
        match self.phase {
            PHASE_TURN => self.apply_turn(seat, action),
            PHASE_CLAIM => {
                self.responses[seat] = Some(action);
                if self.all_answered() {
                    self.resolve_claims();
                }
            }
            PHASE_ROB => {
                self.responses[seat] = Some(action);
                if self.all_answered() {
                    self.resolve_rob();
                }
            }
            PHASE_EXCHANGE => {
                let suit = (action - ACTION_EXCHANGE) as usize;
                self.exchange_choice[seat] = self.exchange_best[seat][suit].unwrap();
                self.responses[seat] = Some(action);
                if self.all_answered() {
                    self.finish_exchange();
                }
            }
            PHASE_VOID => {
                self.void[seat] = (action - ACTION_VOID) as i8;
                self.responses[seat] = Some(action);
                if self.all_answered() {
                    self.finish_void();
                }
            }
            _ => return false,
        }
        true
    }

    /// Whether ``apply(seat, action)`` would apply it (it changes nothing otherwise).
    pub fn legal(&self, seat: usize, action: u8) -> bool {
        matches!(self.phase, PHASE_TURN | PHASE_CLAIM | PHASE_ROB | PHASE_EXCHANGE | PHASE_VOID)
            && seat < self.n
            && self.responses[seat].is_none()
            && matches!(self.pending[seat], Some(m) if m.has(action))
    }

    fn all_answered(&self) -> bool {
        (0..self.n).all(|s| self.pending[s].is_none() || self.responses[s].is_some())
    }

    fn apply_turn(&mut self, seat: usize, action: u8) {
        if action == ACTION_WIN {
            let t = self.last_draw.unwrap();
            let s = self.score_self_draw(seat).unwrap_or_default();
            self.hands[seat][t as usize] -= 1;
            self.record_wins(vec![WinRecord {
                seat,
                tile: t,
                self_draw: true,
                discarder: usize::MAX,
                robbed: false,
                score: s,
            }]);
            return;
        }
        if action < ACTION_CONCEALED_KONG {
            let t = (action - ACTION_DISCARD) % N_KINDS as u8;
            if action >= ACTION_DECLARE {
                self.declare(seat, t, action >= ACTION_SING);
            }
            self.hands[seat][t as usize] -= 1;
            self.discards[seat].push(t);
            self.discard_last_four = self.fresh_last_four(Some(t));
            self.discard_chain = self.kong_chain;
            self.kong_chain = 0;
            self.drawn_from_wall = false;
            self.last_discard = Some((seat, t));
            self.open_claims(seat, t);
            return;
        }
        if action < ACTION_ADDED_KONG {
            let t = action - ACTION_CONCEALED_KONG;
            self.hands[seat][t as usize] -= 4;
            self.melds[seat].push(Meld { kind: MeldKind::Concealed, tile: t });
            self.complete_kong(seat, t, KongKind::Concealed, usize::MAX);
            return;
        }
        let t = action - ACTION_ADDED_KONG;
        let robbers = self.robbers(seat, t);
        if robbers.iter().any(|r| r.is_some()) {
            self.pending_kong = Some((seat, t));
            self.phase = PHASE_ROB;
            self.responses = Seats::new(None, self.n);
            self.pending = robbers;
            return;
        }
        self.finish_added_kong(seat, t);
    }

    fn declare(&mut self, seat: usize, discard: u8, sing: bool) {
        self.declared[seat] = true;
        let play = self.play;
        play.declare(self, seat, sing);
        let mut after = self.hands[seat];
        after[discard as usize] -= 1;
        let melds = self.melds[seat];
        self.declared_waits[seat] = self.waits_of(seat, &after, &melds);
    }

    fn finish_added_kong(&mut self, seat: usize, t: u8) {
        self.hands[seat][t as usize] -= 1;
        let i = self.melds[seat].iter().position(|m| m.kind == MeldKind::Pong && m.tile == t).unwrap();
        self.melds[seat][i] = Meld { kind: MeldKind::Kong, tile: t };
        self.complete_kong(seat, t, KongKind::Added, usize::MAX);
    }

    fn complete_kong(&mut self, seat: usize, t: u8, kind: KongKind, discarder: usize) {
        // on a discard, another's kong goes on only where the game says so (卡五星)
        let chain = match kind {
            KongKind::Direct if self.play.kong_chain_spans_players() => self.discard_chain + 1,
            KongKind::Direct => 1,
            _ => self.kong_chain + 1,
        };
        let at_once = kind != KongKind::Added || self.added_kong_at_once(t);
        let payments = self.play.kong_payments(self, seat, kind, discarder, chain, at_once);
        self.pay(&payments);
        self.kongs.push(KongRecord { seat, payments, settled: false });
        self.kong_chain = chain;
        self.draw(seat, true);
    }

    fn pay(&mut self, payments: &[Payment]) {
        for p in payments {
            if p.amount != 0 {
                self.totals[p.payer] -= p.amount;
                self.totals[p.payee] += p.amount;
                self.payments += 1;
            }
        }
    }

    // ------------------------------------------------------------------ claims

    fn ron_not_blocked(&self, seat: usize, s: &Score) -> bool {
        match self.passed_win[seat] {
            None => true,
            Some(passed) => self.pass_allows_bigger() && s.uncapped > passed,
        }
    }

    fn kong_keeps_declared(&self, seat: usize, t: u8) -> bool {
        if !self.declared[seat] {
            return true;
        }
        let mut h = self.hands[seat];
        h[t as usize] -= 3;
        let mut melds = self.melds[seat];
        melds.push(Meld { kind: MeldKind::Kong, tile: t });
        let after = self.waits_of(seat, &h, &melds);
        after == self.declared_waits[seat] && !after.is_empty()
    }

    fn open_claims(&mut self, discarder: usize, t: u8) {
        let last = self.tiles_left() == 0;
        let mut options: Seats<Option<Mask>> = Seats::new(None, self.n);
        let mut any = false;
        for (s, slot) in options.iter_mut().enumerate() {
            if s == discarder || self.out[s] {
                continue;
            }
            let mut m = Mask::default();
            let mut some = false;
            if self.completes(s, t) {
                let sc = self.score_ron(s, t, false);
                if sc.win && self.ron_not_blocked(s, &sc) {
                    m.set(ACTION_WIN);
                    some = true;
                }
            }
            let h = self.hands[s][t as usize];
            if !last && h >= 2 && self.can_claim_tile(s, t) {
                if h == 3 && self.kong_keeps_declared(s, t) {
                    m.set(ACTION_KONG);
                    some = true;
                }
                if !self.declared[s] {
                    m.set(ACTION_PONG);
                    some = true;
                }
            }
            if some {
                if m.any_win() && self.discard_last_four && self.must_win() {
                    m = Mask::default();
                    m.set(ACTION_WIN);
                } else {
                    m.set(ACTION_PASS);
                }
                *slot = Some(m);
                any = true;
            }
        }
        if !any {
            self.after_discard(discarder);
            return;
        }
        self.phase = PHASE_CLAIM;
        self.responses = Seats::new(None, self.n);
        self.pending = options;
    }

    fn resolve_claims(&mut self) {
        let (discarder, t) = self.last_discard.unwrap();
        for s in 0..self.n {
            // 漏胡/过水: any answer but 胡 (a pong or kong too) passes the win
            if self.responses[s].is_some()
                && self.responses[s] != Some(ACTION_WIN)
                && self.pending[s].is_some_and(|m| m.any_win())
            {
                self.passed_win[s] = Some(self.score_ron(s, t, false).uncapped);
            }
        }
        let winners: Vec<usize> =
            self.order_from(discarder).filter(|&s| self.responses[s] == Some(ACTION_WIN)).collect();
        if !winners.is_empty() {
            let wins: Vec<WinRecord> = winners
                .iter()
                .map(|&s| WinRecord {
                    seat: s,
                    tile: t,
                    self_draw: false,
                    discarder,
                    robbed: false,
                    score: self.score_ron(s, t, false),
                })
                .collect();
            if self.wins.is_empty() && wins.len() > 1 {
                self.first_win_multi = true;
            }
            self.record_wins(wins);
            return;
        }
        for s in 0..self.n {
            let a = self.responses[s];
            if a == Some(ACTION_KONG) || a == Some(ACTION_PONG) {
                self.any_claim = true;
                self.clear_pending();
                if a == Some(ACTION_KONG) {
                    self.hands[s][t as usize] -= 3;
                    self.melds[s].push(Meld { kind: MeldKind::Kong, tile: t });
                    self.complete_kong(s, t, KongKind::Direct, discarder);
                } else {
                    self.hands[s][t as usize] -= 2;
                    self.melds[s].push(Meld { kind: MeldKind::Pong, tile: t });
                    self.drawn_from_wall = false;
                    self.kong_chain = 0;
                    self.last_draw = None;
                    self.begin_turn(s);
                }
                return;
            }
        }
        self.after_discard(discarder);
    }

    fn after_discard(&mut self, discarder: usize) {
        self.clear_pending();
        if self.tiles_left() == 0 {
            self.end_draw();
            return;
        }
        let nxt = self.next_seat(discarder);
        self.draw(nxt, false);
    }

    fn robbers(&self, seat: usize, t: u8) -> Seats<Option<Mask>> {
        let mut out = Seats::new(None, self.n);
        for (s, slot) in out.iter_mut().enumerate() {
            if s == seat || self.out[s] || !self.completes(s, t) {
                continue;
            }
            let sc = self.score_ron(s, t, true);
            if sc.win && self.ron_not_blocked(s, &sc) {
                let mut m = Mask::default();
                m.set(ACTION_WIN);
                if !(self.fresh_last_four(Some(t)) && self.must_win()) {
                    m.set(ACTION_PASS);
                }
                *slot = Some(m);
            }
        }
        out
    }

    fn resolve_rob(&mut self) {
        let (seat, t) = self.pending_kong.take().unwrap();
        for s in 0..self.n {
            if self.responses[s] == Some(ACTION_PASS) {
                self.passed_win[s] = Some(self.score_ron(s, t, true).uncapped);
            }
        }
        let winners: Vec<usize> = self.order_from(seat).filter(|&s| self.responses[s] == Some(ACTION_WIN)).collect();
        if !winners.is_empty() {
            self.hands[seat][t as usize] -= 1;
            let wins: Vec<WinRecord> = winners
                .iter()
                .map(|&s| WinRecord {
                    seat: s,
                    tile: t,
                    self_draw: false,
                    discarder: seat,
                    robbed: true,
                    score: self.score_ron(s, t, true),
                })
                .collect();
            if self.wins.is_empty() && wins.len() > 1 {
                self.first_win_multi = true;
            }
            self.last_discard = Some((seat, t));
            self.record_wins(wins);
            return;
        }
        self.clear_pending();
        self.finish_added_kong(seat, t);
    }

    // ------------------------------------------------------------------ wins, draws, payments

    fn record_wins(&mut self, wins: Vec<WinRecord>) {
        self.clear_pending();
        let play = self.play;
        let keep_playing = play.winners_play_on(&self.r);
        for (i, w) in wins.iter().enumerate() {
            if i == 0 {
                if keep_playing {
                    self.won_tiles[w.seat] += 1;
                } else {
                    self.hands[w.seat][w.tile as usize] += 1;
                }
            }
            self.wins.push(*w);
            let p = play.win_payments(self, w);
            self.pay(&p);
        }
        if !play.after_wins(self, &wins) {
            self.finish(RESULT_WIN);
            return;
        }
        let last_winner = wins[wins.len() - 1].seat;
        let nxt = if wins.iter().any(|w| w.self_draw) {
            self.next_seat(last_winner)
        } else {
            let discarder = wins[0].discarder;
            let order: Vec<usize> = self.order_from(discarder).collect();
            let last = wins.iter().map(|w| w.seat).max_by_key(|s| order.iter().position(|x| x == s).unwrap()).unwrap();
            self.next_seat(last)
        };
        if self.tiles_left() == 0 {
            self.end_draw();
            return;
        }
        self.kong_chain = 0;
        self.draw(nxt, false);
    }

    fn end_draw(&mut self) {
        self.clear_pending();
        let p = self.play.draw_settlement(self);
        self.pay(&p);
        self.finish(if self.wins.is_empty() { RESULT_DRAW } else { RESULT_WIN });
    }

    fn finish(&mut self, result: u8) {
        self.phase = PHASE_OVER;
        self.clear_pending();
        self.result = result;
    }

    /// Every seat's points since the last call (the totals are remembered); whether any moved.
    pub fn take_points(&mut self) -> ([i64; 4], bool) {
        let mut out = [0i64; 4];
        let mut moved = false;
        for (s, o) in out.iter_mut().enumerate().take(self.n) {
            *o = self.totals[s] - self.paid[s];
            moved |= *o != 0;
            self.paid[s] = self.totals[s];
        }
        (out, moved)
    }

    pub fn next_dealer(&self) -> usize {
        self.play.next_dealer(self)
    }
}

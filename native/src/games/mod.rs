//! What differs between the games, as ``majiang.engine.VariantPlay`` has it: one implementation
//! per game (``kawuxing.rs`` for ``majiang.kawuxing.KawuxingPlay``, ``sichuan.rs`` for
//! ``majiang.sichuan.SichuanPlay``), asked by the state machine in ``game.rs`` at each point where
//! the rules of the two games part. The provided methods are ``VariantPlay``'s defaults.

pub mod kawuxing;
pub mod sichuan;

use crate::game::{held_kinds, Game, KindBits, KongKind, Payment, WinRecord};
use crate::hand::Counts;
use crate::score::{Ctx, Meld, Rules, Score};
use crate::shanten::Layout;
use crate::spec::PHASE_TURN;

pub trait VariantPlay: Sync {
    /// Sichuan's suit rule: a win holds at most two suits and never the void suit.
    fn two_suit_rule(&self) -> bool;

    /// Whether the dragons are a group of tiles (shanten's layout).
    fn dragons(&self) -> bool;

    /// The phase after the deal (``setup_phase``): exchange, void, or the dealer's turn.
    fn setup_phase(&self, _r: &Rules) -> u8 {
        PHASE_TURN
    }

    /// The void suit the hand's waits and shanten respect (-1: none).
    fn void(&self, _g: &Game, _seat: usize) -> i8 {
        -1
    }

    fn can_discard(&self, _g: &Game, _seat: usize, _tile: u8) -> bool {
        true
    }

    /// The tiles ``seat`` may discard, bit ``k`` for kind ``k`` (every kind held unless the game
    /// says otherwise).
    fn discardable(&self, g: &Game, seat: usize) -> KindBits {
        held_kinds(&g.hands[seat])
    }

    fn can_claim_tile(&self, _g: &Game, _seat: usize, _tile: u8) -> bool {
        true
    }

    /// The action bases (``ACTION_DECLARE``, ``ACTION_SING``) offered with a discard that leaves the
    /// hand ready (``extra_turn_actions``); empty when the game has no declarations.
    fn declare_actions(&self, _r: &Rules) -> &'static [u8] {
        &[]
    }

    /// On the turn that drew the wall's last tile, only that tile may be discarded.
    fn last_tile_discards_drawn(&self) -> bool {
        false
    }

    /// An added kong only at the moment its fourth tile is drawn.
    fn added_kong_only_at_once(&self, _r: &Rules) -> bool {
        false
    }

    /// A kong on the discard that followed another player's kong continues that kong's chain
    /// (``kong_chain_spans_players``: 卡五星's 杠上杠); else a chain is one player's own kongs.
    fn kong_chain_spans_players(&self) -> bool {
        false
    }

    /// 最后四张必胡: a win on one of the wall's last four tiles must be taken.
    fn must_win(&self, _r: &Rules) -> bool {
        false
    }

    /// 地胡 on a discard made before the dealer draws again (``earthly_on_discard``).
    fn earthly_on_discard(&self, _r: &Rules) -> bool {
        false
    }

    /// After a passed win, a bigger one may still be taken (漏胡 / 过水 exceptions).
    fn pass_allows_bigger(&self, _r: &Rules) -> bool {
        false
    }

    /// Whether winners keep playing with their hand set aside (血流成河).
    fn winners_play_on(&self, _r: &Rules) -> bool {
        false
    }

    /// Record a declaration (its kind and order); the engine has marked the seat and works out the waits.
    fn declare(&self, g: &mut Game, seat: usize, sing: bool);

    /// What a complete hand is worth (``score``): ``counts`` before the winning tile ``win``.
    fn score(&self, r: &Rules, counts: &Counts, melds: &[Meld], win: u8, ctx: &Ctx) -> Score;

    fn kong_payments(
        &self,
        g: &Game,
        seat: usize,
        kind: KongKind,
        discarder: usize,
        chain: i64,
        at_once: bool,
    ) -> Vec<Payment>;

    fn win_payments(&self, g: &mut Game, w: &WinRecord) -> Vec<Payment>;

    /// Whether the hand goes on after these wins (``after_wins``; it may mark winners out).
    fn after_wins(&self, _g: &mut Game, _wins: &[WinRecord]) -> bool {
        false
    }

    /// The payments when the wall runs out.
    fn draw_settlement(&self, _g: &Game) -> Vec<Payment> {
        Vec::new()
    }

    fn next_dealer(&self, g: &Game) -> usize {
        next_dealer(g)
    }

    /// Which groups of tiles shanten looks at.
    fn layout(&self, r: &Rules) -> Layout {
        let mut suits = [false; 3];
        for &k in &r.kinds {
            if k < 27 {
                suits[(k / 9) as usize] = true;
            }
        }
        Layout { suits, dragons: self.dragons(), two_suit_rule: self.two_suit_rule() }
    }
}

/// ``VariantPlay.next_dealer``: the dealer again after a draw, the discarder after a first win
/// by several, else the first winner.
pub fn next_dealer(g: &Game) -> usize {
    if g.wins.is_empty() {
        return g.dealer;
    }
    if g.first_win_multi {
        return g.wins[0].discarder;
    }
    g.wins[0].seat
}

/// The game of a hand, as the state machine holds it: each call is a match that the compiler can
/// inline into the caller (a trait object's calls could not be: the hooks run in the hot loops).
#[derive(Clone, Copy)]
pub enum Play {
    Kawuxing,
    Sichuan,
}

/// The game whose rules these are.
pub fn play_for(r: &Rules) -> Play {
    if r.kawuxing {
        Play::Kawuxing
    } else {
        Play::Sichuan
    }
}

/// ``impl VariantPlay for Play``: every method handed to the game's own implementation.
macro_rules! dispatch {
    ($(fn $name:ident(&self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?;)*) => {
        impl VariantPlay for Play {
            $(
                #[inline]
                fn $name(&self $(, $arg: $ty)*) $(-> $ret)? {
                    match self {
                        Play::Kawuxing => kawuxing::Kawuxing.$name($($arg),*),
                        Play::Sichuan => sichuan::Sichuan.$name($($arg),*),
                    }
                }
            )*
        }
    };
}

dispatch! {
    fn two_suit_rule(&self) -> bool;
    fn dragons(&self) -> bool;
    fn setup_phase(&self, r: &Rules) -> u8;
    fn void(&self, g: &Game, seat: usize) -> i8;
    fn can_discard(&self, g: &Game, seat: usize, tile: u8) -> bool;
    fn discardable(&self, g: &Game, seat: usize) -> KindBits;
    fn can_claim_tile(&self, g: &Game, seat: usize, tile: u8) -> bool;
    fn declare_actions(&self, r: &Rules) -> &'static [u8];
    fn last_tile_discards_drawn(&self) -> bool;
    fn added_kong_only_at_once(&self, r: &Rules) -> bool;
    fn kong_chain_spans_players(&self) -> bool;
    fn must_win(&self, r: &Rules) -> bool;
    fn earthly_on_discard(&self, r: &Rules) -> bool;
    fn pass_allows_bigger(&self, r: &Rules) -> bool;
    fn winners_play_on(&self, r: &Rules) -> bool;
    fn declare(&self, g: &mut Game, seat: usize, sing: bool);
    fn score(&self, r: &Rules, counts: &Counts, melds: &[Meld], win: u8, ctx: &Ctx) -> Score;
    fn kong_payments(&self, g: &Game, seat: usize, kind: KongKind, discarder: usize, chain: i64, at_once: bool)
        -> Vec<Payment>;
    fn win_payments(&self, g: &mut Game, w: &WinRecord) -> Vec<Payment>;
    fn after_wins(&self, g: &mut Game, wins: &[WinRecord]) -> bool;
    fn draw_settlement(&self, g: &Game) -> Vec<Payment>;
    fn next_dealer(&self, g: &Game) -> usize;
    fn layout(&self, r: &Rules) -> Layout;
}

/// Games dealt chosen hands, as ``tests/scenario.py`` builds them, for the settlement tests.
#[cfg(test)]
pub mod testing {
    use crate::game::Game;
    use crate::hand::testing::tiles;
    use crate::score::Rules;
    use crate::spec::{CONFIG_KAWUXING, CONFIG_LEN, CONFIG_SICHUAN, OPT_BLOOD_BATTLE};

    /// ``config_of(rules_for("kawuxing"))``: the default options (generated in ``spec``).
    pub const KAWUXING: [i64; CONFIG_LEN] = CONFIG_KAWUXING;
    /// ``config_of(rules_for("sichuan"))``: the default options (血战, 16 for a 花猪, 天胡/地胡 ...).
    pub const SICHUAN: [i64; CONFIG_LEN] = CONFIG_SICHUAN;

    /// ``SICHUAN`` with one win ending the hand (``blood_battle=False``).
    pub fn sichuan_one_win() -> [i64; CONFIG_LEN] {
        let mut c = SICHUAN;
        c[OPT_BLOOD_BATTLE] = 0;
        c
    }

    /// ``scenario.build_wall``: a wall whose deal gives ``hands`` (seat order; the dealer's has 14
    /// tiles) and whose next draws are ``draws``; the other tiles follow in order.
    pub fn build_wall(kinds: &[u8], hands: &[&str], dealer: usize, draws: &str) -> Vec<u8> {
        let n = hands.len();
        let hands: Vec<Vec<u8>> = hands.iter().map(|h| tiles(h)).collect();
        let draws = tiles(draws);
        let mut pool: Vec<u8> = kinds.iter().flat_map(|&k| [k; 4]).collect();
        for &t in hands.iter().flatten().chain(&draws) {
            let i = pool.iter().position(|&x| x == t).expect("a tile used five times");
            pool.remove(i);
        }
        let mut wall = Vec::new();
        let order: Vec<&Vec<u8>> = (0..n).map(|k| &hands[(dealer + k) % n]).collect();
        for i in 0..13 {
            wall.extend(order.iter().map(|h| h[i]));
        }
        wall.push(hands[dealer][13]);
        wall.extend(draws);
        wall.extend(pool);
        wall
    }

    /// ``scenario.game_with``: a game with ``config``'s rules dealt ``hands``.
    pub fn game_with(config: &[i64; CONFIG_LEN], hands: &[&str], dealer: usize, draws: &str) -> Game {
        let rules = Rules::from_config(config);
        let wall = build_wall(&rules.kinds, hands, dealer, draws);
        Game::new(rules, wall, dealer, (1, 1))
    }

    /// Apply ``action`` for ``seat``, which must be legal.
    pub fn act(g: &mut Game, seat: usize, action: u8) {
        assert!(g.apply(seat, action), "action {action} is not legal for seat {seat}");
    }

    /// The tile kind of one tile written as Python writes it.
    pub fn tile(s: &str) -> u8 {
        tiles(s)[0]
    }
}

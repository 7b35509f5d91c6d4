//! Every number that crosses the Python–Rust boundary. GENERATED from
//! src/majiang/native/spec.py by `python -m majiang.native spec`: do not edit.

pub const ABI_VERSION: i64 = 1180091501;
pub const N_KINDS: usize = 30;
pub const MAX_WALL_LEN: usize = 136;
pub const MAX_SEED_PREFIX: usize = 64;
pub const N_ACTIONS: usize = 160;
pub const ACTION_DISCARD: u8 = 0;
pub const ACTION_DECLARE: u8 = 30;
pub const ACTION_SING: u8 = 60;
pub const ACTION_CONCEALED_KONG: u8 = 90;
pub const ACTION_ADDED_KONG: u8 = 120;
pub const ACTION_WIN: u8 = 150;
pub const ACTION_PONG: u8 = 151;
pub const ACTION_KONG: u8 = 152;
pub const ACTION_PASS: u8 = 153;
pub const ACTION_VOID: u8 = 154;
pub const ACTION_EXCHANGE: u8 = 157;
pub const PHASE_EXCHANGE: u8 = 0;
pub const PHASE_VOID: u8 = 1;
pub const PHASE_TURN: u8 = 2;
pub const PHASE_CLAIM: u8 = 3;
pub const PHASE_ROB: u8 = 4;
pub const PHASE_OVER: u8 = 5;
pub const N_PHASES: usize = 6;
pub const RESULT_NONE: u8 = 0;
pub const RESULT_WIN: u8 = 1;
pub const RESULT_DRAW: u8 = 2;
pub const DECLARED_NONE: u8 = 0;
pub const DECLARED_LIANGDAO: u8 = 1;
pub const DECLARED_SING: u8 = 2;
pub const DECLARED_DANCE: u8 = 3;
pub const SLOT: usize = 1121;
pub const OBS_SIZE: usize = 4593;
pub const OBS_HAND: usize = 0;
pub const OBS_DRAWN: usize = 30;
pub const OBS_SLOTS: usize = 60;
pub const OBS_TAIL: usize = 4544;
pub const OBS_TILES_LEFT: usize = 4544;
pub const OBS_PHASE: usize = 4545;
pub const OBS_LAST_DISCARD: usize = 4551;
pub const OBS_LAST_DISCARDER: usize = 4581;
pub const OBS_DEALER: usize = 4585;
pub const OBS_MONEY: usize = 4589;
pub const OBS_TILES_LEFT_SCALE: f64 = 108.0;
pub const OBS_HELD_SCALE: f64 = 14.0;
pub const OBS_MONEY_SCALE: f64 = 32.0;
pub const SLOT_PONGS: usize = 0;
pub const SLOT_KONGS: usize = 30;
pub const SLOT_CONCEALED_KONGS: usize = 60;
pub const SLOT_DISCARD_COUNTS: usize = 90;
pub const SLOT_DISCARD_ORDER: usize = 120;
pub const SLOT_DISCARD_ORDER_LEN: usize = 32;
pub const SLOT_WAITS: usize = 1080;
pub const SLOT_HIDDEN_KONGS: usize = 1110;
pub const SLOT_DECLARED: usize = 1111;
pub const SLOT_OUT: usize = 1114;
pub const SLOT_VOID: usize = 1115;
pub const SLOT_SET_ASIDE: usize = 1118;
pub const SLOT_HELD: usize = 1119;
pub const SLOT_PRESENT: usize = 1120;
pub const OBS_COMPACT_SIZE: usize = 4609;
pub const OBS_COMPACT_MONEY: usize = 4593;
pub const OBS_KIND_FLOAT32: usize = 0;
pub const OBS_KIND_COMPACT: usize = 1;
pub const OPPONENTS_RANDOM: i64 = 0;
pub const OPPONENTS_GREEDY: i64 = 1;
pub const SUIT_TABLE_LEN: usize = 1953125;
pub const HONOUR_TABLE_LEN: usize = 125;
pub const TABLE_ROW_LEN: usize = 10;
pub const RET_OK: i64 = 0;
pub const RET_REFUSED: i64 = 1;
pub const RET_OVER: i64 = -1;
pub const RET_ERROR: i64 = -2;
pub const RET_ILLEGAL: i64 = -3;
pub const RET_NO_TABLES: i64 = -3;
pub const RET_POINTS_MOVED: i64 = 16;
pub const RET_ALL_APPLIED: i64 = -1;
pub const SUMMARY_PHASE: usize = 0;
pub const SUMMARY_RESULT: usize = 1;
pub const SUMMARY_NEXT_DEALER: usize = 2;
pub const SUMMARY_WINS: usize = 3;
pub const SUMMARY_PAYMENTS: usize = 4;
pub const SUMMARY_TILES_LEFT: usize = 5;
pub const SUMMARY_TOTALS: usize = 6;
pub const SUMMARY_WIN_LEN: usize = 6;
pub const SUMMARY_WIN_SEAT: usize = 0;
pub const SUMMARY_WIN_TILE: usize = 1;
pub const SUMMARY_WIN_SELF_DRAW: usize = 2;
pub const SUMMARY_WIN_DISCARDER: usize = 3;
pub const SUMMARY_WIN_ROBBED: usize = 4;
pub const SUMMARY_WIN_MULTIPLIER: usize = 5;
pub const NO_DISCARDER: i64 = -1;
pub const POS_MODE: usize = 0;
pub const POS_MODE_TURN: usize = 0;
pub const POS_MODE_CLAIM: usize = 1;
pub const POS_ACTOR: usize = 1;
pub const POS_TILE: usize = 2;
pub const POS_DEALER: usize = 3;
pub const POS_WALL_LEN: usize = 4;
pub const POS_SEATS: usize = 5;
pub const POS_SEAT_LEN: usize = 44;
pub const POS_COUNTS: usize = 0;
pub const POS_VOID: usize = 30;
pub const POS_OUT: usize = 31;
pub const POS_DECLARED: usize = 32;
pub const POS_WAITS: usize = 33;
pub const POS_MELDS: usize = 34;
pub const POS_MELD: usize = 35;
pub const POS_MELD_PONG: usize = 0;
pub const POS_MELD_KONG: usize = 1;
pub const POS_MELD_CONCEALED: usize = 2;
pub const POS_WALL: usize = 181;
pub const POS_LEN: usize = 317;
pub const ROLLOUT_GREEDY: i64 = 0;
pub const ROLLOUT_CAREFUL: i64 = 1;
pub const OUTLOOK_COUNTS: usize = 0;
pub const OUTLOOK_UNSEEN: usize = 30;
pub const OUTLOOK_VOID: usize = 60;
pub const OUTLOOK_MELDS: usize = 61;
pub const OUTLOOK_MELD: usize = 62;
pub const OUTLOOK_CANDIDATES: usize = 70;
pub const OUTLOOK_SAMPLES: usize = 71;
pub const OUTLOOK_KEY: usize = 72;
pub const OUTLOOK_PLANS: usize = 73;
pub const OUTLOOK_WAITING: usize = 74;
pub const OUTLOOK_IN_LEN: usize = 75;
pub const OUTLOOK_MAX_ROUNDS: usize = 63;
pub const OUTLOOK_ROUNDS: usize = 0;
pub const OUTLOOK_PAYERS: usize = 1;
pub const OUTLOOK_END_UNREADY: usize = 2;
pub const OUTLOOK_END_READY: usize = 3;
pub const OUTLOOK_END_READY_VALUE: usize = 4;
pub const OUTLOOK_END_DECLARED: usize = 5;
pub const OUTLOOK_DECLARE: usize = 6;
pub const OUTLOOK_HAZARD: usize = 8;
pub const OUTLOOK_COST: usize = 72;
pub const OUTLOOK_DECLARED_COST: usize = 136;
pub const OUTLOOK_FEED_HIDDEN: usize = 200;
pub const OUTLOOK_FEED_DECLARED: usize = 264;
pub const OUTLOOK_SHARES_DECLARED: usize = 328;
pub const OUTLOOK_MODEL_LEN: usize = 392;
pub const OUTLOOK_PLAN_ALL: usize = 0;
pub const OUTLOOK_PLAN_FLUSH: usize = 1;
pub const OUTLOOK_PLAN_PAIRS: usize = 4;
pub const OUTLOOK_DECLARES: usize = 8;
pub const CONFIG_LEN: usize = 36;
pub const OPT_VARIANT: usize = 0;
pub const OPT_SUITS: usize = 1;
pub const OPT_BASE: usize = 2;
pub const OPT_LIANGDAO_HIDE_TRIPLETS: usize = 3;
pub const OPT_LIANGDAO_DRAW_PENALTY: usize = 4;
pub const OPT_FIRST_DEALER: usize = 5;
pub const OPT_DIRECT_KONG_PAY: usize = 6;
pub const OPT_SIGUI: usize = 7;
pub const OPT_CAP: usize = 8;
pub const OPT_GANGSHANGPAO_CHAIN: usize = 9;
pub const OPT_MIN_RON_MULTIPLIER: usize = 10;
pub const OPT_SHOUZHUAYI: usize = 11;
pub const OPT_KAWUXING_HAIDI: usize = 12;
pub const OPT_LOUHU_UNLESS_MORE: usize = 13;
pub const OPT_PIAO: usize = 14;
pub const OPT_MAIMA: usize = 15;
pub const OPT_SHUKAN: usize = 16;
pub const OPT_ROUNDS: usize = 17;
pub const OPT_EXCHANGE_THREE: usize = 18;
pub const OPT_BLOOD_BATTLE: usize = 19;
pub const OPT_BLOOD_RIVER: usize = 20;
pub const OPT_KONG_MONEY: usize = 21;
pub const OPT_LATE_ADDED_KONG: usize = 22;
pub const OPT_CAP_FAN: usize = 23;
pub const OPT_GANGSHANGHUA_FAN: usize = 24;
pub const OPT_GANGSHANG_CHAIN: usize = 25;
pub const OPT_ROBBED_KONG_FAN: usize = 26;
pub const OPT_CALL_TRANSFER: usize = 27;
pub const OPT_HEAVENLY_EARTHLY: usize = 28;
pub const OPT_EARTHLY: usize = 29;
pub const OPT_SELF_DRAW_BONUS: usize = 30;
pub const OPT_SICHUAN_HAIDI: usize = 31;
pub const OPT_FLOWER_PIG_PENALTY: usize = 32;
pub const OPT_PASS_WIN_UNLESS_MORE: usize = 33;
pub const OPT_LAST_FOUR_MUST_WIN: usize = 34;
pub const OPT_SING_DANCE: usize = 35;
pub const VARIANT_KAWUXING: i64 = 0;
pub const VARIANT_SICHUAN: i64 = 1;
pub const LIANGDAO_DRAW_PENALTY_COUNT: i64 = 0;
pub const LIANGDAO_DRAW_PENALTY_FIRST: i64 = 1;
pub const LIANGDAO_DRAW_PENALTY_FIRST_PAYS: i64 = 2;
pub const FIRST_DEALER_DICE: i64 = 0;
pub const FIRST_DEALER_EAST: i64 = 1;
pub const SIGUI_HALF: i64 = 0;
pub const SIGUI_FULL: i64 = 1;
pub const SIGUI_WINNING: i64 = 2;
pub const SIGUI_HALF_CONCEALED: i64 = 3;
pub const CAP_NONE: i64 = -1;
pub const KAWUXING_HAIDI_SELF_DRAW: i64 = 0;
pub const KAWUXING_HAIDI_BOTH: i64 = 1;
pub const KAWUXING_HAIDI_NONE: i64 = 2;
pub const LATE_ADDED_KONG_NONE: i64 = 0;
pub const LATE_ADDED_KONG_COLLECT: i64 = 1;
pub const LATE_ADDED_KONG_FORBID: i64 = 2;
pub const CAP_FAN_NONE: i64 = -1;
pub const EARTHLY_FIRST_ROUND: i64 = 0;
pub const EARTHLY_FIRST_DRAW: i64 = 1;
pub const SELF_DRAW_BONUS_NONE: i64 = 0;
pub const SELF_DRAW_BONUS_BASE: i64 = 1;
pub const SELF_DRAW_BONUS_FAN: i64 = 2;

/// Every declared option of the games the crate plays, decoded from the rules array.
#[derive(Clone)]
#[allow(dead_code)]
pub struct Options {
    pub variant: i64,
    pub suits: i64,
    pub base: i64,
    pub liangdao_hide_triplets: bool,
    pub liangdao_draw_penalty: i64,
    pub first_dealer: i64,
    pub direct_kong_pay: i64,
    pub sigui: i64,
    pub cap: i64,
    pub gangshangpao_chain: bool,
    pub min_ron_multiplier: i64,
    pub shouzhuayi: i64,
    pub kawuxing_haidi: i64,
    pub louhu_unless_more: bool,
    pub piao: i64,
    pub maima: bool,
    pub shukan: bool,
    pub rounds: i64,
    pub exchange_three: bool,
    pub blood_battle: bool,
    pub blood_river: bool,
    pub kong_money: bool,
    pub late_added_kong: i64,
    pub cap_fan: i64,
    pub gangshanghua_fan: i64,
    pub gangshang_chain: bool,
    pub robbed_kong_fan: i64,
    pub call_transfer: bool,
    pub heavenly_earthly: bool,
    pub earthly: i64,
    pub self_draw_bonus: i64,
    pub sichuan_haidi: bool,
    pub flower_pig_penalty: i64,
    pub pass_win_unless_more: bool,
    pub last_four_must_win: bool,
    pub sing_dance: bool,
}

impl Options {
    pub fn from_config(c: &[i64]) -> Options {
        Options {
            variant: c[OPT_VARIANT],
            suits: c[OPT_SUITS],
            base: c[OPT_BASE],
            liangdao_hide_triplets: c[OPT_LIANGDAO_HIDE_TRIPLETS] != 0,
            liangdao_draw_penalty: c[OPT_LIANGDAO_DRAW_PENALTY],
            first_dealer: c[OPT_FIRST_DEALER],
            direct_kong_pay: c[OPT_DIRECT_KONG_PAY],
            sigui: c[OPT_SIGUI],
            cap: c[OPT_CAP],
            gangshangpao_chain: c[OPT_GANGSHANGPAO_CHAIN] != 0,
            min_ron_multiplier: c[OPT_MIN_RON_MULTIPLIER],
            shouzhuayi: c[OPT_SHOUZHUAYI],
            kawuxing_haidi: c[OPT_KAWUXING_HAIDI],
            louhu_unless_more: c[OPT_LOUHU_UNLESS_MORE] != 0,
            piao: c[OPT_PIAO],
            maima: c[OPT_MAIMA] != 0,
            shukan: c[OPT_SHUKAN] != 0,
            rounds: c[OPT_ROUNDS],
            exchange_three: c[OPT_EXCHANGE_THREE] != 0,
            blood_battle: c[OPT_BLOOD_BATTLE] != 0,
            blood_river: c[OPT_BLOOD_RIVER] != 0,
            kong_money: c[OPT_KONG_MONEY] != 0,
            late_added_kong: c[OPT_LATE_ADDED_KONG],
            cap_fan: c[OPT_CAP_FAN],
            gangshanghua_fan: c[OPT_GANGSHANGHUA_FAN],
            gangshang_chain: c[OPT_GANGSHANG_CHAIN] != 0,
            robbed_kong_fan: c[OPT_ROBBED_KONG_FAN],
            call_transfer: c[OPT_CALL_TRANSFER] != 0,
            heavenly_earthly: c[OPT_HEAVENLY_EARTHLY] != 0,
            earthly: c[OPT_EARTHLY],
            self_draw_bonus: c[OPT_SELF_DRAW_BONUS],
            sichuan_haidi: c[OPT_SICHUAN_HAIDI] != 0,
            flower_pig_penalty: c[OPT_FLOWER_PIG_PENALTY],
            pass_win_unless_more: c[OPT_PASS_WIN_UNLESS_MORE] != 0,
            last_four_must_win: c[OPT_LAST_FOUR_MUST_WIN] != 0,
            sing_dance: c[OPT_SING_DANCE] != 0,
        }
    }
}

/// ``encode_rules(rules_for('kawuxing'))``: the default options.
#[allow(dead_code)]
pub const CONFIG_KAWUXING: [i64; CONFIG_LEN] =
    [0, 6, 1, 1, 0, 0, 2, 0, -1, 0, 1, 4, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// ``encode_rules(rules_for('sichuan'))``: the default options.
#[allow(dead_code)]
pub const CONFIG_SICHUAN: [i64; CONFIG_LEN] =
    [1, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 1, 0, 1, 0, -1, 2, 1, 0, 0, 1, 0, 0, 0, 16, 1, 1, 0];

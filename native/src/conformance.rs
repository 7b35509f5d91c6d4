//! The conformance corpus (``tests/engine/conformance/*.jsonl``), replayed on this engine: each line is a
//! worked hand (the rules' ``config``, the wall, the actions) and the money it must settle. The
//! Python suite replays the same files (``tests/engine/test_conformance.py``).

use crate::game::Game;
use crate::games::testing::tile;
use crate::score::Rules;
use crate::spec::{
    ACTION_ADDED_KONG, ACTION_CONCEALED_KONG, ACTION_DECLARE, ACTION_DISCARD, ACTION_KONG, ACTION_PASS, ACTION_PONG,
    ACTION_SING, ACTION_VOID, ACTION_WIN,
};
use std::collections::BTreeMap;

/// The JSON the fixtures use (no floats, no escapes beyond \" \\ \n \t and \uXXXX).
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    List(Vec<Json>),
    Map(BTreeMap<String, Json>),
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Map(m) => m.get(key).unwrap_or_else(|| panic!("no {key:?}")),
            _ => panic!("not an object"),
        }
    }
    fn int(&self) -> i64 {
        match self {
            Json::Int(v) => *v,
            other => panic!("not a number: {other:?}"),
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }
    fn list(&self) -> &[Json] {
        match self {
            Json::List(v) => v,
            other => panic!("not a list: {other:?}"),
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) {
        self.ws();
        assert_eq!(self.s[self.i], c, "expected {:?} at {}", c as char, self.i);
        self.i += 1;
    }
    fn value(&mut self) -> Json {
        self.ws();
        match self.s[self.i] {
            b'{' => {
                self.i += 1;
                let mut m = BTreeMap::new();
                self.ws();
                if self.s[self.i] == b'}' {
                    self.i += 1;
                    return Json::Map(m);
                }
                loop {
                    self.ws();
                    let k = match self.value() {
                        Json::Str(k) => k,
                        other => panic!("a key must be a string: {other:?}"),
                    };
                    self.eat(b':');
                    m.insert(k, self.value());
                    self.ws();
                    self.i += 1;
                    if self.s[self.i - 1] == b'}' {
                        return Json::Map(m);
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut v = Vec::new();
                self.ws();
                if self.s[self.i] == b']' {
                    self.i += 1;
                    return Json::List(v);
                }
                loop {
                    v.push(self.value());
                    self.ws();
                    self.i += 1;
                    if self.s[self.i - 1] == b']' {
                        return Json::List(v);
                    }
                }
            }
            b'"' => {
                self.i += 1;
                let mut out: Vec<u8> = Vec::new();
                while self.s[self.i] != b'"' {
                    if self.s[self.i] == b'\\' {
                        self.i += 1;
                        match self.s[self.i] {
                            b'u' => {
                                let hex = std::str::from_utf8(&self.s[self.i + 1..self.i + 5]).unwrap();
                                let c = char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap_or('?');
                                out.extend(c.to_string().as_bytes());
                                self.i += 4;
                            }
                            b'n' => out.push(b'\n'),
                            b't' => out.push(b'\t'),
                            c => out.push(c),
                        }
                    } else {
                        out.push(self.s[self.i]);
                    }
                    self.i += 1;
                }
                self.i += 1;
                Json::Str(String::from_utf8(out).unwrap())
            }
            b't' => {
                self.i += 4;
                Json::Bool(true)
            }
            b'f' => {
                self.i += 5;
                Json::Bool(false)
            }
            b'n' => {
                self.i += 4;
                Json::Null
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len() && (self.s[self.i] == b'-' || self.s[self.i].is_ascii_digit()) {
                    self.i += 1;
                }
                Json::Int(std::str::from_utf8(&self.s[start..self.i]).unwrap().parse().unwrap())
            }
        }
    }
}

fn parse(line: &str) -> Json {
    Parser { s: line.as_bytes(), i: 0 }.value()
}

/// The action index of one action as the Python engine writes it (``Action.to_json``).
fn action_index(a: &Json) -> u8 {
    let kind = || tile(a.get("tile").str());
    match a.get("type").str() {
        "discard" => ACTION_DISCARD + kind(),
        "declare" => ACTION_DECLARE + kind(),
        "sing" => ACTION_SING + kind(),
        "concealed_kong" => ACTION_CONCEALED_KONG + kind(),
        "added_kong" => ACTION_ADDED_KONG + kind(),
        "win" => ACTION_WIN,
        "pong" => ACTION_PONG,
        "kong" => ACTION_KONG,
        "pass" => ACTION_PASS,
        "void" => ACTION_VOID + "mps".find(a.get("suit").str()).expect("a suit") as u8,
        other => panic!("no fixture action {other:?}"),
    }
}

fn replay(hand: &Json) {
    let name = hand.get("name").str();
    let config: Vec<i64> = hand.get("config").list().iter().map(Json::int).collect();
    let wall: Vec<u8> = hand.get("wall").list().iter().map(|t| tile(t.str())).collect();
    let dice = hand.get("dice").list();
    let mut g = Game::new(
        Rules::from_config(&config),
        wall,
        hand.get("dealer").int() as usize,
        (dice[0].int() as u8, dice[1].int() as u8),
    );
    let front = hand.get("front").int();
    if front > 0 {
        g.front = (front as usize).clamp(g.front, g.back);
    }
    for step in hand.get("actions").list() {
        let (seat, action) = (step.list()[0].int() as usize, action_index(&step.list()[1]));
        assert!(g.apply(seat, action), "{name}: action {action} is not legal for seat {seat}");
    }
    let expected = hand.get("expected");
    let totals: Vec<i64> = expected.get("totals").list().iter().map(Json::int).collect();
    assert_eq!(g.totals, totals, "{name}: totals");
    let paid = expected.get("payments").list().iter().filter(|p| p.list()[2].int() != 0).count();
    assert_eq!(g.payments, paid, "{name}: payments made");
    let wins: Vec<(usize, i64)> = g.wins.iter().map(|w| (w.seat, w.score.multiplier)).collect();
    let want: Vec<(usize, i64)> =
        expected.get("wins").list().iter().map(|w| (w.list()[0].int() as usize, w.list()[1].int())).collect();
    assert_eq!(wins, want, "{name}: wins");
    match expected.get("next_dealer") {
        Json::Null => assert!(!g.over(), "{name}: over"),
        d => {
            assert!(g.over(), "{name}: not over");
            assert_eq!(g.next_dealer() as i64, d.int(), "{name}: next dealer");
        }
    }
}

#[test]
fn the_corpus_settles_as_recorded() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/engine/conformance");
    let mut hands = 0;
    let mut paths: Vec<_> =
        std::fs::read_dir(&dir).expect("tests/engine/conformance").map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "jsonl")) {
        for line in std::fs::read_to_string(&path).unwrap().lines().filter(|l| !l.trim().is_empty()) {
            replay(&parse(line));
            hands += 1;
        }
    }
    assert!(hands >= 20, "only {hands} worked hands");
}

"""Hand analysis against the brute-force reference in ``reference.py`` and worked examples."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference as ref
from majiang.core.analysis import (
    capped_row,
    complete_counts,
    discard_advice,
    effective_tiles,
    is_winning,
    readings,
    shanten,
    tables,
    waits,
)
from majiang.core.hand import Hand, Meld
from majiang.core.tiles import format_tiles, parse_tiles, to_counts
from majiang.core.variants import get_variant

VARIANTS = ["kawuxing", "sichuan"]


def names(tiles):
    return format_tiles(tiles)


# --- worked examples -------------------------------------------------------------------------

# Seed 004 (成都麻将规则, 听牌的型态): each shape, completed by sets elsewhere, waits on these.
SEED_WAITS = [
    ("2345m", "25m"),
    ("23456m", None),  # a 5-tile shape: listed in the seed with 147, needs a pair elsewhere
    ("4567778m", "3689m"),
    ("3334555m", "23456m"),
    ("3334567m", "24578m"),
    ("1112345678m", None),
    ("1112223334567m", "1234578m"),
    ("2223334567888m", "23456789m"),
    ("1112345678999m", "123456789m"),
]


@pytest.mark.parametrize("shape, expected", [x for x in SEED_WAITS if x[1]])
def test_seed_004_wait_shapes(shape, expected):
    padding = {4: "111p222p333p", 7: "111p222p", 13: ""}[len(parse_tiles(shape))]
    hand = Hand.parse(shape + padding)
    assert names(waits(hand, "sichuan")) == expected
    assert shanten(hand, "sichuan") == 0


def test_seed_004_five_and_ten_tile_shapes():
    # 23456 waits 1-4-7 with a pair elsewhere: 23456m + 11p + 222p + 333p
    assert names(waits(Hand.parse("23456m11p222p333p"), "sichuan")) == "147m"
    # 1112345678 waits 2,3,5,6,8,9 with sets elsewhere
    assert names(waits(Hand.parse("1112345678m111p"), "sichuan")) == "235689m"


def test_four_of_a_kind_as_two_pairs():
    assert is_winning(Hand.parse("11112233445566p"), "kawuxing")
    assert names(waits(Hand.parse("11115577p3377s5z"), "kawuxing")) == "5z"


def test_sichuan_suit_rule():
    h = Hand.parse("123m456m789m11p23s")
    assert waits(h, "sichuan") == []
    assert shanten(h, "sichuan") == 2  # only 11 tiles of two suits: three must be drawn
    h = Hand.parse("123m456m789m111p2p")
    assert names(waits(h, "sichuan")) == "23p"
    assert waits(h, "sichuan", void="p") == []
    assert shanten(h, "sichuan", void="p") == 4  # nine m tiles left: five to draw


def test_exhausted_tiles_are_not_waits():
    hand = Hand.parse("5p123s", melds=[Meld.pong("5p"), Meld.pong("7s"), Meld.pong("8s")])
    assert waits(hand, "kawuxing") == []
    assert shanten(hand, "kawuxing") == 1
    hand = Hand.parse("1111234567899p")
    assert "1p" not in names(waits(hand, "kawuxing"))


def test_pong_limits_shanten():
    # A lone 5p beside a pong of 5p cannot pair: the hand is not ready on it.
    h = Hand.parse("5p", melds=[Meld.pong("5p"), Meld.pong("1s"), Meld.pong("2s"), Meld.pong("3s")])
    assert shanten(h, "kawuxing") == 1
    assert waits(h, "kawuxing") == []


def test_readings_and_discards_worked():
    assert len(readings(Hand.parse("11223344556677s"), "kawuxing")) == 4  # seven pairs + three standard
    adv = discard_advice(Hand.parse("1112345678999p5z"), "kawuxing")
    assert str(adv[0].tile) == "5z" and adv[0].shanten == 0 and len(adv[0].waits) == 9
    assert adv[0].effective_count == 4 * 9 - 3 - 1 - 1 - 1 - 1 - 1 - 1 - 1 - 3


def test_visible_tiles_reduce_effective_count():
    hand = Hand.parse("1112345678999p5z")
    base = discard_advice(hand, "kawuxing")[0].effective_count
    seen = discard_advice(hand, "kawuxing", visible=parse_tiles("2p2p5p"))[0].effective_count
    assert base - seen == 3


def test_tables_load_small():
    info = tables() and __import__("majiang.core.analysis", fromlist=["table_info"]).table_info()
    assert info["classes"] < 256


# --- the tables against independent references ----------------------------------------------

def table_row(h):
    t = tables()
    key = 0
    for c in h:
        key = key * 5 + c
    return t.rows[t.suit[key] & 255] if len(h) == 9 else t.rows[t.honour[key] & 255]


suit_vectors = st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda h: sum(h) <= 14)


@given(suit_vectors)
@settings(max_examples=60)
def test_suit_rows_match_target_enumeration(h):
    assert list(table_row(h)) == ref.suit_distances(tuple(h), (4,) * 9)


def test_honour_rows_match_target_enumeration():
    import itertools
    for h in itertools.product(range(5), repeat=3):
        assert list(table_row(h)) == ref.suit_distances(h, (4,) * 3, sequences=False)


def test_suit_rows_match_dynamic_programme():
    rnd = random.Random(3)
    for _ in range(1500):
        h = [rnd.choice([0, 0, 0, 1, 1, 2, 3, 4]) for _ in range(9)]
        assert tuple(table_row(h)) == capped_row(tuple(h), (4,) * 9), h


@given(suit_vectors, st.lists(st.integers(0, 4), min_size=9, max_size=9))
@settings(max_examples=60)
def test_capped_rows_match_target_enumeration(h, caps):
    h = [min(a, b) for a, b in zip(h, caps)]
    assert list(capped_row(tuple(h), tuple(caps))) == ref.suit_distances(tuple(h), tuple(caps))


# --- random hands ----------------------------------------------------------------------------

def wall(variant):
    return [k for k in ref.kinds_of(variant) for _ in range(4)]


@st.composite
def hands(draw, variant, size=13, near=True):
    """A hand of ``size`` tiles with 0-2 melds; ``near`` builds a win and replaces a few tiles."""
    seed = draw(st.integers(0, 2 ** 32))
    rnd = random.Random(seed)
    melds = []
    n_melds = draw(st.integers(0, 2))
    tiles = wall(variant)
    rnd.shuffle(tiles)
    meld_counts = [0] * 30
    for _ in range(n_melds):
        t = rnd.choice(ref.kinds_of(variant))
        kind = rnd.choice(["pong", "pong", "kong", "concealed_kong"])
        size_m = 3 if kind == "pong" else 4
        if meld_counts[t] + size_m > 4:
            continue
        meld_counts[t] += size_m
        melds.append(Meld(__import__("majiang.core.hand", fromlist=["MeldKind"]).MeldKind(kind), t))
    target = size - 3 * len(melds)
    pool = [t for t in tiles]
    rnd.shuffle(pool)
    if near and variant == "sichuan":
        suits = rnd.sample(["m", "p", "s"], 2)
        pool = [t for t in pool if ref.SUIT_OF[t] in suits] + [t for t in pool if ref.SUIT_OF[t] not in suits]
    if near:
        # a complete hand, then swap 0-3 tiles for random ones
        full = target if target % 3 == 2 else target + 1
        kinds = sorted(set(pool[:40]))
        while True:
            c = [0] * 30
            built = 0
            for _ in range(200):
                if built == full - 2:
                    break
                k = rnd.choice(kinds)
                if rnd.random() < 0.6 and k < 27 and k % 9 <= 6 \
                        and all(c[x] + meld_counts[x] < 4 for x in (k, k + 1, k + 2)):
                    for x in (k, k + 1, k + 2):
                        c[x] += 1
                    built += 3
                elif c[k] + meld_counts[k] <= 1:
                    c[k] += 3
                    built += 3
            k = rnd.choice(kinds)
            if built == full - 2 and c[k] + meld_counts[k] <= 2:
                c[k] += 2
                break
        flat = [k for k in range(30) for _ in range(c[k])]
        for _ in range(draw(st.integers(0, 3))):
            flat.pop(rnd.randrange(len(flat)))
            while True:
                t = rnd.choice(ref.kinds_of(variant))
                if flat.count(t) + meld_counts[t] < 4:
                    flat.append(t)
                    break
        if full != target:
            flat.pop(rnd.randrange(len(flat)))
    else:
        flat = []
        for t in pool:
            if len(flat) == target:
                break
            if flat.count(t) + meld_counts[t] < 4:
                flat.append(t)
    return Hand(tuple(to_counts(flat)), tuple(melds))


def plain(hand):
    return list(hand.counts), [m.tile for m in hand.melds], [0] * 30 if not hand.melds else \
        [sum(m.size for m in hand.melds if m.tile == k) for k in range(30)]


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
@settings(max_examples=120)
def test_win_test_matches_reference(variant, data):
    hand = data.draw(hands(variant, size=14))
    counts, melds, _ = plain(hand)
    assert is_winning(hand, variant) == ref.is_win(counts, melds, variant)
    if variant == "sichuan":
        for void in "mps":
            assert is_winning(hand, variant, void) == ref.is_win(counts, melds, variant, void)
    rs = readings(hand, variant)
    assert bool(rs) == ref.is_win(counts, melds, variant)
    # the engine's fast path (no validation) agrees with the reference too
    variant_obj = get_variant(variant)
    for void in ([None, "m", "p", "s"] if variant == "sichuan" else [None]):
        fast = complete_counts(list(hand.counts), hand.all_counts(), variant_obj, void, closed=not hand.melds)
        assert fast == ref.is_win(counts, melds, variant, void)


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
@settings(max_examples=120)
def test_waits_match_reference(variant, data):
    hand = data.draw(hands(variant))
    counts, melds, mc = plain(hand)
    void = data.draw(st.sampled_from([None, "m", "p", "s"])) if variant == "sichuan" else None
    expected = ref.waits(counts, melds, mc, variant, void)
    assert [int(t) for t in waits(hand, variant, void)] == expected
    s = shanten(hand, variant, void)
    assert (s == 0) == bool(expected) or (s == 0 and not expected and False)


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
@settings(max_examples=40)
def test_shanten_matches_reference_to_depth_2(variant, data):
    hand = data.draw(hands(variant))
    counts, melds, mc = plain(hand)
    void = data.draw(st.sampled_from([None, "p", "s"])) if variant == "sichuan" else None
    expected = ref.shanten_upto(counts, melds, mc, variant, void, depth=2)
    assert min(shanten(hand, variant, void), 3) == expected


@pytest.mark.parametrize("variant", VARIANTS)
@given(data=st.data())
@settings(max_examples=25)
def test_discard_advice_matches_reference(variant, data):
    hand = data.draw(hands(variant, size=14))
    counts, melds, mc = plain(hand)
    advice = discard_advice(hand, variant)
    assert sorted(int(o.tile) for o in advice) == sorted(k for k in range(30) if counts[k])
    keys = [(o.shanten, -o.effective_count) for o in advice]
    assert keys == sorted(keys)
    for o in advice:
        after = list(counts)
        after[o.tile] -= 1
        s = ref.shanten_upto(after, melds, mc, variant, None, depth=1)
        assert min(o.shanten, 2) == s
        if o.shanten == 0:
            assert [int(t) for t in o.waits] == ref.waits(after, melds, mc, variant)
        if o.shanten == 1:
            eff = []
            for t in ref.kinds_of(variant):
                if after[t] + mc[t] >= 4:
                    continue
                c = list(after)
                c[t] += 1
                if any(c[x] and ref.waits([c[k] - (k == x) for k in range(30)], melds, mc, variant)
                       for x in range(30)):
                    eff.append(t)
            assert [int(t) for t in o.effective] == eff
        unseen = sum(4 - counts[t] - mc[t] for t in o.effective)
        assert o.effective_count == unseen


def test_shanten_far_hands_sane():
    rnd = random.Random(7)
    for variant in VARIANTS:
        for _ in range(300):
            w = wall(variant)
            rnd.shuffle(w)
            h = Hand(tuple(to_counts(w[:13])))
            s = shanten(h, variant)
            assert 0 <= s <= 6
            _, eff = effective_tiles(h, variant)
            assert eff, "every non-winning hand has some tile that helps"


def test_a_void_is_one_suit():
    """定缺 names one suit: "mp" or "" is refused, not read as no void (the C path hands these to Python)."""
    import pytest as _pytest

    import majiang
    from majiang.core.errors import HandError
    from majiang.core.hand import Hand

    hand = Hand.parse("1112345678999m")
    for bad in ("mp", "", "ps"):
        with _pytest.raises(HandError, match="void suit"):
            majiang.shanten(hand, "sichuan", bad)

import pytest

from majiang.core.errors import HandError, TileError
from majiang.core.hand import Hand, Meld
from majiang.core.tiles import ALL_TILES, Tile, format_tiles, parse_tiles


@pytest.mark.parametrize("text, expected", [
    ("123m456p789s", "123m456p789s"),
    ("一万二万三万", "123m"),
    ("九筒 九条 九万", "9m9p9s"),
    ("五饼五索五萬", "5m5p5s"),
    ("白发發中", "5667z"),
    ("🀇🀏🀙🀡🀐🀘🀆🀅🀄", "19m19p19s567z"),
    ("1m,2m 3m", "123m"),
    ("5Z", "5z"),
])
def test_parse_and_format(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


def test_round_trips():
    for t in ALL_TILES:
        assert Tile.parse(t.mpsz) == t
        assert Tile.parse(t.chinese) == t
        assert Tile.parse(t.unicode) == t
    tiles = parse_tiles("1122m99p5z")
    assert parse_tiles(format_tiles(tiles, "chinese")) == tiles
    assert parse_tiles(format_tiles(tiles, "unicode")) == tiles


@pytest.mark.parametrize("text, fragment", [
    ("12x", "unknown character 'x' at position 3"),
    ("123", "no suit letter"),
    ("m", "has no digits before it"),
    ("1z", "not a dragon"),
    ("0p", "'0'"),
    ("五", "not followed by"),
    ("", None),
])
def test_bad_tiles_name_the_problem(text, fragment):
    if fragment is None:
        assert parse_tiles(text) == []
        return
    with pytest.raises(TileError) as err:
        parse_tiles(text)
    assert fragment in str(err.value)
    assert isinstance(err.value, ValueError)


def test_fifth_copy_is_rejected():
    with pytest.raises(TileError, match="fifth copy of 5p"):
        Hand.parse("55p", melds=[Meld.pong("5p")])
    with pytest.raises(TileError, match="fifth copy"):
        Hand.parse("11111s")


def test_variant_tile_sets():
    with pytest.raises(HandError, match="not a tile of kawuxing"):
        Hand.parse("1112345678999m").check("kawuxing")
    with pytest.raises(HandError, match="not a tile of sichuan"):
        Hand.parse("111234567899p5z").check("sichuan")
    with pytest.raises(HandError, match="cannot be analysed"):
        Hand.parse("111222333444p").check("kawuxing")


def test_tile_names():
    t = Tile.parse("7z")
    assert (t.chinese, t.english, t.unicode) == ("中", "red dragon", "🀄")
    assert Tile.parse("3s").chinese == "三条"

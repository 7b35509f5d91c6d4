"""卡五星 Kawuxing: ``options`` (rules options and presets), ``fans`` (the fan table),
``play`` (what the engine asks of this game)."""

from majiang.games.kawuxing.bots import BOTS
from majiang.games.kawuxing.fans import FAN_HELP, FAN_NAMES, score_win
from majiang.games.kawuxing.options import DEFAULT_PRESET, PRESETS, KawuxingRules
from majiang.games.kawuxing.play import KawuxingPlay
from majiang.games.kawuxing.tiles import KAWUXING
from majiang.games.registry import GameSpec, register

PAYMENTS = ("暗杠", "蓄杠", "直杠", "自摸", "点炮", "包胡", "抢杠", "漂", "数坎", "买马", "亮倒荒庄")

register(GameSpec("kawuxing", "卡五星", KAWUXING, KawuxingRules, PRESETS, DEFAULT_PRESET, KawuxingPlay, score_win,
                  FAN_NAMES, True, name_en="Kawuxing", native=True, payments=PAYMENTS, bots=BOTS, fan_help=FAN_HELP,
                  declarations={"declare": ("亮倒", "declare")}))

__all__ = ["FAN_NAMES", "KawuxingRules", "KawuxingPlay", "score_win"]

"""血战到底 Sichuan: ``options`` (rules options and presets), ``fans`` (the fan table),
``play`` (what the engine asks of this game)."""

from majiang.games.registry import GameSpec, register
from majiang.games.sichuan.bots import BOTS
from majiang.games.sichuan.fans import FAN_HELP, FAN_NAMES, score_win
from majiang.games.sichuan.options import DEFAULT_PRESET, PRESETS, SichuanRules
from majiang.games.sichuan.play import SichuanPlay
from majiang.games.sichuan.tiles import SICHUAN

PAYMENTS = ("点杠", "暗杠", "加杠", "自摸", "点炮", "抢杠", "呼叫转移", "退杠", "花猪", "大叫")

register(GameSpec("sichuan", "血战到底", SICHUAN, SichuanRules, PRESETS, DEFAULT_PRESET, SichuanPlay, score_win,
                  FAN_NAMES, False, name_en="Sichuan (blood battle)", native=True, payments=PAYMENTS, bots=BOTS,
                  fan_help=FAN_HELP,
                  declarations={"declare": ("跳舞", "dance"), "sing": ("唱歌", "sing")}))

__all__ = ["FAN_NAMES", "SichuanRules", "SichuanPlay", "score_win"]

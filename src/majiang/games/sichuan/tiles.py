"""血战到底's tile set and table: 万, 筒 and 条, 108 tiles, four players; a win holds at most two
suits and never the void suit.

>>> SICHUAN.num_tiles, SICHUAN.players, SICHUAN.capabilities.two_suits
(108, 4, True)
"""

from majiang.core.variants import Capabilities, Variant

SICHUAN = Variant("sichuan", "血战到底", "mps", False, 4,
                  Capabilities(void_suit=True, two_suits=True, exchange=True, blood_battle=True))

"""卡五星's tile set and table: 筒 and 条 with 中发白, 84 tiles, three players.

>>> KAWUXING.num_tiles, KAWUXING.players, KAWUXING.suits
(84, 3, 'ps')
"""

from majiang.core.variants import Capabilities, Variant

KAWUXING = Variant("kawuxing", "卡五星", "ps", True, 3, Capabilities(open_hand=True))

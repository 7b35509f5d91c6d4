"""The wall and the dice: a function of (seed, deal number) only, so a seed replays anywhere.

``majiang.native`` shuffles the same way (``seed_string``), so both engines deal the same walls.

>>> wall, dice = shuffled_wall(range(27), "demo", 0)
>>> len(wall), sorted(wall) == sorted(list(range(27)) * 4), all(1 <= d <= 6 for d in dice)
(108, True, True)
"""

from __future__ import annotations

import random
from typing import Any

from majiang.games import play_for

RNG_VERSION = 1  # bump if the shuffle changes, so old logs are known to replay differently


def seed_string(seed: Any, hand_index: int) -> str:
    """What the shuffle of one deal is seeded with (``majiang.native`` seeds the same way)."""
    return f"majiang/{RNG_VERSION}/{seed}/{hand_index}"


def shuffled_wall(kinds, seed: Any, hand_index: int) -> tuple[list[int], tuple[int, int]]:
    """The wall and dice of one deal: a function of (seed, deal index) only."""
    rng = random.Random(seed_string(seed, hand_index))
    wall = [int(k) for k in kinds for _ in range(4)]
    rng.shuffle(wall)
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    return wall, dice


def first_dealer(seed: Any, players: int, rules: Any = None) -> tuple[int, tuple[int, int] | None]:
    """The first dealer of a match and the two dice that chose it (``None`` when the rules seat it
    without dice, as 襄阳's "第一局东风位坐庄" does: ask ``rules``' game). 第一局随机确定庄家: the dice
    are a function of the match seed only, their total counted round the table from seat 0 (seat 0
    counts 1)."""
    if rules is not None:
        seated = play_for(rules).first_dealer_seat()
        if seated is not None:
            return seated, None
    rng = random.Random(f"majiang/{RNG_VERSION}/{seed}/first-dealer")
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    return (sum(dice) - 1) % players, dice

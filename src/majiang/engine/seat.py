"""One seat's part of a deal: what it holds, has shown, has thrown, has declared and has won."""

from __future__ import annotations

from majiang.core.hand import Meld
from majiang.core.tiles import Tile


class Seat:
    """Everything in a deal that belongs to one seat (the engine's state; views decide who sees it)."""

    __slots__ = ("counts", "melds", "discards", "claimed", "declared_kind", "declared_waits", "won_tiles", "void",
                 "exchange_choice", "out", "passed_win", "draws")

    def __init__(self) -> None:
        self.counts: list[int] = [0] * 30  # concealed tiles by kind
        self.melds: list[Meld] = []
        self.discards: list[Tile] = []
        self.claimed: list[bool] = []  # per discard: taken by a claim
        self.declared_kind: str | None = None  # the hand is frozen: "liangdao" (亮倒), "sing" (唱歌), "dance" (跳舞)
        self.declared_waits: list[Tile] = []
        self.won_tiles: list[Tile] = []  # 血流成河: winning tiles set aside
        self.void: str | None = None  # 定缺 suit
        self.exchange_choice: tuple[Tile, ...] | None = None  # 换三张: the three tiles passed
        self.out = False  # 血战: won and left the table
        self.passed_win: int | None = None  # 漏胡/过水: uncapped value of a win passed since one's own draw
        self.draws = 0  # tiles drawn from the wall this deal

    @property
    def declared(self) -> bool:
        return self.declared_kind is not None

    def __repr__(self) -> str:
        held = sum(self.counts)
        out = " out" if self.out else ""
        return f"<Seat {held} tiles, {len(self.melds)} melds, {len(self.discards)} discards{out}>"

"""The match's own stored state: 托管 and missed timers, 准备, the pending start, the 解散 vote, the
rematch offer and whether the match was dissolved (``rooms.match_state``, JSON). Mixed into
``LiveTable``: every change is stored through the journal before anyone is told, and a restart
resumes it with the deal (``load_state``).
"""

from __future__ import annotations

import asyncio
import json

from majiang.server.journal import outcome
from majiang.server.match import Match, initial_state
from majiang.server.store import Append
from majiang.server.votes import rematch_from_json


class StoredMatchState:
    def state_fields(self, dissolved: bool | None = None) -> dict:
        """托管, 准备, the pending start, the dissolve vote and the rematch offer (fresh lists and dicts:
        comparing two of them says whether anything changed)."""
        offer = self.rematch_offer
        return {"hand": self.hand_index, **self.presence.to_json(), **self.readiness.to_json(),
                "dissolve": self.votes.to_json(), "rematch": dict(offer) if offer is not None else None,
                "dissolved": self.dissolved if dissolved is None else dissolved}

    def state_json(self, dissolved: bool | None = None) -> str:
        """The match state as stored."""
        return json.dumps(self.state_fields(dissolved), sort_keys=True)

    def load_state(self, text: str | None) -> None:
        """The stored match state (or, with None, the default); the state it was stored as is ours."""
        data = json.loads(text) if text else {}
        self.presence.load(data)
        self.readiness.load(data, same_hand=data.get("hand") == self.hand_index)
        self.votes.load(data.get("dissolve"))
        self.rematch_offer = rematch_from_json(data.get("rematch"))
        self.match = Match(self.room, initial_state(self.room["status"], self.readiness.start_asked is not None,
                                                    self.game is not None and self.game.over,
                                                    bool(data.get("dissolved"))))
        self._stored_state = self.state_json()
        self._checked: tuple | None = None  # (the state's fields, the stored text) when last found equal

    async def _save_state(self, before: str | None = None) -> None:
        """Store the match state if it changed (holding the table's lock: one write of a table in
        flight at a time). ``StoreError``: nothing stored, and the state is ``before`` again."""
        text = self.state_json()
        if text == self._stored_state:
            return
        item = Append(self.code, self.game_id or 0, len(self._log_lines), (), match_state=text, lease=self.code)
        error, cancelled = await outcome(self.journal.submit(item))
        if error is None:
            self._stored_state = text
        elif before is not None:
            self._restore(before)
        if cancelled:
            raise asyncio.CancelledError
        if error is not None:
            raise error

    def _restore(self, before: str) -> None:
        stored, state = self._stored_state, self.match.state
        self.load_state(before)
        self._stored_state, self.match.state = stored, state

    async def _change(self, change) -> None:
        """A change of the match state (``change()``), stored before anyone is told."""
        async with self.lock:
            before = self.state_json()
            change()
            await self._save_state(before)

    async def _save_state_if_changed(self) -> None:
        """The driver stores what changed without a write of its own (a reconnect, new seats). The
        text is built only when the fields moved since the last look that found them stored."""
        if self.closed:
            return
        fields = self.state_fields()
        if self._checked == (fields, self._stored_state):
            return
        text = json.dumps(fields, sort_keys=True)
        if text == self._stored_state:
            self._checked = (fields, text)
            return
        async with self.lock:
            await self._save_state()

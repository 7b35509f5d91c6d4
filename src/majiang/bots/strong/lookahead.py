"""``strong``'s look-ahead: between close discards, sample the unseen tiles as the next draws
(determinised Monte Carlo) within a budget of work, not time."""

from __future__ import annotations

import time

from majiang.bots.base import SeatView


class LookAhead:
    def _look_ahead(self, view: SeatView, candidates, unseen) -> tuple:
        """Sample the unseen tiles as this seat's next draws and count wins within reach."""
        deadline = None if self.budget is None else time.perf_counter() + self.budget
        pool = [k for k in range(30) for _ in range(unseen[k])]
        draws = max(1, min(8, view.tiles_left // max(1, len(view.obs["players"]))))
        wins = [0] * len(candidates)
        trials = 0
        self._evaluations = 0
        for _ in range(self.samples):
            if self._evaluations >= self.work or (deadline is not None and time.perf_counter() > deadline):
                break
            self.rng.shuffle(pool)
            future = pool[:draws]
            trials += 1
            for i, cand in enumerate(candidates):
                counts = list(view.counts)
                counts[cand[3].tile] -= 1
                if self._sim_wins(view, counts, future):
                    wins[i] += 1
        if trials == 0:
            return candidates[0]
        best_i = max(range(len(candidates)), key=lambda i: (wins[i], -i))
        return candidates[best_i]

    def _sim_wins(self, view: SeatView, counts, future) -> bool:
        for t in future:
            if view.caps is not None and counts[t] >= view.caps[t]:
                continue
            counts[t] += 1
            self._evaluations += 1
            if view.shanten(counts) == -1:
                return True
            best_k, best_s = None, 99
            for k in range(30):
                if counts[k]:
                    counts[k] -= 1
                    s = view.shanten(counts)
                    self._evaluations += 1
                    counts[k] += 1
                    if s < best_s:
                        best_k, best_s = k, s
            counts[best_k] -= 1
        return False

"""Train a small policy against `greedy` opponents and plot its score rising.

    pip install -e '.[train]'          # gymnasium, pettingzoo, matplotlib (no torch: the next line)
    pip install torch --index-url https://download.pytorch.org/whl/cpu   # the CPU build, ~200 MB
    python examples/train_policy.py --variant kawuxing --minutes 3 --plot training.png

A masked-softmax MLP over the documented observation, trained by REINFORCE with a running
baseline on the single-agent environment (seat 0 against greedy bots). Every `--eval-every`
updates it plays fixed evaluation deals (the same walls each time, so the curve compares like
with like) and records the mean points per hand; the plot shows that curve.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

try:
    import torch
    from torch import nn
except ModuleNotFoundError:  # the [train] extra holds no torch (it would pull CUDA wheels): say how to get it
    raise SystemExit("train_policy.py needs torch: "
                     "pip install torch --index-url https://download.pytorch.org/whl/cpu") from None

from majiang.rl import N_ACTIONS, OBS_SIZE, single_agent


class Policy(nn.Module):
    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_SIZE, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, N_ACTIONS))

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.distributions.Categorical:
        logits = self.net(obs)
        logits = logits.masked_fill(mask == 0, -1e9)
        return torch.distributions.Categorical(logits=logits)


def play(env, policy, seed: int, greedy: bool = False):
    obs, _ = env.reset(seed=seed)
    logps, total, done = [], 0.0, False
    while not done:
        o = torch.as_tensor(obs["observation"]).unsqueeze(0)
        m = torch.as_tensor(obs["action_mask"]).unsqueeze(0)
        dist = policy(o, m)
        a = dist.probs.argmax(-1) if greedy else dist.sample()
        logps.append(dist.log_prob(a))
        obs, r, done, _, _ = env.step(int(a))
        total += r
    return logps, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="kawuxing", choices=["kawuxing", "sichuan"])
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--batch", type=int, default=8, help="hands per update")
    ap.add_argument("--eval-every", type=int, default=10, help="updates between evaluations")
    ap.add_argument("--eval-hands", type=int, default=60)
    ap.add_argument("--plot", default="training.png")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = single_agent(args.variant, opponents="greedy")
    policy = Policy()
    opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
    baseline, curve, update, hand = 0.0, [], 0, 0
    start = time.time()

    def evaluate() -> float:
        with torch.no_grad():
            scores = [play(env, policy, 10_000_000 + i, greedy=True)[1] for i in range(args.eval_hands)]
        return float(np.mean(scores))

    curve.append((0, evaluate()))
    print(f"update 0: mean points per hand {curve[-1][1]:+.3f}")
    while time.time() - start < args.minutes * 60:
        loss = 0.0
        for _ in range(args.batch):
            logps, ret = play(env, policy, args.seed * 1_000_003 + hand)
            hand += 1
            baseline = 0.98 * baseline + 0.02 * ret
            loss = loss - (ret - baseline) * torch.stack(logps).sum()
        opt.zero_grad()
        (loss / args.batch).backward()
        opt.step()
        update += 1
        if update % args.eval_every == 0:
            curve.append((update, evaluate()))
            print(f"update {update}: mean points per hand {curve[-1][1]:+.3f}  ({hand} training hands)")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    xs, ys = zip(*curve)
    plt.figure(figsize=(6, 4))
    plt.plot(xs, ys, marker="o")
    plt.axhline(0, color="grey", lw=0.8)
    plt.xlabel("updates")
    plt.ylabel("mean points per hand vs greedy")
    plt.title(f"{args.variant}: REINFORCE policy against greedy bots")
    plt.tight_layout()
    plt.savefig(args.plot, dpi=110)
    print(json.dumps({"curve": curve, "plot": args.plot}))


if __name__ == "__main__":
    main()

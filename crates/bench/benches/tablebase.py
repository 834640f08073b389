#!/usr/bin/env python3
"""Endgame databases: build time, positions per CPU-second, file sizes,
and a cross-check of random entries against plain search.

For each game, `mancala-tablebase build --seeds N` builds every layer
0..=N into a fresh directory; the CPU time is the tool's own (user +
system, from the kernel's accounting of the finished child), not wall
time, since other work shares the machine. Rate = positions / CPU-second,
printed beside Romein & Bal's Awari build (2002): 889 billion positions
in 51 hours on 144 processors, about 34,000 positions per CPU-second.
Then `mancala-tablebase check` draws --samples different entries
uniformly from the layers of at most --check-seeds seeds (K: the fewest
seeds whose layers hold 100,000 entries) and compares every one, exact
or resting on the convention for unending play, with the reference
solver (`mancala_tablebase::Reference`, which shares only the rules
with the build) and with the same position, sides swapped, and each
exact entry with a proof by search (`search_at_least`); disagreements
must be 0. Exact entries whose proof exceeds --node-limit are counted
as unfinished (the reference has checked them).

The last layers' times extrapolate the largest N that builds in an hour:
layer sizes are exact (the index counts them), the time per position is
the last layer's (printed as an extrapolation, not a measurement).

    python3 crates/bench/benches/tablebase.py [--only GAME] [--seeds GAME=N ...]
        [--samples 100000] [--check-seeds GAME=N ...] [--node-limit N] [--jobs 2]
"""

import argparse
import math
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
GAMES = ["kalah", "oware", "olowuka", "olinda-keliya", "pallankuzhi", "rio-kadalis"]
# Builds of a few minutes each on a loaded 2-core machine.
DEFAULT_SEEDS = {
    "kalah": 14,
    "oware": 10,
    "olowuka": 10,
    "olinda-keliya": 10,
    "pallankuzhi": 10,
    "rio-kadalis": 11,
}
# The fewest seeds whose layers hold at least 100,000 entries, so that
# --samples 100000 checks that many different ones (spec/tablebase.md,
# Measured); each check takes under 10 minutes on a loaded 2-core machine.
DEFAULT_CHECK_SEEDS = {
    "kalah": 8,
    "oware": 6,
    "olowuka": 6,
    "olinda-keliya": 7,
    "pallankuzhi": 7,
    "rio-kadalis": 8,
}
# Moves a proof by search may play, per game unless --node-limit names
# one: Rio Kadalis's relay moves are long to play, and at 20,000 its
# check takes over 10 minutes.
DEFAULT_NODE_LIMIT = 20_000
NODE_LIMITS = {"rio-kadalis": 5_000}
ROMEIN_BAL = 34_000
HOUR = 3600.0
# The machine's memory: a layer must be solved within it.
MEMORY = 24e9


def memory_of(sizes, k):
    """Bytes a build to layer k holds at most: the graph of layer k while
    it is solved (68 bytes a position, as Kalah's layer 22 peaked at
    13.1 GB for 193.5 M positions) and a byte a position below."""
    return 68 * sizes[k] + sum(sizes[:k])


def build_tools():
    subprocess.run(["cargo", "build", "--release", "--bin", "mancala-tablebase", "--quiet"], cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release", "mancala-tablebase")


def timed(cmd):
    """Runs cmd; returns (stdout, CPU seconds of the child, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.stdout, cpu, wall, done.returncode


def pairs(items, defaults):
    table = dict(defaults)
    for item in items or []:
        game, _, n = item.partition("=")
        table[game] = int(n)
    return table


def layer_sizes(game, upto):
    """Positions per layer up to `upto`, counted as the index counts them
    (spec/tablebase.md): fillings of the holes times the extra part."""
    holes = {"olinda-keliya": 7, "pallankuzhi": 7}.get(game, 6)
    per_hole = {"pallankuzhi": 6}.get(game, 4)
    total = 2 * holes * per_hole
    sizes = []
    for k in range(upto + 1):
        fills = math.comb(k + 2 * holes - 1, 2 * holes - 1)
        if game in ("oware", "olowuka"):
            stores = total - k
            lo, hi = max(0, stores - 24), min(24, stores)
            extras = max(0, hi - lo + 1)
        elif game == "olinda-keliya":
            extras = 2
        else:
            extras = 1
        sizes.append(fills * extras)
    return sizes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=GAMES)
    parser.add_argument("--seeds", action="append", metavar="GAME=N")
    parser.add_argument("--check-seeds", action="append", metavar="GAME=N")
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--node-limit", type=int)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", metavar="DIR", help="build into DIR and keep it")
    args = parser.parse_args()
    seeds = pairs(args.seeds, DEFAULT_SEEDS)
    check_seeds = pairs(args.check_seeds, DEFAULT_CHECK_SEEDS)
    tool = build_tools()
    games = [args.only] if args.only else GAMES
    with tempfile.TemporaryDirectory() as scratch:
        base = args.keep or scratch
        print(f"{'game':14} {'N':>3} {'positions':>12} {'CPU s':>9} {'wall s':>8} {'pos/CPU-s':>10} "
              f"{'vs R&B':>7} {'MB':>8} {'convention':>11}")
        rows = []
        for game in games:
            n = seeds[game]
            out, cpu, wall, _ = timed([tool, "build", "-q", "--game", game, "--seeds", str(n),
                                       "--tablebase", base, "--jobs", str(args.jobs)])
            layers = [line.split() for line in out.splitlines() if not line.startswith("#")]
            positions = sum(int(row[1]) for row in layers)
            convention = sum(int(row[3]) for row in layers)
            last = layers[-1]
            # CPU per position of the last layer, by its share of the wall time.
            last_share = float(last[5]) / max(sum(float(r[5]) for r in layers), 1e-9)
            per_position = cpu * last_share / max(int(last[1]), 1)
            size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(base)
                       for f in fs if game in d)
            rate = positions / cpu if cpu > 0 else float("inf")
            print(f"{game:14} {n:>3} {positions:>12} {cpu:>9.2f} {wall:>8.2f} {rate:>10.0f} "
                  f"{rate / ROMEIN_BAL:>6.2f}x {size / 1e6:>8.1f} {convention:>11}")
            rows.append((game, n, per_position))
        print()
        print("Largest N built in under an hour of 2 cores and 24 GB (EXTRAPOLATED from the last"
              " measured layer's CPU per position, layer sizes exact; memory: about 68 bytes a"
              " position of the largest layer while it is solved, plus 1 byte a position for the"
              " layers below, as Kalah's layer 22 measured). Optimistic: the rate falls as layers"
              " outgrow the caches, and a layer's attractors run on one core; for Kalah it gives"
              " 23 where a build to 22 took 59.5 min (spec/tablebase.md):")
        for game, n, per_position in rows:
            sizes = layer_sizes(game, 40)
            budget = 2 * HOUR
            spent, best = 0.0, n
            for k, size in enumerate(sizes):
                # The time per position grows with the thresholds solved (2k passes).
                spent += size * per_position * max(1.0, k / max(n, 1))
                if spent > budget or memory_of(sizes, k) > MEMORY:
                    break
                best = k
            print(f"  {game:14} N = {best:2} (~{memory_of(sizes, best) / 1e9:.1f} GB)")
        print()
        print(f"Cross-check: {args.samples} different entries per game against the reference"
              " solver and search:")
        for game in games:
            k = min(check_seeds[game], seeds[game])
            node_limit = args.node_limit
            if node_limit is None:
                node_limit = NODE_LIMITS.get(game, DEFAULT_NODE_LIMIT)
            out, cpu, wall, status = timed([tool, "check", "--game", game, "--tablebase", base,
                                            "--samples", str(args.samples), "--max-seeds", str(k),
                                            "--node-limit", str(node_limit),
                                            "--jobs", str(args.jobs)])
            print(f"  {game:14} <= {k:2} seeds, node limit {node_limit}: {out.strip()}")
            if status != 0:
                print(f"  {game}: DISAGREEMENTS")


if __name__ == "__main__":
    main()

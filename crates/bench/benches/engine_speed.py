#!/usr/bin/env python3
"""Engine speed: instructions per unit of work and units per second.

    python3 crates/bench/benches/engine_speed.py [--old-bin PATH] [--runs N] [--no-instructions]

Builds the engine's `speed` example (crates/engine/examples/speed.rs) in
release and measures, for every game: random playouts to the end (plies),
alpha-beta to depth 9 on six positions with a fresh 2^16-slot table each
(nodes), and MCTS playouts from the start (playouts). For each it prints

- instructions per unit, counted by valgrind's callgrind (needs valgrind;
  the count of a run doing no work is taken off, so process start-up is
  not counted);
- units per second, the median of N timed runs (default 5).

With `--old-bin PATH` (a `speed` binary built from an older revision: copy
the example into its tree, where `playouts` means the same games through
`play_random`) both are measured in turn, run by run, and the ratios
printed: old instructions over new, and new speed over old (the ratio of
the medians, and in brackets the range of the run-by-run ratios: a wide
range says the machine was busy). Not run in CI.
"""

import argparse
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
GAMES = ("olowuka", "olinda-keliya", "pallankuzhi", "rio-kadalis")
# Work and its size per game: the round games' playouts are ten times longer.
WORK = {
    "playouts": {"olowuka": 300, "olinda-keliya": 300, "pallankuzhi": 40, "rio-kadalis": 25},
    "alphabeta": {game: 9 for game in GAMES},
    "mcts": {"olowuka": 2000, "olinda-keliya": 2000, "pallankuzhi": 1000, "rio-kadalis": 1000},
}
TIMED = 10  # timed runs do this many times the work, for longer runs


def run(binary: Path, what: str, game: str, n: int) -> tuple[int, float]:
    out = subprocess.run([str(binary), what, game, str(n)], capture_output=True, text=True, check=True).stdout
    m = re.search(r": (\d+) \w+ in ([\d.]+) s", out)
    if not m:
        sys.exit(f"unexpected output from {binary}: {out!r}")
    return int(m.group(1)), float(m.group(2))


def instructions(binary: Path, what: str, game: str, n: int) -> int:
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(binary), what, game, str(n)]
    err = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    m = re.search(r"refs:\s+([\d,]+)", err)
    if not m:
        sys.exit(f"no instruction count from valgrind: {err[-500:]}")
    return int(m.group(1).replace(",", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old-bin", type=Path, help="an older build's speed binary, to compare")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each (default 5)")
    parser.add_argument("--no-instructions", action="store_true", help="timings only (no valgrind)")
    args = parser.parse_args()
    count = not args.no_instructions
    if count and shutil.which("valgrind") is None:
        sys.exit("valgrind is needed for instruction counts (or pass --no-instructions)")

    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "-p", "mancala-engine", "--example", "speed"], cwd=ROOT, check=True
    )
    new = ROOT / "target" / "release" / "examples" / "speed"
    builds = {"new": new, **({"old": args.old_bin} if args.old_bin else {})}
    idle = {name: instructions(b, "playouts", "olowuka", 0) for name, b in builds.items()} if count else {}

    head = f"{'work':<10} {'game':<14} {'unit':<9}"
    for name in builds:
        head += f" {name + ' instr/unit':>16} {name + ' units/s':>14}"
    if args.old_bin:
        head += f" {'instr old/new':>14} {'speed new/old':>18}"
    print(head)
    for what, sizes in WORK.items():
        for game in GAMES:
            n = sizes[game]
            per_unit, rate, units = {}, {}, {}
            for name, binary in builds.items():
                units[name], _ = run(binary, what, game, n)
                if count:
                    per_unit[name] = (instructions(binary, what, game, n) - idle[name]) / units[name]
            # Timed runs, the builds in turn; alpha-beta's work is fixed.
            timed_n = n if what == "alphabeta" else n * TIMED
            times = {name: [] for name in builds}
            for _ in range(args.runs):
                for name, binary in builds.items():
                    done, secs = run(binary, what, game, timed_n)
                    times[name].append(done / secs)
            for name in builds:
                rate[name] = statistics.median(times[name])
            unit = {"playouts": "plies", "alphabeta": "nodes", "mcts": "playouts"}[what]
            line = f"{what:<10} {game:<14} {unit:<9}"
            for name in builds:
                instr = f"{per_unit[name]:,.0f}" if count else "-"
                line += f" {instr:>16} {rate[name]:>14,.0f}"
            if args.old_bin:
                ratio = f"{per_unit['old'] / per_unit['new']:.2f}" if count else "-"
                pairs = sorted(a / b for a, b in zip(times["new"], times["old"]))
                speed = f"{rate['new'] / rate['old']:.2f} ({pairs[0]:.2f}-{pairs[-1]:.2f})"
                line += f" {ratio:>14} {speed:>18}"
                if units["new"] != units["old"] and what != "mcts":
                    line += f"  (work differs: {units['new']} vs {units['old']} {unit})"
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

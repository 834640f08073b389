#!/usr/bin/env python3
"""How much faster `mancala-validate --jobs J` is than `--jobs 1`.

`mancala-play --games N` (random players, seeded) writes one corpus; the
validator then checks it with `--no-output -q --jobs 1` and `--no-output -q --jobs J` in
turn (1, J, 1, J, ...), so that a drift of the machine's speed touches both
alike. Prints each pair's wall-time ratio and its median (the speed-up:
issue 20 asks for 1.8 at least with two jobs on a quiet machine, 1 M
Olowuka games), the CPU seconds of each (what the workers' hand-overs
cost beside the work), and the peak resident memory of the run with J
jobs on the corpus and on one ten times smaller (memory must not grow with
the input).

    python3 crates/bench/benches/jobs.py [--games 1000000] [--jobs 2] [--runs 5] [--game olowuka]
                                         [--validate BIN] [--instructions]

A wall-time ratio needs J idle cores: the load average at the start and
the end is printed beside it. `--instructions` also counts the
instructions of both runs on a corpus a hundred times smaller, summed over
every thread (valgrind's callgrind): their ratio is what the threads add
to the work, whatever else the machine does. `--validate BIN` measures
another build of the validator (the corpus still comes from this one's
mancala-play).
"""

import argparse
import os
import re
import statistics
import subprocess
import tempfile

from validate import GAMES, build, measure


def instructions(cmd, corpus):
    """Instructions of every thread of cmd together (callgrind)."""
    with open(corpus, "rb") as stdin:
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                             stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    return int(re.search(rb"Collected : (\d+)", run.stderr).group(1))


def load():
    with open("/proc/loadavg") as loadavg:
        return " ".join(loadavg.read().split()[:3])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1_000_000, help="games in the corpus (default 1000000)")
    parser.add_argument("--jobs", type=int, default=2, help="jobs to compare with one (default 2)")
    parser.add_argument("--runs", type=int, default=5, help="pairs of timed runs (default 5)")
    parser.add_argument("--game", choices=GAMES, default="olowuka", help="the corpus's game (default olowuka)")
    parser.add_argument("--validate", help="the validator to measure (default: this build's)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions on a corpus 100 times smaller (needs valgrind)")
    args = parser.parse_args()
    bin_dir = build()
    play = os.path.join(bin_dir, "mancala-play")
    validate = args.validate or os.path.join(bin_dir, "mancala-validate")
    one = [validate, "--no-output", "--quiet", "--jobs", "1"]
    many = [validate, "--no-output", "--quiet", "--jobs", str(args.jobs)]
    with tempfile.TemporaryDirectory() as tmp:
        corpora = {}
        for count in (args.games, args.games // 10, args.games // 100):
            corpora[count] = os.path.join(tmp, f"{count}.mgn")
            with open(corpora[count], "wb") as out:
                subprocess.run([play, "--game", args.game, "--games", str(count), "--seed", "1", "--quiet"],
                               stdout=out, check=True)
        corpus = corpora[args.games]
        print(f"{args.games} {args.game} games, {os.path.getsize(corpus) / 1e6:.1f} MB; load average {load()}")
        walls, cpus, ratios = ([], []), ([], []), []
        for _ in range(max(args.runs, 1)):
            for i, cmd in enumerate((one, many)):
                wall, cpu, _, _ = measure(cmd, corpus)
                walls[i].append(wall)
                cpus[i].append(cpu)
            ratios.append(walls[0][-1] / walls[1][-1])
        print(f"load average after the runs: {load()}")
        print(f"| jobs | wall s (median) | CPU s (median) |\n|---:|---:|---:|")
        for i, jobs in enumerate((1, args.jobs)):
            print(f"| {jobs} | {statistics.median(walls[i]):.2f} | {statistics.median(cpus[i]):.2f} |")
        print(f"speed-up with {args.jobs} jobs (wall, pair by pair): median {statistics.median(ratios):.2f}, "
              f"min {min(ratios):.2f}, max {max(ratios):.2f}")
        print(f"CPU seconds, {args.jobs} jobs / 1: {statistics.median(cpus[1]) / statistics.median(cpus[0]):.3f}")
        peaks = [measure(many, corpora[count], sample_memory=True)[2] for count in (args.games, args.games // 10)]
        print(f"peak RSS with {args.jobs} jobs: {peaks[0] / 1024:.1f} MiB ({args.games} games), "
              f"{peaks[1] / 1024:.1f} MiB ({args.games // 10} games)")
        if args.instructions:
            small = corpora[args.games // 100]
            counts = [instructions(cmd, small) for cmd in (one, many)]
            print(f"instructions on {args.games // 100} games, every thread: {counts[0]:,} with 1 job, "
                  f"{counts[1]:,} with {args.jobs} ({counts[1] / counts[0] - 1:+.2%})")


if __name__ == "__main__":
    main()

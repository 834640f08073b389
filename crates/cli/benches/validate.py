#!/usr/bin/env python3
"""Throughput and peak memory of mancala-validate on generated corpora.

For each game, `mancala-play --games N` (random players, seeded) writes a
corpus; `mancala-validate --quiet --jobs 1` then checks it on one core.
Reports MB/s, games/s, plies/s and the validator's peak resident memory
(from wait4's rusage, so only that process is measured). Running a second,
ten times smaller corpus shows whether memory grows with the input.

    python3 crates/cli/benches/validate.py [--games 100000] [--jobs 1]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
GAMES = ["olowuka", "olinda-keliya", "pallankuzhi", "rio-kadalis"]


def build():
    subprocess.run(["cargo", "build", "--release", "--bins", "--quiet"], cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release")


def measure(cmd, stdin_path):
    """Runs cmd with stdin from a file; returns (seconds, peak RSS in KiB, stderr)."""
    with open(stdin_path, "rb") as stdin:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        stderr = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{' '.join(cmd)} exited {code}: {stderr.decode(errors='replace')}")
    return seconds, usage.ru_maxrss, stderr.decode()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000, help="games per corpus (default 100000)")
    parser.add_argument("--jobs", type=int, default=1, help="validator threads (default 1: per-core numbers)")
    parser.add_argument("--only", choices=GAMES, help="one game only")
    args = parser.parse_args()
    bin_dir = build()
    play = os.path.join(bin_dir, "mancala-play")
    validate = os.path.join(bin_dir, "mancala-validate")
    print(f"| game | games | MB | plies | seconds | MB/s | games/s | plies/s | peak RSS | peak RSS at 1/10 |")
    print(f"|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for game in [args.only] if args.only else GAMES:
            rows = {}
            for count in (args.games // 10, args.games):
                corpus = os.path.join(tmp, f"{game}-{count}.mgn")
                with open(corpus, "wb") as out:
                    subprocess.run([play, "--game", game, "--games", str(count), "--seed", "1", "--quiet"],
                                   stdout=out, check=True)
                seconds, rss, stderr = measure([validate, "--quiet", "--jobs", str(args.jobs)], corpus)
                # --quiet drops the summary; count plies with a JSON-free second pass.
                _, _, summary = measure([validate, "--jobs", str(args.jobs), "--format", "text"], corpus)
                plies = int(re.search(r"\((\d+) plies\)", summary).group(1))
                rows[count] = (os.path.getsize(corpus), plies, seconds, rss)
            size, plies, seconds, rss = rows[args.games]
            small_rss = rows[args.games // 10][3]
            print(f"| {game} | {args.games} | {size / 1e6:.1f} | {plies} | {seconds:.2f} | {size / 1e6 / seconds:.1f} "
                  f"| {args.games / seconds:,.0f} | {plies / seconds:,.0f} | {rss / 1024:.1f} MiB | {small_rss / 1024:.1f} MiB |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Throughput and peak memory of mancala-validate on generated corpora.

For each game, `mancala-play --games N` (random players, seeded) writes a
corpus; `mancala-validate --no-output --quiet --jobs 1` then checks it on one core.
Reports MB/s, games/s, plies/s (also with a JSON verdict written for every
game) and the validator's peak resident memory (its own VmHWM, sampled while
it runs). Times are the median of `--runs` runs. Running a second,
ten times smaller corpus shows whether memory grows with the input.

    python3 crates/bench/benches/validate.py [--games 100000] [--jobs 1] [--only GAME] [--runs 5] [--instructions] [--floor]

With `--instructions --floor`, the floor probe's instructions per ply on
the smaller Olowuka corpus are counted too, and their ratio to the
validator's printed (issue 20 asks for 1.3 at most).

`--floor` also runs the floor probe (`crates/bench`, package mancala-bench: the least
work per ply a validator of Olowuka records must do) on the Olowuka corpus,
in the same minutes, to tell the machine's speed from the validator's.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
GAMES = ["olowuka", "olinda-keliya", "pallankuzhi", "rio-kadalis"]


def build():
    subprocess.run(["cargo", "build", "--release", "--bins", "--quiet"], cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release")


def vm_hwm_kib(pid):
    """The process's peak resident memory so far (VmHWM), or None once it has exited."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def measure(cmd, stdin_path, sample_memory=False):
    """Runs cmd with stdin from a file; returns (wall seconds, CPU seconds,
    peak RSS in KiB, stderr).

    CPU seconds are the child's own user and system time (wait4), so other
    load on the machine barely moves them. Peak memory, when asked for, is
    the child's own VmHWM, read every millisecond while it runs (a separate
    run: the sampling slows it): wait4's ru_maxrss would not do, as a child
    forked from this Python process starts its count at Python's own size.
    """
    with open(stdin_path, "rb") as stdin:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        chunks = []
        reader = threading.Thread(target=lambda: chunks.append(proc.stderr.read()))
        reader.start()
        peak = 0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid != 0:
                break
            if not sample_memory:
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            peak = max(peak, vm_hwm_kib(proc.pid) or 0)
            time.sleep(0.001)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        reader.join()
    stderr = b"".join(chunks)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {proc.returncode}: {stderr.decode(errors='replace')}")
    return seconds, usage.ru_utime + usage.ru_stime, peak, stderr.decode()


def median_run(cmd, stdin_path, runs):
    """The median wall and CPU seconds of `runs` runs (by CPU seconds)."""
    timed = sorted((measure(cmd, stdin_path)[:2] for _ in range(max(runs, 1))), key=lambda t: t[1])
    return timed[len(timed) // 2]


def instructions(cmd, stdin_path):
    """Instructions cmd executes (valgrind's callgrind): the same count on
    every run of the same binary and input, whatever else the machine does."""
    with open(stdin_path, "rb") as stdin:
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
                             stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    return int(re.search(rb"Collected : (\d+)", run.stderr).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000, help="games per corpus (default 100000)")
    parser.add_argument("--jobs", type=int, default=1, help="validator threads (default 1: per-core numbers)")
    parser.add_argument("--only", choices=GAMES, help="one game only")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions per ply on the smaller corpus (needs valgrind)")
    parser.add_argument("--runs", type=int, default=5,
                        help="timed runs per measurement; the median is shown (default 5)")
    parser.add_argument("--floor", action="store_true",
                        help="also run the floor probe on the Olowuka corpus "
                             "(cargo bench -p mancala-bench --bench floor)")
    args = parser.parse_args()
    bin_dir = build()
    play = os.path.join(bin_dir, "mancala-play")
    validate = os.path.join(bin_dir, "mancala-validate")
    # Rates are per CPU second of the validator (per core with --jobs 1);
    # wall time is shown beside.
    header = ("| game | games | MB | plies | wall s | CPU s | MB/s | games/s | plies/s "
              "| plies/s, JSON verdicts | peak RSS | peak RSS at 1/10 |")
    if args.instructions:
        header += " instructions/ply |"
    print(header)
    print("|---" + "|---:" * (header.count("|") - 2) + "|")
    floor = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in [args.only] if args.only else GAMES:
            rows = {}
            for count in (args.games // 10, args.games):
                corpus = os.path.join(tmp, f"{game}-{count}.mgn")
                with open(corpus, "wb") as out:
                    subprocess.run([play, "--game", game, "--games", str(count), "--seed", "1", "--quiet"],
                                   stdout=out, check=True)
                quiet = [validate, "--no-output", "--quiet", "--jobs", str(args.jobs)]
                # The machine's speed drifts: the median of several runs.
                wall, cpu = median_run(quiet, corpus, args.runs)
                _, json_cpu = median_run([validate, "--format", "json", "--jobs", str(args.jobs)], corpus, args.runs)
                _, _, rss, _ = measure(quiet, corpus, sample_memory=True)
                # --no-output --quiet writes no records and no summary; a second pass counts the plies.
                _, _, _, summary = measure([validate, "--jobs", str(args.jobs), "--format", "text"], corpus)
                plies = int(re.search(r"\((\d+) plies\)", summary).group(1))
                per_ply = instructions(quiet, corpus) / plies if args.instructions and count < args.games else None
                rows[count] = (os.path.getsize(corpus), plies, wall, cpu, rss, per_ply, json_cpu)
            size, plies, wall, cpu, rss, _, json_cpu = rows[args.games]
            small = rows[args.games // 10]
            line = (f"| {game} | {args.games} | {size / 1e6:.1f} | {plies} | {wall:.2f} | {cpu:.2f} "
                    f"| {size / 1e6 / cpu:.1f} | {args.games / cpu:,.0f} | {plies / cpu:,.0f} "
                    f"| {plies / json_cpu:,.0f} | {rss / 1024:.1f} MiB | {small[4] / 1024:.1f} MiB |")
            if args.instructions:
                line += f" {small[5]:,.0f} |"
            print(line)
            if args.floor and args.instructions and game == "olowuka":
                # The floor probe's instructions per ply on the smaller
                # corpus, beside the validator's: the ratio issue 20 bounds.
                small_corpus = os.path.join(tmp, f"{game}-{args.games // 10}.mgn")
                built = subprocess.run(["cargo", "bench", "--quiet", "--no-run", "--message-format", "json",
                                        "-p", "mancala-bench", "--bench", "floor"],
                                       cwd=ROOT, check=True, capture_output=True, text=True)
                # The probe by name: cargo also lists the package's other
                # executables (the `judge` binary), in no promised order.
                probe = next(m["executable"] for m in map(json.loads, built.stdout.splitlines())
                             if m.get("reason") == "compiler-artifact" and m.get("executable")
                             and m["target"]["name"] == "floor" and "bench" in m["target"]["kind"])
                with open(os.devnull) as nothing:
                    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                                          probe, small_corpus, "1"],
                                         stdin=nothing, capture_output=True, check=True)
                probe_plies = int(re.search(rb"(\d+) plies", run.stdout).group(1))
                probe_per_ply = int(re.search(rb"Collected : (\d+)", run.stderr).group(1)) / probe_plies
                floor.append(f"instructions per ply (1/10 corpus): validator {small[5]:,.0f}, "
                             f"floor probe {probe_per_ply:,.0f}, ratio {small[5] / probe_per_ply:.2f}")
            if args.floor and game == "olowuka":
                corpus = os.path.join(tmp, f"{game}-{args.games}.mgn")
                probe = subprocess.run(["cargo", "bench", "--quiet", "-p", "mancala-bench", "--bench", "floor",
                                        "--", corpus, str(args.runs)],
                                       cwd=ROOT, check=True, capture_output=True, text=True)
                floor.append(probe.stdout.strip())
    for line in floor:
        print(f"\nFloor probe on the Olowuka corpus: {line}")


if __name__ == "__main__":
    main()

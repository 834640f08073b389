#!/usr/bin/env python3
"""Peak memory of `mancala-render --laps` on a long move, by --max-laps.

The move is Olinda Keliya (seeds=7) North's d:ccw from the set-up below: it
is endless, with its first repeat after 493,073 laps, so every lap up to
--max-laps is drawn. Lap frames are written as the move is sown, so the
peak resident memory should stay flat however many are drawn; before
(issue 15) it grew with --max-laps (about 600 MB at 1,000,000).

    python3 crates/bench/benches/render_laps.py [--max-laps 1000 100000 1000000]

Prints, for text and JSON output, the wall time, bytes written and the
render's own peak resident memory (its VmHWM, read as its output comes:
wait4's ru_maxrss would count the forking Python too).
"""

import argparse
import os
import subprocess
import time

from validate import ROOT, build, vm_hwm_kib

MOVE = [
    "--game", "olinda-keliya", "-o", "seeds=7",
    "--setup", "N 2,1,6,3,0,3,2/3,6,1,6,0,1,0 18-46",
    "--moves", "d:ccw", "--laps", "1",
]


def measure(cmd):
    """Runs cmd, its stdout counted and dropped; returns (seconds, bytes, peak RSS KiB)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    written = 0
    peak = 0
    while chunk := proc.stdout.read(1 << 16):
        written += len(chunk)
        peak = max(peak, vm_hwm_kib(proc.pid) or 0)
    # The move is illegal (endless), so the record is invalid: exit 1.
    assert proc.wait() == 1, proc.returncode
    return time.monotonic() - start, written, peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-laps", type=int, nargs="+", default=[1000, 100_000, 1_000_000])
    args = parser.parse_args()
    render = os.path.join(build(), "mancala-render")
    print(f"{'format':6} {'max-laps':>10} {'seconds':>8} {'MB written':>11} {'peak RSS KiB':>13}")
    for fmt in ["text", "json"]:
        for max_laps in args.max_laps:
            cmd = [render, *MOVE, "--format", fmt, "--max-laps", str(max_laps)]
            seconds, written, rss = measure(cmd)
            print(f"{fmt:6} {max_laps:>10,} {seconds:>8.2f} {written / 1e6:>11.1f} {rss:>13,}")


if __name__ == "__main__":
    main()

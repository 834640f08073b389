#!/usr/bin/env python3
"""Scaling: does any kind of content in a game cost more than linear time?

For each kind of content a game can hold in bulk (comments, line breaks in a
comment, tags, moves, round markers, annotations, NAGs, variations, remarks
after the result, and the errors that annotations can raise), builds one game holding N of it,
then 2N, then 4N (the largest stays under the readers' 4 MiB game limit),
and times each tool on it: mancala-validate (--no-output, canonical text, JSON),
mancala-render and mancala-play (continuing the record by 0 plies). Linear
work doubles with the content; quadratic work quadruples. Prints the CPU
seconds (the child's own, median of --runs) and the ratio of each doubling,
and exits 1 when a ratio passes --limit.

    python3 crates/bench/benches/scaling.py [--runs 3] [--limit 3.0] [--only KIND] [--base N] [--ply-limit 2.2]

Per ply (`--only plies`): the tools that do work for every ply, whatever
the record holds, are timed on valid records of 10,000, 40,000 and 160,000
plies (mancala-play's relay loop below: 0.05, 0.2 and 0.9 MB, well under
the limit): mancala-render --plies .. (text and JSON frames) and
mancala-analyze -d 1. Each step is 4x the plies, so the ratio shown is the
step's square root, the growth per doubling, held to --ply-limit (2.2).

Then the HTML page (`--only html` for it alone): `mancala-render --format
html` on played games of 10k, 40k and 160k plies, its CPU time per doubling
(at most 2.2x) and its peak RSS against the page's size (html_page_scaling).

Round markers: a match of rounds holds a few hundred at most, so their
games are not valid past the first marker. The readers and the parser
still read every one (a record's syntax is checked in full before its
moves are replayed), which is where their cost lies.
"""

import argparse
import functools
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
MAX_GAME_BYTES = 4 << 20


def build():
    subprocess.run(["cargo", "build", "--release", "--bins", "--quiet"], cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release")


def game(body, tags="", game="olowuka", options=""):
    head = f'[Game "{game}"]\n'
    if options:
        head += f'[Options "{options}"]\n'
    return head + tags + "\n" + body + "\n"


def played_game(bin_dir, plies):
    """A valid Olinda Keliya game of `plies` plies, as mancala-play writes
    it: random players under no-repetition-rule fall into a relay loop
    (A, g, A, g, …) that never ends, so any length can be had."""
    cmd = [os.path.join(bin_dir, "mancala-play"), "--game", "olinda-keliya", "-o", "no-repetition-rule"]
    cmd += ["--max-plies", str(plies), "--quiet"]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


MOVE = re.compile(r"(?<![.\w])([A-Ga-g](?::c?cw)?)(\+\d+)?(?=\s)")


def annotated(text, wrong):
    """Every move annotated: with what it gains (`+0` where the record has
    none), or with a count no move gains (an error each)."""
    head, _, movetext = text.partition("\n\n")
    fix = (lambda m: m.group(1) + "+1000") if wrong else (lambda m: m.group(0) if m.group(2) else m.group(1) + "+0")
    return head + "\n\n" + MOVE.sub(fix, movetext)


def after_moves(text, extra):
    """`extra(move)` written after every move of the movetext."""
    head, _, movetext = text.partition("\n\n")
    return head + "\n\n" + MOVE.sub(lambda m: m.group(0) + extra(m.group(1)), movetext)


def one_line(text):
    head, _, movetext = text.partition("\n\n")
    return head + "\n\n" + " ".join(movetext.split()) + "\n"


# Set by main once the tools are built.
played = None

# Each kind: (base count, a function from a count to a game's text). The
# base counts keep 4N under the size limit and the smallest run long enough
# to time.
KINDS = {
    "comments": (40_000, lambda n: game("{c} " * n + "*")),
    "LF line breaks": (200_000, lambda n: game("{" + "\n" * n + "} *")),
    "CR line breaks": (200_000, lambda n: game("{" + "\r" * n + "} *")),
    "CRLF line breaks": (200_000, lambda n: game("{" + "\r\n" * n + "} *")),
    "tags": (40_000, lambda n: game("*", "".join(f'[T{i} "v"]\n' for i in range(n)))),
    "moves": (80_000, lambda n: played(n)),
    "annotations (right)": (80_000, lambda n: annotated(played(n), wrong=False)),
    "annotations (wrong: an error each)": (40_000, lambda n: annotated(played(n), wrong=True)),
    "wrong annotations on one line": (40_000, lambda n: one_line(annotated(played(n), wrong=True))),
    "NAGs (! $14 after every move)": (80_000, lambda n: after_moves(played(n), lambda mv: "! $14")),
    "variations (one after every move)": (40_000, lambda n: after_moves(played(n), lambda mv: f" ( {mv} )")),
    "variations (two deep after every move)": (
        20_000,
        lambda n: after_moves(played(n), lambda mv: f" ( {mv} ( {mv} ) )"),
    ),
    "round markers": (40_000, lambda n: game(" ".join(f"R{i + 2}" for i in range(n)) + " *", game="pallankuzhi")),
    "remarks": (40_000, lambda n: game("* " + "{r} " * n)),
}

TOOLS = {
    "validate --no-output": ["mancala-validate", "--no-output", "--quiet", "--jobs", "1"],
    "validate": ["mancala-validate", "--jobs", "1"],
    "validate --format json": ["mancala-validate", "--format", "json", "--jobs", "1"],
    "render": ["mancala-render"],
    "play --plies 0": ["mancala-play", "--plies", "0", "--quiet"],
}


def cpu_seconds(cmd, path):
    with open(path, "rb") as stdin:
        proc = subprocess.Popen(cmd + [path], stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"{' '.join(cmd)} {path} exited {code}")
    return usage.ru_utime + usage.ru_stime


# The per-ply case: its name (for --only), and records of these many
# plies, each 4x the last.
PLY_KIND = "plies (valid relay loop)"
PLY_COUNTS = (10_000, 40_000, 160_000)

PER_PLY_TOOLS = {
    "render --plies ..": ["mancala-render", "--plies", ".."],
    "render --plies .. --format json": ["mancala-render", "--plies", "..", "--format", "json"],
    "analyze -d 1": ["mancala-analyze", "-d", "1"],
}


def write_records(tmp, name, texts):
    """Each text as a file of `tmp`, checked against the game size limit;
    their paths."""
    paths = []
    for i, text in enumerate(texts):
        if len(text.encode()) > MAX_GAME_BYTES:
            sys.exit(f"{name} record {i + 1}: over the game size limit")
        path = os.path.join(tmp, f"{name}-{i}.mgn")
        with open(path, "w", newline="") as f:
            f.write(text)
        paths.append(path)
    return paths


def per_ply(bin_dir, tmp, args):
    """The per-ply case: each tool of PER_PLY_TOOLS on records of
    PLY_COUNTS plies. Prints the CPU seconds (the least of --runs) and the
    growth per doubling of each step; returns the tools over --ply-limit."""
    paths = write_records(tmp, "plies", [played(n) for n in PLY_COUNTS])
    heads = [f"{n // 1000}k s" for n in PLY_COUNTS]
    print(f"\n{'per ply':40} {'tool':32} {heads[0]:>8} {heads[1]:>8} {heads[2]:>8} {'x2 a':>6} {'x2 b':>6}")
    worst = []
    for tool, cmd in PER_PLY_TOOLS.items():
        cmd = [os.path.join(bin_dir, cmd[0])] + cmd[1:]
        # The least of the runs: other work on the machine only adds to a
        # run's CPU time, and the 10k record's runs are short enough
        # (tens of ms) for that to tip a median's ratio.
        times = [min(cpu_seconds(cmd, p) for _ in range(args.runs)) for p in paths]
        floor = [max(t, 0.005) for t in times]
        # Each step is two doublings: the growth of one is the root.
        ratios = [(floor[i + 1] / floor[i]) ** 0.5 for i in range(len(floor) - 1)]
        print(
            f"{PLY_KIND:40} {tool:32} {times[0]:8.3f} {times[1]:8.3f} {times[2]:8.3f} {ratios[0]:6.2f} {ratios[1]:6.2f}",
            flush=True,
        )
        if max(ratios) > args.ply_limit:
            worst.append(f"{PLY_KIND} / {tool}: {ratios[0]:.2f}, {ratios[1]:.2f} per doubling")
    return worst


HTML_PLIES = (10_000, 40_000, 160_000)
HTML_LIMIT = 2.2


def html_page_scaling(bin_dir, tmp, runs, scale=1.0):
    """`mancala-render --format html` on played games of 10k, 40k and 160k
    plies: CPU seconds and peak RSS (the child's ru_maxrss) against the
    page's size. Time must grow at most HTML_LIMIT per doubling (4x the
    plies: HTML_LIMIT squared), and memory with the page, not a multiple
    of it: peak RSS at most 1.5x the page plus 32 MiB. Returns the
    failures, as lines."""
    render = os.path.join(bin_dir, "mancala-render")
    rows = []
    for plies in (int(n * scale) for n in HTML_PLIES):
        text = played(plies)
        if len(text.encode()) > MAX_GAME_BYTES:
            break
        path = os.path.join(tmp, f"html-{plies}.mgn")
        with open(path, "w") as f:
            f.write(text)
        page = os.path.join(tmp, f"html-{plies}.html")
        samples = []
        for _ in range(runs):
            with open(page, "wb") as out:
                proc = subprocess.Popen([render, "--format", "html", path], stdout=out, stderr=subprocess.DEVNULL)
                _, status, usage = os.wait4(proc.pid, 0)
            if os.waitstatus_to_exitcode(status) != 0:
                sys.exit(f"mancala-render --format html {path} failed")
            samples.append((usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024))
        seconds = statistics.median(t for t, _ in samples)
        rss = max(m for _, m in samples)
        rows.append((plies, seconds, rss, os.path.getsize(page)))
    failures = []
    print(f"\n{'html page: plies':24} {'CPU s':>8} {'peak RSS MB':>12} {'page MB':>8} {'RSS/page':>9} {'per doubling':>13}")
    for i, (plies, seconds, rss, size) in enumerate(rows):
        per_doubling = ""
        if i > 0:
            before, ratio_plies = rows[i - 1], plies / rows[i - 1][0]
            # The ratio per doubling of the plies: 4x the plies is two.
            ratio = (max(seconds, 0.005) / max(before[1], 0.005)) ** (1 / math.log2(ratio_plies))
            per_doubling = f"{ratio:.2f}x"
            if ratio > HTML_LIMIT:
                failures.append(f"html page {before[0]} -> {plies} plies: {ratio:.2f}x CPU per doubling")
        print(f"{plies:24} {seconds:8.3f} {rss / 2**20:12.1f} {size / 2**20:8.1f} {rss / size:9.2f} {per_doubling:>13}", flush=True)
        if rss > 1.5 * size + (32 << 20):
            failures.append(f"html page {plies} plies: peak RSS {rss >> 20} MB for a {size >> 20} MB page")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=float, default=3.0, help="largest ratio per doubling accepted")
    parser.add_argument("--only", help="a kind whose name contains this")
    parser.add_argument("--base", type=float, default=1.0, help="scale the base counts")
    parser.add_argument(
        "--ply-limit", type=float, default=2.2, help="largest growth per doubling of the plies accepted"
    )
    args = parser.parse_args()
    bin_dir = build()
    global played
    played = functools.cache(lambda n: played_game(bin_dir, n))
    worst = []
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'content':40} {'tool':24} {'N s':>8} {'2N s':>8} {'4N s':>8} {'2N/N':>6} {'4N/2N':>6}")
        for kind, (base, make) in KINDS.items():
            if args.only and args.only not in kind:
                continue
            base = int(base * args.base)
            paths = []
            for factor in (1, 2, 4):
                text = make(base * factor)
                if len(text.encode()) > MAX_GAME_BYTES:
                    sys.exit(f"{kind} at {base * factor}: over the game size limit")
                path = os.path.join(tmp, f"{len(paths)}.mgn")
                with open(path, "w", newline="") as f:
                    f.write(text)
                paths.append(path)
            for tool, cmd in TOOLS.items():
                cmd = [os.path.join(bin_dir, cmd[0])] + cmd[1:]
                times = [statistics.median(cpu_seconds(cmd, p) for _ in range(args.runs)) for p in paths]
                # Below a few milliseconds the ratio is noise: count from 5 ms.
                floor = [max(t, 0.005) for t in times]
                ratios = [floor[1] / floor[0], floor[2] / floor[1]]
                print(
                    f"{kind:40} {tool:24} {times[0]:8.3f} {times[1]:8.3f} {times[2]:8.3f} {ratios[0]:6.2f} {ratios[1]:6.2f}",
                    flush=True,
                )
                if max(ratios) > args.limit:
                    worst.append(f"{kind} / {tool}: {ratios[0]:.2f}, {ratios[1]:.2f}")
        plies_timed = not args.only or args.only in PLY_KIND
        if plies_timed:
            worst += per_ply(bin_dir, tmp, args)
        if not args.only or args.only in "html page":
            worst += html_page_scaling(bin_dir, tmp, args.runs, args.base)
    if worst:
        print("\nmore than linear (ratio over %.1f, per ply %.1f; the html page: %.1f per doubling, RSS 1.5x the page):\n  " % (args.limit, args.ply_limit, HTML_LIMIT) + "\n  ".join(worst))
        return 1
    print(f"\nevery kind within {args.limit:.1f}x per doubling")
    if plies_timed:
        print(f"every per-ply tool within {args.ply_limit:.1f}x per doubling of the plies")
    return 0


if __name__ == "__main__":
    sys.exit(main())

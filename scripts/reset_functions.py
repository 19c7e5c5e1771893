#!/usr/bin/env python3
"""Reset functions on a set of circuits: gives each circuit reset functions
by a fixed random transform, then runs `invar check` (auto) on it and ABC's
`read F; fold; pdr` on the encoding `invar convert --no-reset-functions`
writes (every latch reset to a constant: Debian's ABC reads neither reset
functions nor uninitialised latches), and prints both verdicts, the solved
counts, the disagreements and every witness's replay.

usage: scripts/reset_functions.py SET_DIR OUT_DIR [--timeout S] [--jobs N]
                                  [--fraction F] [--seed N]

The transform: a fraction F (default 0.1; at least 1, at most 64) of the
latches that reset to a constant, chosen at random, reset instead to an input,
to an earlier latch, or to the AND of two of those (a new gate), each literal
negated at random; a latch reads only earlier latches, so the resets are
stratified. Witnesses are checked by aigsim (AIGSIM names aigsim 1.9.26,
else tests/tools/aigsim.py), proofs by `invar certify`.
"""
import argparse
import concurrent.futures as cf
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def with_resets(text, rng, fraction):
    """The ASCII AIGER `text` with reset functions on some latches."""
    lines = text.split("\n")
    header = lines[0].split()
    counts = [int(x) for x in header[1:]] + [0] * (9 - len(header[1:]))
    m, i, l, o, a, b, c, j, f = counts[:9]
    inputs = [int(lines[1 + k]) for k in range(i)]
    latch_lines = [lines[1 + i + k].split() for k in range(l)]
    candidates = [k for k, p in enumerate(latch_lines) if len(p) == 2 or p[2] in ("0", "1")]
    chosen = sorted(rng.sample(candidates, max(1, min(64, int(fraction * len(candidates)))))) \
        if candidates else []
    # Where the gate section ends (new gates go there).
    at = 1 + i + l + o + b + c
    sizes = [int(lines[at + k]) for k in range(j)]
    at += j + sum(sizes) + f + a
    new_gates = []
    for k in chosen:
        own = int(latch_lines[k][0])
        leaves = inputs + [int(p[0]) for p in latch_lines[:k]]
        if not leaves:
            continue

        def leaf():
            return rng.choice(leaves) ^ rng.randint(0, 1)

        kind = rng.randrange(3)
        if kind == 2:
            m += 1
            x, y = leaf(), leaf()
            new_gates.append("%d %d %d" % (2 * m, x, y))
            reset = 2 * m ^ rng.randint(0, 1)
        else:
            reset = leaf()
        if reset >> 1 == own >> 1:
            continue
        latch_lines[k] = latch_lines[k][:2] + [str(reset)]
    a += len(new_gates)
    head = ["aag %d %d %d %d %d %d %d %d %d" % (m, i, l, o, a, b, c, j, f)]
    body = lines[1:1 + i] + [" ".join(p) for p in latch_lines] + lines[1 + i + l:at]
    return "\n".join(head + body + new_gates + lines[at:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set")
    ap.add_argument("out")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--fraction", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    binary = os.environ.get("INVAR") or os.path.join(bench.ROOT, "target", "release", "invar")
    os.makedirs(os.path.join(args.out, "plain"), exist_ok=True)
    names = sorted(n for n in os.listdir(args.set) if n.endswith((".aig", ".aag")))
    jobs = []
    for n in names:
        stem = n.rsplit(".", 1)[0]
        ascii_path = os.path.join(args.out, stem + ".orig.aag")
        subprocess.run([binary, "convert", os.path.join(args.set, n), ascii_path], check=True)
        rng = random.Random("%d %s" % (args.seed, stem))
        model = os.path.join(args.out, stem + ".aag")
        with open(ascii_path) as src, open(model, "w") as dst:
            dst.write(with_resets(src.read(), rng, args.fraction))
        os.unlink(ascii_path)
        plain = os.path.join(args.out, "plain", stem + ".aig")
        subprocess.run([binary, "convert", model, plain, "--no-reset-functions"], check=True)
        jobs.append((stem, model, plain))

    def run(job):
        stem, model, plain = job
        mine = bench.run_invar(model, args.timeout, [], True, True)
        abc = bench.run_abc(plain, args.timeout)
        return stem, mine, abc

    with cf.ThreadPoolExecutor(max(1, args.jobs // 2)) as pool:
        results = list(pool.map(run, jobs))
    solved = {"invar": 0, "abc": 0}
    disagree, bad_notes = [], []
    print("%-55s %-8s %7s  %-8s %7s  %s" % ("circuit", "invar", "time", "abc", "time", "note"))
    for stem, (v, t, note), (av, at, _) in results:
        print("%-55s %-8s %7.2f  %-8s %7.2f  %s" % (stem, v, t, av, at, note))
        solved["invar"] += v in ("safe", "unsafe")
        solved["abc"] += av in ("safe", "unsafe")
        if {v, av} == {"safe", "unsafe"}:
            disagree.append(stem)
        if "FAILED" in note or v == "error":
            bad_notes.append(stem)
    print("solved: invar %d, abc %d of %d; disagreements: %d %s; failed checks: %d %s" % (
        solved["invar"], solved["abc"], len(results), len(disagree), disagree,
        len(bad_notes), bad_notes))
    return 1 if disagree or bad_notes else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""SMT speed: invar's own solver against z3 on the queries the word-level
engine asks.

usage: scripts/smt-speed.py SET... [--engine-timeout S] [--query-timeout S]
                            [--keep DIR] [--sample N]
       scripts/smt-speed.py --queries DIR [--query-timeout S] [--sample N]

Each SET is a directory of models (VMT, BTOR2, C). Step 1 runs
`invar check --engine smt` on every model with INVAR_DUMP_SMT set, which
writes every check the engine makes as a standalone SMT-LIB script. Step 2
answers each script with `invar smt` and with `z3`, one process per query,
and prints per theory (from the script's logic): queries, total seconds of
each solver, the same less each solver's start-up time (measured on an
empty script), unknowns and disagreements. A disagreement is a bug in one
of the two and makes the exit code 1. `--queries DIR` skips step 1 and
answers the scripts already in DIR; `--sample N` answers N of them, evenly
spaced in name order. Each answer is logged on stderr as it comes.
"""
import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL_EXTENSIONS = (".vmt", ".btor2", ".btor", ".c", ".i")


def invar_binary():
    return os.environ.get("INVAR") or os.path.join(ROOT, "target", "release", "invar")


def timed(cmd, timeout):
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        out = p.stdout.strip().splitlines()
        answer = out[-1] if out else "error"
    except subprocess.TimeoutExpired:
        answer = "timeout"
    return answer, time.monotonic() - start


def logic_of(path):
    """The theory of a dumped query, from the sorts it declares."""
    with open(path) as f:
        text = f.read()
    ints, reals = " Int)" in text, " Real)" in text
    bv = "(_ BitVec" in text or "(Array" in text
    if ints and reals:
        return "LIRA"
    if ints:
        return "BV+LIA" if bv else "LIA"
    if reals:
        return "BV+LRA" if bv else "LRA"
    return "BV"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="*")
    ap.add_argument("--queries", help="answer the scripts in this directory (no step 1)")
    ap.add_argument("--sample", type=int, help="answer this many queries, evenly spaced")
    ap.add_argument("--engine-timeout", type=float, default=10)
    ap.add_argument("--query-timeout", type=float, default=10)
    ap.add_argument("--keep", help="directory for the dumped queries")
    args = ap.parse_args()
    dump = args.queries or args.keep or tempfile.mkdtemp(prefix="invar-smt-queries-")
    invar = invar_binary()
    for s in [] if args.queries else args.sets:
        for name in sorted(os.listdir(s)):
            if not name.endswith(MODEL_EXTENSIONS):
                continue
            env = dict(os.environ, INVAR_DUMP_SMT=dump)
            cmd = [invar, "check", "--engine", "smt", "--timeout", str(args.engine_timeout)]
            if name.endswith((".c", ".i")):
                cmd.append("--int")
            subprocess.run(cmd + [os.path.join(s, name)], env=env, capture_output=True)
    queries = sorted(os.path.join(dump, q) for q in os.listdir(dump) if q.endswith(".smt2"))
    if args.sample and args.sample < len(queries):
        step = len(queries) / args.sample
        queries = [queries[int(i * step)] for i in range(args.sample)]
    print(f"{len(queries)} queries in {dump}", file=sys.stderr)
    empty = os.path.join(dump, "empty.smt2.txt")
    with open(empty, "w") as f:
        f.write("(check-sat)\n")
    solvers = {"invar": [invar, "smt"], "z3": ["z3"]}
    startup = {}
    for name, cmd in solvers.items():
        startup[name] = min(timed(cmd + [empty], 10)[1] for _ in range(5))
    table = collections.defaultdict(lambda: collections.Counter())
    disagreements = []
    for q in queries:
        theory = logic_of(q)
        row = table[theory]
        row["queries"] += 1
        answers, times = {}, {}
        for name, cmd in solvers.items():
            answer, seconds = timed(cmd + [q], args.query_timeout)
            answers[name] = answer
            times[name] = round(seconds, 3)
            row[name] += seconds
            row[name + "_net"] += max(0.0, seconds - startup[name])
            if answer not in ("sat", "unsat"):
                row[name + "_unknown"] += 1
        print(f"{os.path.basename(q)} {theory} {answers} {times}", file=sys.stderr, flush=True)
        decided = {a for a in answers.values() if a in ("sat", "unsat")}
        if len(decided) > 1:
            disagreements.append((q, answers))
    print(f"start-up: invar {startup['invar']*1000:.1f} ms, z3 {startup['z3']*1000:.1f} ms")
    print("| theory | queries | invar (s) | z3 (s) | invar net (s) | z3 net (s) | invar unknown | z3 unknown |")
    print("|---|---|---|---|---|---|---|---|")
    for theory in sorted(table):
        r = table[theory]
        print(
            f"| {theory} | {r['queries']} | {r['invar']:.2f} | {r['z3']:.2f} | "
            f"{r['invar_net']:.2f} | {r['z3_net']:.2f} | {r['invar_unknown']} | {r['z3_unknown']} |"
        )
    for q, answers in disagreements:
        print(f"DISAGREEMENT {q}: {answers}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())

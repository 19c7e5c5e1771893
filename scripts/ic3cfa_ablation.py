#!/usr/bin/env python3
"""IC3CFA's ablation: each improvement switched off in turn, on one set of
C programs, in one run.

usage: scripts/ic3cfa_ablation.py DIR [--timeout S] [--jobs N]

For every configuration it runs `invar check F --engine ic3cfa --json` on
each `.c`/`.i` file of DIR (INVAR names the binary, default
target/release/invar) and prints: programs decided (and how many of those
disagree with DIR/SOURCES.tsv's expected verdict), total time (an undecided
program counts its time limit), SMT checks, and the queries a predecessor
cube decided without the solver, and the decided programs by name
(per configuration, those not decided by the first). The switches are `--tune ic3cfa.*`
(`invar check FILE --tune help`), not a documented interface.
"""

import argparse
import concurrent.futures
import csv
import json
import os
import subprocess
import sys

CONFIGS = [
    ("all improvements", []),
    ("no split", ["ic3cfa.split=false"]),
    ("no predecessor cubes", ["ic3cfa.predecessor_cubes=false"]),
    ("no literal dropping", ["ic3cfa.drop_literals=false"]),
    ("no low bits", ["ic3cfa.low_bits=false"]),
    ("no affine equalities", ["ic3cfa.affine=false"]),
    ("no Houdini seeds", ["ic3cfa.seeds=false"]),
]


def expected(directory):
    table = {}
    path = os.path.join(directory, "SOURCES.tsv")
    if os.path.exists(path):
        with open(path) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                table[row["file"]] = row.get("expected_unreach_call", "")
    return table


def run(binary, path, timeout, tune):
    cmd = [binary, "check", path, "--engine", "ic3cfa", "--json", "--timeout", str(timeout)]
    for setting in tune:
        cmd += ["--tune", setting]
    try:
        out = subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout + 30
        )
        data = json.loads(out.stdout) if out.stdout.strip().startswith("{") else {}
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        data = {}
    return data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    binary = os.environ.get("INVAR", "target/release/invar")
    files = sorted(
        f for f in os.listdir(args.dir) if f.endswith(".c") or f.endswith(".i")
    )
    truth = expected(args.dir)
    print(f"{'configuration':<24} {'decided':>8} {'wrong':>6} {'time (s)':>9} {'SMT checks':>11} {'by pred. cube':>14}")
    for name, tune in CONFIGS:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(
                pool.map(
                    lambda f: (f, run(binary, os.path.join(args.dir, f), args.timeout, tune)),
                    files,
                )
            )
        decided = wrong = checks = syntactic = 0
        total = 0.0
        solved = set()
        for f, data in results:
            verdict = data.get("sv_comp")
            checks += int(data.get("solver_calls", 0))
            syntactic += int(data.get("ic3cfa_syntactic", 0))
            if verdict in ("true", "false"):
                decided += 1
                solved.add(f)
                total += float(data.get("time", 0))
                if truth.get(f) in ("true", "false") and truth[f] != verdict:
                    wrong += 1
                    print(f"  WRONG: {f}: {verdict}, expected {truth[f]}", file=sys.stderr)
            else:
                total += args.timeout
        print(f"{name:<24} {decided:>8} {wrong:>6} {total:>9.1f} {checks:>11} {syntactic:>14}")
        if name == CONFIGS[0][0]:
            first = solved
        else:
            gained, lost = sorted(solved - first), sorted(first - solved)
            print(f"{'':<24} gained: {' '.join(gained) or '-'}; lost: {' '.join(lost) or '-'}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

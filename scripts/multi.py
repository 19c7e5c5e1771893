#!/usr/bin/env python3
"""Multi-property runner: decides every property of each circuit of a set in
one run per circuit and counts the properties decided.

usage: scripts/multi.py SET [--timeout S] [--jobs N] [--tool invar|abc]
                        [--every K] [--certify] [-- extra invar args]

SET is a directory of AIGER files with a SOURCES.tsv or MANIFEST.tsv whose
`bad_properties` column gives each file's count (../shared/bench/multi).
invar runs `invar check F --property all --timeout S` (INVAR names the
binary; default target/release/invar): each answer block of its HWMCC output
is counted, and every counterexample block is replayed by aigsim 1.9.26
(AIGSIM names its binary) or by tests/tools/aigsim.py; invar checks every
proof itself before it answers (an invariant, by code apart from the
engines); with `--certify`, invar writes a certificate for each proved
property (`--certificate DIR`) and `invar certify` checks each file against
the properties it covers (a proved property without one is counted
uncertified). `--tool abc` runs ABC's `read F; fold; pdr -a -T S` and counts
its "Proved" and "Disproved" (ABC reads an uninitialised latch as 0).
`--every K` takes every K-th file of the set. The summary gives the
properties decided (proved, disproved) and the circuits fully decided.
"""
import argparse
import concurrent.futures as cf
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(directory):
    for name in ("MANIFEST.tsv", "SOURCES.tsv"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            with open(path) as f:
                rows = list(csv.DictReader(f, delimiter="\t"))
            return [(os.path.join(directory, r["file"]), int(r["bad_properties"])) for r in rows]
    sys.exit(f"{directory}: no MANIFEST.tsv or SOURCES.tsv")


def blocks(out):
    """The HWMCC answer blocks of `out`: (status, property, lines)."""
    lines = out.splitlines()
    k = 0
    while k < len(lines):
        status = lines[k].strip()
        if status not in ("0", "1", "2") or k + 1 >= len(lines):
            k += 1
            continue
        prop = lines[k + 1].strip()
        end = k + 2
        while end < len(lines) and lines[end].strip() != ".":
            end += 1
        yield status, prop, lines[k:end + 1]
        k = end + 1


def replay(path, block):
    with tempfile.NamedTemporaryFile("w", suffix=".wit", delete=False) as w:
        w.write("\n".join(block) + "\n")
    if os.environ.get("AIGSIM"):
        cmd = [os.environ["AIGSIM"], "-c", path, w.name]
    else:
        cmd = [sys.executable, os.path.join(ROOT, "tests", "tools", "aigsim.py"), path, w.name]
    r = subprocess.run(cmd, capture_output=True, text=True)
    os.unlink(w.name)
    return r.returncode == 0


def run_invar(path, count, args):
    binary = os.environ.get("INVAR", os.path.join(ROOT, "target", "release", "invar"))
    cmd = [binary, "check", path, "--property", "all", "--timeout", str(args.timeout)]
    if args.jobs_per_run:
        cmd += ["--jobs", str(args.jobs_per_run)]
    cert_dir = tempfile.mkdtemp(prefix="invar-multi-") if args.certify else None
    if cert_dir:
        cmd += ["--certificate", cert_dir]
    cmd += args.extra
    start = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout + 60)
        out, code = r.stdout, r.returncode
    except subprocess.TimeoutExpired as e:
        out, code = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), -1
    elapsed = time.time() - start
    proved = disproved = failed = uncertified = 0
    seen = set()
    proofs = {}  # certificate file (by inode) -> the properties it covers
    for status, prop, block in blocks(out):
        if prop in seen:
            failed += 1  # an answer given twice is an error of the output
        seen.add(prop)
        if status == "0":
            proved += 1
            if cert_dir:
                f = os.path.join(cert_dir, prop + ".aig")
                if os.path.exists(f):
                    proofs.setdefault(os.stat(f).st_ino, (f, []))[1].append(prop[1:])
                else:
                    uncertified += 1
        elif status == "1":
            if replay(path, block):
                disproved += 1
            else:
                failed += 1
    for f, props in proofs.values():
        r = subprocess.run([binary, "certify", path, f, "--property", ",".join(props)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            failed += len(props)
    if cert_dir:
        shutil.rmtree(cert_dir, ignore_errors=True)
    note = "" if code in (0, 10, 20) else f"exit {code}"
    if uncertified:
        note += f" {uncertified} proved without a certificate"
    return proved, disproved, failed, elapsed, note


def run_abc(path, count, args):
    script = f"read {path}; fold; pdr -a -T {int(args.timeout)}"
    start = time.time()
    try:
        r = subprocess.run(["berkeley-abc", "-c", script], capture_output=True, text=True,
                           timeout=args.timeout + 60)
        out = r.stdout
    except subprocess.TimeoutExpired:
        out = ""
    elapsed = time.time() - start
    m = re.search(r"Proved = (\d+)\. Disproved = (\d+)\.", out)
    if m:
        return int(m.group(1)), int(m.group(2)), 0, elapsed, ""
    # One output decided alone ends pdr without the summary line.
    proved = 1 if "Property proved" in out else 0
    disproved = len(re.findall(r"Output \d+ was asserted", out))
    return proved, disproved, 0, elapsed, "no summary"


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        k = argv.index("--")
        argv, extra = argv[:k], argv[k + 1:]
    p = argparse.ArgumentParser()
    p.add_argument("set")
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--jobs", type=int, default=1, help="circuits run at once")
    p.add_argument("--jobs-per-run", type=int, default=0, help="invar's --jobs")
    p.add_argument("--tool", choices=["invar", "abc"], default="invar")
    p.add_argument("--every", type=int, default=1)
    p.add_argument("--certify", action="store_true",
                   help="invar: write and check a certificate for each proved property")
    args = p.parse_args(argv)
    args.extra = extra
    tasks = load(args.set)[::args.every]
    runner = run_invar if args.tool == "invar" else run_abc
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda t: runner(t[0], t[1], args), tasks))
    total = [0, 0, 0, 0]
    whole = 0
    print(f"{'file':34} {'props':>6} {'proved':>7} {'disproved':>9} {'failed':>6} {'time':>7}")
    for (path, count), (proved, disproved, failed, elapsed, note) in zip(tasks, results):
        print(f"{os.path.basename(path):34} {count:6} {proved:7} {disproved:9} {failed:6} "
              f"{elapsed:7.1f} {note}")
        total[0] += count
        total[1] += proved
        total[2] += disproved
        total[3] += failed
        whole += proved + disproved == count
    print(f"summary: {len(tasks)} circuits, {total[0]} properties: "
          f"{total[1] + total[2]} decided ({total[1]} proved, {total[2]} disproved), "
          f"{total[3]} failed checks; {whole} circuits fully decided")
    sys.exit(1 if total[3] else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compares configurations of invar (or of the reference tools) on benchmark
sets, one instance at a time, interleaved so that a slow hour of the machine
falls on every configuration alike, and resumable across sessions.

usage: scripts/interleave.py --out DIR --config NAME=ARGS [--config ...]
                             [--chunk 10] [--timeout 60] [--replay]
                             [--certify] [--report] SET [SET ...]

Each SET (a directory, read as bench.py reads it) is
cut into chunks of --chunk instances, written to DIR/chunks. Chunk after
chunk, every configuration runs it through scripts/bench.py, the first one
rotating from chunk to chunk; the rows go to DIR/out/CHUNK.NAME.txt. A chunk
whose output is complete is not run again, so a run that was stopped goes on
where it stopped (with the same INVAR binary: keep it outside target/).
ARGS are bench.py's arguments after `--` (invar's own), or `tool:NAME` for
bench.py's --tool NAME.

At the end, or alone with --report, the table per set: solved (safe,
unsafe), wrong, failed replays or certificates, PAR-2, the time on the
instances every configuration solves, and what one configuration alone
solves or alone misses. Only instances every configuration has run count.
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import bench  # noqa: E402  (the sets are read as bench.py reads them)

DECIDED = bench.DECIDED


def write_chunks(sets, out, size):
    """The chunk manifests, named ORDER-SET-NN.tsv, with absolute paths and
    the expected verdicts as bench.py reads them."""
    os.makedirs(os.path.join(out, "chunks"), exist_ok=True)
    chunks = []
    for order, directory in enumerate(sets, start=1):
        directory = os.path.abspath(directory)
        name = os.path.basename(directory.rstrip("/"))
        rows = bench.load(directory)
        for start in range(0, len(rows), size):
            path = os.path.join(out, "chunks", f"{order}-{name}-{start // size:02d}.tsv")
            with open(path, "w") as f:
                f.write("file\texpected\n")
                for file, expected in rows[start:start + size]:
                    f.write(f"{file}\t{expected}\n")
            chunks.append(path)
    return chunks


def complete(path):
    if not os.path.exists(path):
        return False
    with open(path) as f:
        return any(line.startswith("solved ") for line in f)


def run(chunks, configs, args, out):
    os.makedirs(os.path.join(out, "out"), exist_ok=True)
    for n, chunk in enumerate(chunks):
        stem = os.path.basename(chunk)[:-len(".tsv")]
        for k in range(len(configs)):
            name, config = configs[(n + k) % len(configs)]
            target = os.path.join(out, "out", f"{stem}.{name}.txt")
            if complete(target):
                continue
            command = [sys.executable, os.path.join(ROOT, "scripts", "bench.py"), chunk,
                       "--timeout", str(args.timeout), "--jobs", "1"]
            command += ["--replay"] * args.replay + ["--certify"] * args.certify
            if config.startswith("tool:"):
                command += ["--tool", config[len("tool:"):]]
            else:
                command += ["--"] + shlex.split(config)
            with open(target + ".part", "w") as f:
                subprocess.run(command, stdout=f, stderr=subprocess.STDOUT)
            os.replace(target + ".part", target)
            with open(target) as f:
                print(f"{stem} {name}: {f.read().splitlines()[-1]}", flush=True)


def report(out, names, timeout):
    rows = {}  # (set, instance) -> name -> (expected, verdict, seconds, note)
    sets = []
    for path in sorted(glob.glob(os.path.join(out, "out", "*.txt"))):
        match = re.fullmatch(r"\d+-(.+)-\d+\.([^.]+)\.txt", os.path.basename(path))
        if not match or match.group(2) not in names:
            continue
        name_of_set, name = match.groups()
        if name_of_set not in sets:
            sets.append(name_of_set)
        with open(path) as f:
            for line in f:
                # Rows are `instance expected verdict seconds [flag] [note]`,
                # the expected column empty where the manifest has none.
                fields = line.split()
                at = next((i for i, x in enumerate(fields[:4])
                           if i >= 2 and re.fullmatch(r"\d+\.\d+", x)), None)
                if at is None or line.startswith("solved "):
                    continue
                expected = fields[1] if at == 3 else ""
                rows.setdefault((name_of_set, fields[0]), {})[name] = (
                    expected, fields[at - 1], float(fields[at]), " ".join(fields[at + 1:]))
    for name_of_set in sets:
        keys = [k for k in rows if k[0] == name_of_set and all(n in rows[k] for n in names)]
        everyone = [k for k in keys if all(rows[k][n][1] in DECIDED for n in names)]
        print(f"{name_of_set}: {len(keys)} instances run by every configuration")
        for name in names:
            solved, wrong, failed, par2 = bench.tally([rows[k][name] for k in keys], timeout)
            common = sum(rows[k][name][2] for k in everyone)
            print(f"  {name:12s} solved {solved['safe'] + solved['unsafe']:3d} "
                  f"({solved['safe']} safe, {solved['unsafe']} unsafe), wrong {wrong}, "
                  f"failed checks {failed}, PAR-2 {par2:.0f} s, "
                  f"on the {len(everyone)} all solve {common:.0f} s")
        for name in names:
            alone = [k[1] for k in keys if rows[k][name][1] in DECIDED
                     and not any(rows[k][o][1] in DECIDED for o in names if o != name)]
            missed = [k[1] for k in keys if rows[k][name][1] not in DECIDED
                      and all(rows[k][o][1] in DECIDED for o in names if o != name)]
            if alone:
                print(f"  only {name}: {' '.join(alone)}")
            if missed:
                print(f"  all but {name}: {' '.join(missed)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--config", action="append", required=True, help="NAME=ARGS")
    ap.add_argument("--chunk", type=int, default=10)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--replay", action="store_true")
    ap.add_argument("--certify", action="store_true")
    ap.add_argument("--report", action="store_true", help="only print the table")
    args = ap.parse_args()
    configs = []
    for item in args.config:
        name, sep, config = item.partition("=")
        if not sep or not re.fullmatch(r"[A-Za-z0-9_-]+", name):
            sys.exit(f"interleave: --config {item!r}: expected NAME=ARGS, NAME of letters, digits, - and _")
        configs.append((name, config))
    chunks = write_chunks(args.sets, args.out, args.chunk)
    if not args.report:
        run(chunks, configs, args, args.out)
    report(args.out, [name for name, _ in configs], args.timeout)


if __name__ == "__main__":
    main()

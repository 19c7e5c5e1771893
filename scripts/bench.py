#!/usr/bin/env python3
"""Benchmark runner: runs `invar check` on a set of instances and prints a
per-instance table, solved counts, wrong verdicts and PAR-2.

usage: scripts/bench.py DIR_OR_MANIFEST [--timeout S] [--jobs N] [--replay]
                        [--tool "berkeley-abc pdr"] [-- extra invar args]

With `-- -v`, each solved row names the engine that answered.

DIR may hold a MANIFEST.tsv or SOURCES.tsv (columns: file, ..., expected),
whose `expected` column (safe/unsafe/unknown) is compared with the verdicts.
With --replay every unsafe witness is checked by tests/tools/aigsim.py (by
aigsim 1.9.26 where AIGSIM names its binary: `cc -O2 -o aigsim
tests/tools/aiger/aigsim.c tests/tools/aiger/aiger.c`); with
--certify every safe answer writes a certificate that `invar certify` checks.
With --tool abc-pdr, ABC's `read F; fold; pdr` is run instead of invar
(ABC reads an uninitialised latch as 0, a narrower question than AIGER's);
with --tool abc-pdr-undc, ABC answers AIGER's question: a model with
uninitialised latches goes through `logic; undc; strash; zero` first (undc
makes each such latch's first value a free input), the others as abc-pdr;
with --tool ric3, rIC3's IC3 (`rIC3 F -e ic3`; RIC3 names the binary);
with --tool spacer, z3's Spacer on the Horn clauses `invar convert F F.chc`
writes (sat: safe, unsat: unsafe; the conversion's time counts); with
--tool invar-vmt, invar on the VMT that `invar convert F F.vmt` writes (the
export read back; --replay and --certify apply to the VMT).
"""
import argparse
import concurrent.futures as cf
import csv
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def expected_of(row):
    """The expected verdict of a manifest row, as safe/unsafe/unknown.

    The column's name starts with `expected`; BTOR2 sets say sat (a bad state
    is reachable) and unsat, C sets (expected_unreach_call) true and false,
    liveness sets holds and fails; notes after the first word are ignored."""
    for key, value in row.items():
        if key and key.startswith("expected") and value:
            word = value.split()[0]
            mapping = {"sat": "unsafe", "unsat": "safe", "true": "safe", "false": "unsafe",
                       "holds": "safe", "fails": "unsafe"}
            return mapping.get(word, word)
    return ""


def load(path):
    directory = path if os.path.isdir(path) else os.path.dirname(path)
    manifest = None
    if os.path.isdir(path):
        for name in ("MANIFEST.tsv", "SOURCES.tsv"):
            if os.path.exists(os.path.join(path, name)):
                manifest = os.path.join(path, name)
                break
    else:
        manifest = path
    rows = []
    if manifest:
        with open(manifest) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                if row.get("file"):
                    rows.append((os.path.join(directory, row["file"]), expected_of(row)))
    else:
        for name in sorted(os.listdir(directory)):
            if name.endswith((".aig", ".aag", ".btor2", ".btor", ".vmt", ".c", ".i")):
                rows.append((os.path.join(directory, name), ""))
    return rows


def run_invar(path, timeout, extra, replay, certify):
    # INVAR names another binary, so a long run is not disturbed by rebuilds.
    binary = os.environ.get("INVAR") or os.path.join(ROOT, "target", "release", "invar")
    cert = None
    if certify:
        # An AIGER proof's certificate is a witness circuit; any other
        # model's is VMT text (for C, the encoding with the invariant).
        suffix = ".aig" if path.endswith((".aig", ".aag")) else ".vmt"
        handle, cert = tempfile.mkstemp(suffix=suffix)
        os.close(handle)
        os.unlink(cert)
        extra = extra + ["--certificate", cert]
    if replay and path.endswith((".vmt", ".dimspec")) and "--witness" not in extra:
        # VMT and DimSpec print their counterexample only when asked.
        extra = extra + ["--witness"]
    start = time.time()
    try:
        p = subprocess.run([binary, "check", path, "--timeout", str(timeout)] + extra,
                           capture_output=True, text=True, timeout=timeout + 10)
        code, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        code, out, err = -1, "", "hard timeout"
    elapsed = time.time() - start
    verdict = {10: "unsafe", 20: "safe", 0: "unknown"}.get(code, "error")
    note = err.strip().splitlines()[-1] if (verdict == "error" and err.strip()) else ""
    if verdict == "unsafe" and replay and path.endswith((".c", ".i")):
        # `invar check` replays a C counterexample itself before printing
        # `false` (`invar sim` takes no C programs).
        note = "replayed inside"
    elif verdict == "unsafe" and replay:
        with tempfile.NamedTemporaryFile("w", suffix=".wit", delete=False) as w:
            w.write(out)
        if path.endswith((".aig", ".aag")) and os.environ.get("AIGSIM"):
            # AIGSIM names aigsim 1.9.26 (tests/tools/aiger, built with cc).
            replayer = [os.environ["AIGSIM"], "-c"]
        elif path.endswith((".aig", ".aag")):
            replayer = [sys.executable, os.path.join(ROOT, "tests", "tools", "aigsim.py")]
        else:
            replayer = [binary, "sim"]
        r = subprocess.run(replayer + [path, w.name], capture_output=True, text=True)
        os.unlink(w.name)
        note = "replayed" if r.returncode == 0 else "REPLAY FAILED: " + r.stdout.strip()
    if verdict == "safe" and cert:
        if os.path.exists(cert):
            # A C program's certificate holds its encoding, which is what
            # `invar certify` checks the invariant against.
            model = cert if path.endswith((".c", ".i")) else path
            r = subprocess.run([binary, "certify", model, cert], capture_output=True, text=True)
            note = "certified" if r.returncode == 0 else \
                "CERTIFICATE FAILED: " + (r.stdout.strip() + " " + r.stderr.strip()).strip()
        else:
            note = "no certificate (k-induction proof)"
    if cert and os.path.exists(cert):
        os.unlink(cert)
    # Under -v, the engine that answered ("invar: engine NAME: ...").
    engine = next((line.split()[2].rstrip(":") for line in err.splitlines()
                   if line.startswith("invar: engine ")), None)
    if engine and verdict in ("safe", "unsafe"):
        note = (note + " " if note else "") + "by " + engine
    return verdict, elapsed, note


def has_uninitialised_latch(path):
    """Whether an AIGER file has a latch whose reset is its own literal."""
    with open(path, "rb") as f:
        header = f.readline().split()
        kind, inputs, latches = header[0], int(header[2]), int(header[3])
        for k in range(latches):
            fields = f.readline().split()
            own = 2 * (inputs + k + 1) if kind == b"aig" else int(fields[0])
            reset = fields[-1] if len(fields) == (2 if kind == b"aig" else 3) else None
            if reset is not None and int(reset) == own:
                return True
    return False


def run_abc(path, timeout, undc=False):
    start = time.time()
    faithful = "logic; undc; strash; zero; " if undc and has_uninitialised_latch(path) else ""
    try:
        p = subprocess.run(["berkeley-abc", "-c", f"read {path}; {faithful}fold; pdr -T {int(timeout)}"],
                           capture_output=True, text=True, timeout=timeout + 10)
        out = p.stdout
    except subprocess.TimeoutExpired:
        out = ""
    elapsed = time.time() - start
    if "Property proved" in out:
        return "safe", elapsed, ""
    if "was asserted in frame" in out or "is asserted" in out.lower() or "Counter-example" in out:
        return "unsafe", elapsed, ""
    return "unknown", elapsed, ""


def run_ric3(path, timeout):
    """rIC3 (measured beside invar, never linked): `rIC3 MODEL -e ic3`,
    exit code 10 unsafe, 20 safe."""
    start = time.time()
    try:
        p = subprocess.run([os.environ.get("RIC3", "rIC3"), path, "-e", "ic3"],
                           capture_output=True, text=True, timeout=timeout)
        code = p.returncode
    except subprocess.TimeoutExpired:
        code = -1
    elapsed = time.time() - start
    return {10: "unsafe", 20: "safe"}.get(code, "unknown"), elapsed, ""


def run_spacer(path, timeout):
    """z3's Spacer on a CHC translation of a word-level model (or C)."""
    start = time.time()
    invar = os.environ.get("INVAR") or os.path.join(ROOT, "target", "release", "invar")
    with tempfile.TemporaryDirectory() as tmp:
        chc = os.path.join(tmp, "model.chc")
        p = subprocess.run([invar, "convert", path, chc], capture_output=True, text=True)
        if p.returncode not in (0,) or not os.path.exists(chc):
            return "unknown", time.time() - start, "no translation: " + p.stderr.strip()[-80:]
        try:
            left = max(1, int(timeout - (time.time() - start)))
            q = subprocess.run(["z3", "-smt2", f"-T:{left}", chc],
                               capture_output=True, text=True, timeout=timeout + 10)
            out = q.stdout.strip().splitlines()
            answer = out[0] if out else ""
        except subprocess.TimeoutExpired:
            answer = ""
    elapsed = time.time() - start
    return {"sat": "safe", "unsat": "unsafe"}.get(answer, "unknown"), elapsed, ""


def run_invar_vmt(path, timeout, extra, replay, certify):
    """invar on its own VMT export of a model (or C program)."""
    start = time.time()
    invar = os.environ.get("INVAR") or os.path.join(ROOT, "target", "release", "invar")
    with tempfile.TemporaryDirectory() as tmp:
        vmt = os.path.join(tmp, "model.vmt")
        p = subprocess.run([invar, "convert", path, vmt], capture_output=True, text=True)
        if p.returncode != 0 or not os.path.exists(vmt):
            return "unknown", time.time() - start, "no translation: " + p.stderr.strip()[-80:]
        left = max(1, timeout - (time.time() - start))
        verdict, _, note = run_invar(vmt, left, extra, replay, certify)
    return verdict, time.time() - start, note


DECIDED = ("safe", "unsafe")


def is_wrong(expected, verdict):
    return verdict in DECIDED and expected in DECIDED and verdict != expected


def tally(results, timeout):
    """Scores (expected, verdict, seconds, note) rows: solved per verdict,
    wrong verdicts, failed replays or certificates, and PAR-2, where a
    missing or wrong verdict costs twice the timeout."""
    counts = {"safe": 0, "unsafe": 0}
    wrong = failed = 0
    par2 = 0.0
    for expected, verdict, seconds, note in results:
        failed += "FAILED" in note
        if is_wrong(expected, verdict):
            wrong += 1
            par2 += 2 * timeout
        elif verdict in DECIDED:
            counts[verdict] += 1
            par2 += seconds
        else:
            par2 += 2 * timeout
    return counts, wrong, failed, par2


def row_line(name, expected, verdict, seconds, note):
    """One instance's line of the table (scripts/cluster.py prints the same)."""
    flag = "WRONG" if is_wrong(expected, verdict) else ""
    return f"{name:70s} {expected:8s} {verdict:8s} {seconds:7.2f} {flag} {note}"


def summary_line(counts, total, wrong, failed, par2, timeout, tool, extra):
    return (f"solved {counts['safe'] + counts['unsafe']}/{total} ({counts['safe']} safe, "
            f"{counts['unsafe']} unsafe), wrong {wrong}, failed replays/certificates {failed}, "
            f"PAR-2 {par2:.1f} s, timeout {timeout:g} s, tool {tool} {' '.join(extra)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--replay", action="store_true")
    ap.add_argument("--certify", action="store_true")
    ap.add_argument("--tool", default="invar", choices=["invar", "invar-vmt", "abc-pdr", "abc-pdr-undc", "ric3", "spacer"])
    args, extra = ap.parse_known_args()
    args.extra = [a for a in extra if a != "--"]
    rows = load(args.set)

    def job(row):
        path, _ = row
        if args.tool == "abc-pdr":
            return run_abc(path, args.timeout)
        if args.tool == "abc-pdr-undc":
            return run_abc(path, args.timeout, undc=True)
        if args.tool == "ric3":
            return run_ric3(path, args.timeout)
        if args.tool == "spacer":
            return run_spacer(path, args.timeout)
        if args.tool == "invar-vmt":
            return run_invar_vmt(path, args.timeout, args.extra, args.replay, args.certify)
        return run_invar(path, args.timeout, args.extra, args.replay, args.certify)

    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(job, rows))
    for (path, expected), (verdict, elapsed, note) in zip(rows, results):
        print(row_line(os.path.basename(path), expected, verdict, elapsed, note), flush=True)
    counts, wrong, failed_checks, par2 = tally(
        [(expected, *result) for (_, expected), result in zip(rows, results)], args.timeout)
    print(summary_line(counts, len(rows), wrong, failed_checks, par2, args.timeout, args.tool, args.extra))
    return 1 if wrong or failed_checks else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Capture and compare what `invar check` prints, for refactorings that must
not change behaviour.

    scripts/outputs.py capture BINARY DIR [--timeout S] [--jobs N]
    scripts/outputs.py compare DIR_BEFORE DIR_AFTER [--again DIR_AGAIN]

`capture` runs BINARY on every model under hwmcc-samples/, tests/c/ and
formats/ (by extension: .aag .aig .btor2 .btor .vmt .smt2 .dimspec .c .i)
in three modes: plain text, `--json`, and with the evidence files
(`--certificate` for circuits and word-level models, `--witness-out` for C,
`--vcd` for all). For each it keeps stdout, stderr, the exit code and the
files written, under DIR/<model path>/<mode>.*.

What changes from run to run by design is masked before it is stored: times
in the JSON (`time`, `sat_time`, `solver_time`, `ic3_time_*`), and in SV-COMP
witnesses the uuid, the creation time and the command line (which names the
binary and the capture folder).

`compare` lists the models whose stored outputs differ. With `--again`, a
second capture by the *same* binary as DIR_BEFORE, a difference that shows
between the two same-binary captures too is reported apart: it comes from
the run (which engine of the portfolio answers first, a run ending near its
time limit), not from the change.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ["hwmcc-samples", "tests/c", "formats"]
EXTENSIONS = {".aag", ".aig", ".btor2", ".btor", ".vmt", ".smt2", ".dimspec", ".c", ".i"}
MODES = ["text", "json", "evidence"]

TIME_FIELD = re.compile(r'("(?:time|sat_time|solver_time|ic3_time_[a-z_]+)": )[0-9.]+')
WITNESS_LINE = re.compile(r"^(\s*(?:uuid|creation_time|command_line): ).*$", re.M)


def models():
    """Every model file under FOLDERS, relative to ROOT, in a fixed order."""
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in EXTENSIONS:
                found.append(path.relative_to(ROOT))
    return found


def mask(text):
    text = TIME_FIELD.sub(r"\g<1>T", text)
    return WITNESS_LINE.sub(r"\g<1>MASKED", text)


def capture_one(binary, out_dir, model, mode, timeout):
    target = out_dir / model / mode
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        args = [binary, "check", str(model), "--timeout", str(timeout)]
        evidence = {}
        if mode == "json":
            args.append("--json")
        elif mode == "evidence":
            evidence["vcd"] = scratch / "waves.vcd"
            args += ["--vcd", str(evidence["vcd"])]
            if model.suffix in (".c", ".i"):
                evidence["witness"] = scratch / "witness.yml"
                args += ["--witness-out", str(evidence["witness"])]
            else:
                evidence["certificate"] = scratch / (
                    "cert.aag" if model.suffix in (".aag", ".aig") else "cert.vmt"
                )
                args += ["--certificate", str(evidence["certificate"])]
        try:
            done = subprocess.run(
                args, cwd=ROOT, capture_output=True, timeout=timeout + 60
            )
            stdout, stderr, code = done.stdout, done.stderr, str(done.returncode)
        except subprocess.TimeoutExpired:
            stdout, stderr, code = b"", b"", "hung"
        # The scratch folder's name differs per run: name it the same way.
        scratch_name = str(scratch).encode()
        stdout = stdout.replace(scratch_name, b"SCRATCH")
        stderr = stderr.replace(scratch_name, b"SCRATCH")
        (target.parent / f"{mode}.stdout").write_text(mask(stdout.decode(errors="replace")))
        (target.parent / f"{mode}.stderr").write_text(mask(stderr.decode(errors="replace")))
        (target.parent / f"{mode}.rc").write_text(code + "\n")
        for name, path in evidence.items():
            if path.exists():
                data = path.read_bytes().replace(scratch_name, b"SCRATCH")
                (target.parent / f"{mode}.{name}").write_text(
                    mask(data.decode(errors="replace"))
                )
    return model, mode, code


def capture(args):
    binary = str(Path(args.binary).resolve())
    out_dir = Path(args.dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    work = [(m, mode) for m in models() for mode in MODES]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(capture_one, binary, out_dir, m, mode, args.timeout)
            for m, mode in work
        ]
        for k, f in enumerate(concurrent.futures.as_completed(futures), 1):
            model, mode, code = f.result()
            print(f"[{k}/{len(work)}] {model} {mode}: {code}", file=sys.stderr)
    print(f"captured {len(work)} runs of {len(work) // len(MODES)} models in {out_dir}")


def stored(folder):
    """Relative path of every stored file -> its bytes."""
    folder = Path(folder)
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file()
    }


def differing_models(a, b):
    """Model paths (without the mode file) whose stored files differ."""
    names = set(a) | set(b)
    return sorted({os.path.dirname(n) for n in names if a.get(n) != b.get(n)})


def compare(args):
    before, after = stored(args.before), stored(args.after)
    runs = len({os.path.dirname(n) for n in before})
    changed = differing_models(before, after)
    noisy = set(differing_models(before, stored(args.again))) if args.again else set()
    from_run = [m for m in changed if m in noisy]
    from_change = [m for m in changed if m not in noisy]
    identical = runs - len(changed)
    print(f"{runs} models: {identical} byte-identical in every mode", end="")
    if args.again:
        print(f", {len(from_run)} differ between two runs of the same binary too", end="")
    print(f", {len(from_change)} differ")
    for m in from_run:
        print(f"  run-to-run: {m}")
    for m in from_change:
        files = sorted(
            n
            for n in set(before) | set(after)
            if os.path.dirname(n) == m and before.get(n) != after.get(n)
        )
        print(f"  DIFFERS: {m}: {', '.join(os.path.basename(f) for f in files)}")
    return 1 if from_change else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("capture")
    c.add_argument("binary")
    c.add_argument("dir")
    c.add_argument("--timeout", type=float, default=20)
    c.add_argument("--jobs", type=int, default=2)
    d = sub.add_parser("compare")
    d.add_argument("before")
    d.add_argument("after")
    d.add_argument("--again")
    args = parser.parse_args()
    if args.command == "capture":
        capture(args)
        return 0
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())

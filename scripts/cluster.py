#!/usr/bin/env python3
"""Runs a set of `invar check` tasks (models x properties x configurations)
on a SLURM cluster, or here, and gathers the results into one table.

The two commands a cluster user types (from a directory every node sees):

    scripts/cluster.py submit RUN SET... [--timeout S] [--memory MB]
                      [--cpus N] [--config NAME=ARGS]... [--per-property]
                      [--replay] [--certify] [--max-running N]
                      [--sbatch ARG]...
    scripts/cluster.py gather RUN

`submit` writes the plan into the directory RUN (the tasks, a copy of the
invar binary, a BenchExec benchmark definition of the same tasks) and
submits one SLURM job array for the tasks that have no result yet; run it
again on the same RUN (without SET) to resume after a partial run: only the
tasks without a result go in again. `gather` prints scripts/bench.py's
table and summary for each configuration, and says how many tasks have no
result yet (exit code 2 then; 1 when a verdict is wrong or a witness or
certificate failed its check).

Other commands: `plan RUN SET...` (writes the plan only), `local RUN
[--jobs N]` (runs the tasks without a result on this machine, the same way
a node runs them), `run RUN INDEX` (what an array task runs).

SET is a benchmark directory or manifest as scripts/bench.py reads it (the
expected verdicts come from its MANIFEST.tsv or SOURCES.tsv). `--config
NAME=ARGS` adds a configuration (ARGS: invar check's options, e.g. `ic3=
--engine ic3`); without one there is one, `auto`, with the options after
`--`. `--per-property` makes one task per property of each model (`invar
info` counts them; `--property N` picks each).

BenchExec: RUN/benchexec/benchmark.xml runs the same tasks under BenchExec
(`benchexec RUN/benchexec/benchmark.xml`, with the repository on
PYTHONPATH for the tool-info module contrib/benchexec/invar.py), with its
cgroup limits, and with BenchExec's own SLURM executor where a site uses it.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import xml.sax.saxutils as saxutils

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import bench  # noqa: E402  (scripts/bench.py: the runner and its table)

PLAN = "plan.json"
# SLURM's default MaxArraySize is 1001: larger submissions go in several arrays.
ARRAY_CHUNK = 1000


def plan_path(run):
    return os.path.join(run, PLAN)


def load_plan(run):
    try:
        with open(plan_path(run)) as f:
            return json.load(f)
    except FileNotFoundError:
        sys.exit(f"{run}: no plan here; give the benchmark set to `submit` or `plan`")


def count_properties(binary, model):
    """How many properties `--property N` ranges over for `model`: its bad
    properties (or AIGER outputs), else its liveness properties; 1 where
    `invar info` does not say."""
    p = subprocess.run([binary, "info", model], capture_output=True, text=True)
    counts = {}
    for line in p.stdout.splitlines():
        m = re.match(r"(bad|outputs|justice|live)\s+(\d+)\s*$", line)
        if m:
            counts[m.group(1)] = int(m.group(2))
    for key in ("bad", "outputs"):
        if counts.get(key):
            return counts[key]
    return max(counts.get("justice", 0), counts.get("live", 0), 1)


def make_plan(args, extra):
    run = os.path.abspath(args.run)
    if os.path.exists(plan_path(run)):
        sys.exit(f"{run} already holds a plan: give `submit` the directory alone to resume, "
                 "or choose a new directory")
    binary = os.path.abspath(os.environ.get("INVAR") or
                             os.path.join(ROOT, "target", "release", "invar"))
    if not os.access(binary, os.X_OK):
        sys.exit(f"{binary}: no invar binary (cargo build --release, or set INVAR)")
    configs = []
    for spec in args.config or []:
        name, _, options = spec.partition("=")
        # BenchExec names a run CONFIGURATION.TASKSET: no dot in the name.
        if not name or not re.fullmatch(r"[A-Za-z0-9_-]+", name):
            sys.exit(f"--config {spec!r}: expected NAME=OPTIONS, NAME of letters, digits, _ and -")
        configs.append({"name": name, "args": shlex.split(options)})
    if not configs:
        configs = [{"name": "auto", "args": extra}]
    elif extra:
        configs = [{"name": c["name"], "args": c["args"] + extra} for c in configs]
    os.makedirs(os.path.join(run, "results"), exist_ok=True)
    os.makedirs(os.path.join(run, "logs"), exist_ok=True)
    os.makedirs(os.path.join(run, "bin"), exist_ok=True)
    # The nodes run this copy: a rebuild during the run changes nothing.
    copy = os.path.join(run, "bin", "invar")
    shutil.copy2(binary, copy)
    tasks = []
    for set_path in args.sets:
        rows = bench.load(set_path)
        if not rows:
            sys.exit(f"{set_path}: no models found")
        for model, expected in rows:
            model = os.path.abspath(model)
            props = [None]
            if args.per_property:
                props = list(range(count_properties(copy, model)))
            for prop in props:
                for config in configs:
                    tasks.append({
                        "model": model,
                        # The manifest's verdict is the model's: a
                        # property's own only where it is the only one.
                        "expected": expected if len(props) == 1 else "",
                        "property": prop,
                        "config": config["name"],
                    })
    plan = {
        "binary": copy,
        "timeout": args.timeout,
        "memory": args.memory,
        "cpus": args.cpus,
        "replay": args.replay,
        "certify": args.certify,
        "configs": configs,
        "tasks": tasks,
    }
    with open(plan_path(run) + ".tmp", "w") as f:
        json.dump(plan, f, indent=1)
    os.replace(plan_path(run) + ".tmp", plan_path(run))
    write_benchexec(run, plan)
    print(f"{run}: {len(tasks)} tasks ({len(configs)} configurations)")
    return plan


def task_args(plan, task):
    config = next(c for c in plan["configs"] if c["name"] == task["config"])
    args = list(config["args"])
    if task["property"] is not None:
        args += ["--property", str(task["property"])]
    if plan["memory"]:
        # invar answers unknown at its own limit rather than being killed.
        args += ["--memory", str(plan["memory"])]
    return args


# BenchExec scores a task by its property file: SV-COMP's unreach-call, which
# the tool-info module hands to invar for C and leaves aside for hardware
# models (whose properties are in the file).
UNREACH_CALL = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n"


def write_benchexec(run, plan):
    """The same tasks as a BenchExec benchmark definition: one run
    definition per configuration; one task-definition file per model and
    property, with the manifest's expected verdict, so that BenchExec
    scores the runs as scripts/bench.py does."""
    directory = os.path.join(run, "benchexec")
    os.makedirs(os.path.join(directory, "tasks"), exist_ok=True)
    prp = os.path.join(directory, "unreach-call.prp")
    with open(prp, "w") as f:
        f.write(UNREACH_CALL)
    q = saxutils.quoteattr
    lines = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE benchmark PUBLIC "+//IDN sosy-lab.org//DTD BenchExec benchmark 2.3//EN" '
        '"https://www.sosy-lab.org/benchexec/benchmark-2.3.dtd">',
        f'<benchmark tool="contrib.benchexec.invar" timelimit="{plan["timeout"]:g} s" '
        f'hardtimelimit="{plan["timeout"] + 30:g} s"'
        + (f' memlimit="{plan["memory"]} MB"' if plan["memory"] else "")
        + f' cpuCores="{plan["cpus"]}">',
    ]
    for config in plan["configs"]:
        lines.append(f'  <rundefinition name={q(config["name"])}>')
        for arg in config["args"] + ["--timeout", f'{plan["timeout"]:g}']:
            lines.append(f"    <option>{saxutils.escape(arg)}</option>")
        lines.append("  </rundefinition>")
    # One task set per property index (the option differs), each task a
    # task-definition file naming its model.
    by_property = {}
    written = set()
    for task in plan["tasks"]:
        key = (task["model"], task["property"])
        if key in written:
            continue
        written.add(key)
        stem = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.basename(task["model"]))
        suffix = "" if task["property"] is None else f".p{task['property']}"
        yml = os.path.join(directory, "tasks", f"{len(written)}-{stem}{suffix}.yml")
        verdict = {"safe": "true", "unsafe": "false"}.get(task["expected"])
        with open(yml, "w") as f:
            f.write("format_version: '2.0'\n")
            f.write(f"input_files: {json.dumps(task['model'])}\n")
            f.write("properties:\n")
            f.write(f"  - property_file: {json.dumps(prp)}\n")
            if verdict:
                f.write(f"    expected_verdict: {verdict}\n")
        by_property.setdefault(task["property"], []).append(yml)
    for prop, ymls in sorted(by_property.items(), key=lambda kv: -1 if kv[0] is None else kv[0]):
        name = "all" if prop is None else f"property{prop}"
        lines.append(f"  <tasks name={q(name)}>")
        for yml in ymls:
            lines.append(f"    <include>{saxutils.escape(yml)}</include>")
        lines.append(f"    <propertyfile>{saxutils.escape(prp)}</propertyfile>")
        if prop is not None:
            lines.append(f"    <option>--property</option><option>{prop}</option>")
        lines.append("  </tasks>")
    lines.append("</benchmark>")
    with open(os.path.join(directory, "benchmark.xml"), "w") as f:
        f.write("\n".join(lines) + "\n")


def result_path(run, index):
    return os.path.join(run, "results", f"{index}.json")


def missing(run, plan):
    return [i for i in range(len(plan["tasks"])) if not os.path.exists(result_path(run, i))]


def run_task(run, plan, index):
    """Runs task `index` as scripts/bench.py runs an instance and writes its
    result (atomically: a task killed half-way leaves no result)."""
    task = plan["tasks"][index]
    os.environ["INVAR"] = plan["binary"]
    verdict, seconds, note = bench.run_invar(task["model"], plan["timeout"], task_args(plan, task),
                                             plan["replay"], plan["certify"])
    record = dict(task, index=index, verdict=verdict, seconds=round(seconds, 3), note=note,
                  host=socket.gethostname())
    target = result_path(run, index)
    with open(target + ".tmp", "w") as f:
        json.dump(record, f)
    os.replace(target + ".tmp", target)
    return record


def sbatch_script(run, plan, ids_file, count, args):
    hard = plan["timeout"] + 120
    lines = [
        "#!/bin/bash",
        f"#SBATCH --job-name=invar-{os.path.basename(run)}",
        f"#SBATCH --array=0-{count - 1}" + (f"%{args.max_running}" if args.max_running else ""),
        f"#SBATCH --cpus-per-task={plan['cpus']}",
        f"#SBATCH --mem={plan['memory'] + 512}M" if plan["memory"] else "",
        f"#SBATCH --time={(int(hard) + 59) // 60}",
        f"#SBATCH --output={os.path.join(run, 'logs', '%A_%a.out')}",
        *[f"#SBATCH {a}" for a in args.sbatch or []],
        "set -eu",
        f"index=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" {shlex.quote(ids_file)})",
        f"exec {shlex.quote(sys.executable)} {shlex.quote(os.path.abspath(__file__))} run "
        f"{shlex.quote(run)} \"$index\"",
    ]
    return "\n".join(line for line in lines if line) + "\n"


def jobs_file(run):
    return os.path.join(run, "jobs.txt")


def queued_jobs(run):
    """The job arrays of earlier submissions that SLURM still lists."""
    if not os.path.exists(jobs_file(run)):
        return []
    with open(jobs_file(run)) as f:
        ids = [line.strip() for line in f if line.strip()]
    if not ids:
        return []
    p = subprocess.run(["squeue", "-h", "-o", "%F", "-j", ",".join(ids)],
                       capture_output=True, text=True)
    return sorted(set(p.stdout.split()))


def submit(args, extra):
    run = os.path.abspath(args.run)
    plan = make_plan(args, extra) if args.sets else load_plan(run)
    if args.sets is None and extra:
        sys.exit("options after `--` belong to a new plan; this one is fixed")
    if shutil.which("sbatch") is None:
        sys.exit("sbatch not found: this machine is no SLURM submit host "
                 f"(`{sys.argv[0]} local {args.run}` runs the tasks here)")
    waiting = queued_jobs(run)
    if waiting:
        sys.exit(f"{run}: job arrays {', '.join(waiting)} are still queued or running; "
                 "resume once they are done (or scancel them)")
    todo = missing(run, plan)
    if not todo:
        print(f"{run}: every task has its result; `{sys.argv[0]} gather {args.run}`")
        return 0
    submissions = os.path.join(run, "submissions")
    os.makedirs(submissions, exist_ok=True)
    serial = sum(name.endswith(".ids") for name in os.listdir(submissions))
    for start in range(0, len(todo), ARRAY_CHUNK):
        chunk = todo[start:start + ARRAY_CHUNK]
        ids_file = os.path.join(submissions, f"{serial}.ids")
        with open(ids_file, "w") as f:
            f.write("".join(f"{i}\n" for i in chunk))
        script = os.path.join(submissions, f"{serial}.sbatch")
        with open(script, "w") as f:
            f.write(sbatch_script(run, plan, ids_file, len(chunk), args))
        p = subprocess.run(["sbatch", "--parsable", script], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"sbatch {script}: {p.stderr.strip()}")
        job = p.stdout.strip().split(";")[0]
        with open(jobs_file(run), "a") as f:
            f.write(job + "\n")
        print(f"submitted job array {job}: {len(chunk)} tasks")
        serial += 1
    return 0


def local(args):
    run = os.path.abspath(args.run)
    plan = load_plan(run)
    todo = missing(run, plan)
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(lambda i: run_task(run, plan, i), todo))
    print(f"{run}: ran {len(todo)} tasks here")
    return 0


def gather(args):
    run = os.path.abspath(args.run)
    plan = load_plan(run)
    status = 0
    absent = 0
    for config in plan["configs"]:
        rows = []
        for index, task in enumerate(plan["tasks"]):
            if task["config"] != config["name"]:
                continue
            try:
                with open(result_path(run, index)) as f:
                    record = json.load(f)
                rows.append((task, record["verdict"], record["seconds"], record["note"]))
            except FileNotFoundError:
                absent += 1
                rows.append((task, "missing", 0.0, ""))
        print(f"# configuration {config['name']}: invar check {' '.join(config['args'])}")
        for task, verdict, seconds, note in rows:
            name = os.path.basename(task["model"])
            if task["property"] is not None:
                name += f" #{task['property']}"
            print(bench.row_line(name, task["expected"], verdict, seconds, note))
        counts, wrong, failed, par2 = bench.tally(
            [(task["expected"], verdict, seconds, note) for task, verdict, seconds, note in rows],
            plan["timeout"])
        print(bench.summary_line(counts, len(rows), wrong, failed, par2, plan["timeout"],
                                 "invar", config["args"]))
        if wrong or failed:
            status = 1
    if absent:
        print(f"{absent} of {len(plan['tasks'])} tasks have no result yet: "
              f"`{sys.argv[0]} submit {args.run}` resumes")
        status = status or 2
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    for name in ("submit", "plan"):
        p = sub.add_parser(name)
        p.add_argument("run")
        p.add_argument("sets", nargs="*" if name == "submit" else "+")
        p.add_argument("--timeout", type=float, default=60)
        p.add_argument("--memory", type=int, default=8000, help="MB per task (0: no limit)")
        p.add_argument("--cpus", type=int, default=2, help="cores per task")
        p.add_argument("--config", action="append")
        p.add_argument("--per-property", action="store_true")
        p.add_argument("--replay", action="store_true")
        p.add_argument("--certify", action="store_true")
        if name == "submit":
            p.add_argument("--max-running", type=int)
            p.add_argument("--sbatch", action="append", help="an option for sbatch, e.g. --sbatch=--partition=long")
    p = sub.add_parser("local")
    p.add_argument("run")
    p.add_argument("--jobs", type=int, default=1)
    p = sub.add_parser("run")
    p.add_argument("run")
    p.add_argument("index", type=int)
    p = sub.add_parser("gather")
    p.add_argument("run")
    args, extra = ap.parse_known_args()
    extra = [a for a in extra if a != "--"]
    if args.command == "submit":
        args.sets = args.sets or None
        return submit(args, extra)
    if args.command == "plan":
        make_plan(args, extra)
        return 0
    if extra:
        ap.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "local":
        return local(args)
    if args.command == "run":
        run = os.path.abspath(args.run)
        run_task(run, load_plan(run), args.index)
        return 0
    return gather(args)


if __name__ == "__main__":
    sys.exit(main())

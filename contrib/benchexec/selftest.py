#!/usr/bin/env python3
"""Checks contrib/benchexec/invar.py's mapping of invar's exit codes and
messages to BenchExec results, and its command lines: C tasks pass their
property file to invar (which answers `unknown` for properties other than
unreach-call and no-overflow), built without opening it, and hardware
models take none (run by .ci/run after `python3 -m
benchexec.test_tool_info`)."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import benchexec.result as result  # noqa: E402
from benchexec.tools.template import BaseTool2  # noqa: E402
from benchexec.util import ProcessExitCode  # noqa: E402

from contrib.benchexec.invar import Tool  # noqa: E402


def run(model, code, lines=(), signal=None, reason=None):
    exit_code = ProcessExitCode(raw=0, value=code, signal=signal)
    output = BaseTool2.RunOutput([line + "\n" for line in lines])
    return BaseTool2.Run(["invar", "check", model], exit_code, output, reason)


def main():
    tool = Tool()
    cases = [
        (run("m.aig", 20), result.RESULT_TRUE_PROP),
        (run("m.aig", 10, ["1", "b0"]), result.RESULT_FALSE_PROP),
        (run("m.btor2", 10), result.RESULT_FALSE_PROP),
        (run("p.c", 10, ["false"]), result.RESULT_FALSE_REACH),
        (run("p.c", 10, ["false(no-overflow)", "step 0: entry"]), result.RESULT_FALSE_OVERFLOW),
        (run("p.c", 10, ["false(valid-deref)", "step 0: entry"]), result.RESULT_FALSE_DEREF),
        (run("p.c", 10, ["false(valid-free)"]), result.RESULT_FALSE_FREE),
        (run("p.c", 10, ["false(valid-memtrack)"]), result.RESULT_FALSE_MEMTRACK),
        (run("p.i", 20, ["true"]), result.RESULT_TRUE_PROP),
        (run("m.vmt", 0, ["unknown"]), result.RESULT_UNKNOWN),
        (run("m.aig", None, signal=9, reason="cputime"), result.RESULT_TIMEOUT),
        (
            run("m.aig", 1, ["invar: m.aig:3: latch 4 is out of range"]),
            "ERROR (m.aig:3: latch 4 is out of range)",
        ),
    ]
    failed = 0
    for r, want in cases:
        got = tool.determine_result(r)
        if got != want:
            print("%s exit %s: %r, expected %r" % (r.cmdline[-1], r.exit_code.value, got, want))
            failed += 1
    with tempfile.TemporaryDirectory() as d:
        reach = os.path.join(d, "unreach-call.prp")
        with open(reach, "w") as f:
            f.write("CHECK( init(main()), LTL(G ! call(reach_error())) )\n")
        overflow = os.path.join(d, "no-overflow.prp")
        with open(overflow, "w") as f:
            f.write("CHECK( init(main()), LTL(G ! overflow) )\n")
        # A file that does not exist: the command line must not read it.
        missing = os.path.join(d, "PROPERTY.PRP")

        def c_run(prp):
            return ["invar", "check", "--svcomp", "--prop", prp, "--witness-out", "witness.yml", "p.c"]

        lines = [
            ("unreach-call", "p.c", reach, c_run(reach)),
            ("no-overflow", "p.c", overflow, c_run(overflow)),
            ("a missing property file", "p.c", missing, c_run(missing)),
            ("a hardware model", "m.aig", missing, ["invar", "check", "m.aig"]),
        ]
        for what, model, prp, want in lines:
            task = BaseTool2.Task.with_files([model], property_file=prp)
            if tool.cmdline("invar", [], task, None) != want:
                print("%s: unexpected command line" % what)
                failed += 1
    print("%d of %d checks failed" % (failed, len(cases) + len(lines)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

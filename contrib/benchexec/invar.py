# BenchExec tool-info module for invar (https://github.com/sosy-lab/benchexec,
# doc/tool-integration.md). Use it as `contrib.benchexec.invar` with the
# repository root on PYTHONPATH, for example
#   PYTHONPATH=. python3 -m benchexec.test_tool_info contrib.benchexec.invar \
#       --no-container --tool-directory target/release
# or in a benchmark definition: <benchmark tool="contrib.benchexec.invar" ...>.
"""invar: IC3/PDR, BMC and k-induction for AIGER, BTOR2, VMT and C."""

import re

import benchexec.result as result
from benchexec.tools.template import BaseTool2

# invar's exit codes (README): 10 unsafe, 20 safe, 0 unknown, 1 error.
EXIT_UNSAFE = 10
EXIT_SAFE = 20
EXIT_UNKNOWN = 0
C_SUFFIXES = (".c", ".i")


class Tool(BaseTool2):
    """Runs `invar check` on the task's model and reads its exit code."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("invar")

    def name(self):
        return "invar"

    def version(self, executable):
        # `invar --version` prints "invar 0.1.0".
        return self._version_from_tool(executable, arg="--version").replace(
            "invar ", ""
        )

    def cmdline(self, executable, options, task, rlimits):
        # One model per run. Hardware models carry their properties inside.
        # For C, invar reads the property file itself: it checks SV-COMP's
        # unreach-call, no-overflow and valid-memsafety, answers `unknown`
        # naming any other property, and writes its witness (format 2.0)
        # into the run's working directory, where SV-COMP's result files
        # are taken (none for valid-memsafety). The
        # file is not opened here: BenchExec builds command lines for tasks
        # whose files need not exist (test_tool_info passes PROPERTY.PRP).
        model = task.single_input_file
        if task.property_file and model.endswith(C_SUFFIXES):
            options = [
                "--svcomp",
                "--prop",
                task.property_file,
                "--witness-out",
                "witness.yml",
                *options,
            ]
        return [executable, "check", *options, model]

    def determine_result(self, run):
        code = run.exit_code.value
        c_task = any(str(arg).endswith(C_SUFFIXES) for arg in run.cmdline[-1:])
        if code == EXIT_SAFE:
            return result.RESULT_TRUE_PROP
        if code == EXIT_UNSAFE:
            if not c_task:
                return result.RESULT_FALSE_PROP
            # `--svcomp` names the property violated on the first line.
            words = {
                "false(no-overflow)": result.RESULT_FALSE_OVERFLOW,
                "false(valid-deref)": result.RESULT_FALSE_DEREF,
                "false(valid-free)": result.RESULT_FALSE_FREE,
                "false(valid-memtrack)": result.RESULT_FALSE_MEMTRACK,
            }
            for line in run.output:
                if line.strip() in words:
                    return words[line.strip()]
            return result.RESULT_FALSE_REACH
        if code == EXIT_UNKNOWN and run.exit_code.signal is None:
            return result.RESULT_UNKNOWN
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        # Errors name the file and line on stderr, which BenchExec merges
        # into the output: keep the first line of the message short.
        for line in run.output:
            m = re.match(r"invar: (.*)", line)
            if m:
                return "%s (%s)" % (result.RESULT_ERROR, m.group(1)[:60])
        return result.RESULT_ERROR

#!/usr/bin/env python3
"""Independent checks of invar's SV-COMP witnesses (format 2.0).

    witnesscheck.py schema WITNESS.yml PROGRAM.c violation|correctness
        Validates the witness against the format's JSON schema
        (formats/svcomp-witness/, see its README) with the `jsonschema`
        package, and checks what the schema cannot say: the SHA-256 of the
        program (hashlib), every location inside the program's text, each
        loop invariant at a `while` or `for` keyword, and the order of a
        violation witness's waypoints (each segment ends with its one
        `follow` waypoint, the last one with the target). Prints a summary.

    witnesscheck.py runs WITNESS.yml PROGRAM.c RUNS SEED
        Checks every invariant on concrete runs of the program, until each
        was checked in RUNS runs (or 50 * RUNS runs were made):
        the program is compiled with gcc, each invariant evaluated before
        each evaluation of its loop's condition (inserted as `check(INV),`
        at the start of the condition), and the SV-COMP nondeterministic
        functions draw random values (small ones, boundary ones and
        uniform ones). A run stops after 100,000 checks or 20 ms (a
        prefix of a run is still a run). Prints "runs R checks C least L"
        (L: the fewest runs that checked one invariant); fails naming the
        invariant that does not hold.

Exit code 0 when everything holds, 1 on a failed check, 2 on bad usage.
"""

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def load(witness_path):
    with open(witness_path) as f:
        return yaml.safe_load(f)


def check_schema(witness_path, program_path, kind):
    doc = load(witness_path)
    schema_path = os.path.join(ROOT, "formats", "svcomp-witness", kind + "-witness-2.0.schema.json")
    with open(schema_path) as f:
        schema = json.load(f)
    checker = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(checker.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        fail("; ".join("%s: %s" % (list(e.path), e.message) for e in errors))
    with open(program_path, "rb") as f:
        data = f.read()
    digest = hashlib.sha256(data).hexdigest()
    lines = data.decode("utf-8", "replace").split("\n")
    locations = 0
    for entry in doc:
        task = entry["metadata"]["task"]
        for name in task["input_files"]:
            if task["input_file_hashes"].get(name) != digest:
                fail("the hash of %s is not the program's SHA-256 %s" % (name, digest))

        def located(loc, keywords=None):
            nonlocal locations
            locations += 1
            if loc["file_name"] not in task["input_files"]:
                fail("location in %s, not an input file" % loc["file_name"])
            line = loc["line"]
            if line > len(lines):
                fail("line %d beyond the program's %d lines" % (line, len(lines)))
            text = lines[line - 1]
            column = loc.get("column", 1)
            if column > len(text):
                fail("column %d beyond line %d (%r)" % (column, line, text))
            rest = text[column - 1:]
            if keywords and not any(re.match(k + r"\b", rest) for k in keywords):
                fail("line %d column %d is not at %s: %r" % (line, column, "/".join(keywords), rest))
            return rest

        if kind == "violation":
            segments = entry["content"]
            for i, item in enumerate(segments):
                waypoints = [w["waypoint"] for w in item["segment"]]
                actions = [w["action"] for w in waypoints]
                if actions[-1] != "follow" or actions.count("follow") != 1:
                    fail("segment %d does not end with its one follow waypoint: %s" % (i, actions))
                targets = [w for w in waypoints if w["type"] == "target"]
                last = i == len(segments) - 1
                if last != (waypoints[-1]["type"] == "target") or len(targets) > int(last):
                    fail("the target waypoint must end the last segment, and only it")
                for w in waypoints:
                    rest = located(w["location"])
                    if w["type"] == "target" and not re.match(r"(reach_error|__VERIFIER_error|__assert_fail|__VERIFIER_assert|assert)\b", rest):
                        fail("the target is not at a call that reaches the error: %r" % rest)
        else:
            for item in entry["content"]:
                inv = item["invariant"]
                keywords = ["while", "for"] if inv["type"] == "loop_invariant" else None
                located(inv["location"], keywords)
    print("valid %s witness: %d entries, %d locations" % (kind, len(doc), locations))


HARNESS = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>

#define MAX_INVARIANTS 256
int __invar_program_main(void);
static unsigned long long __invar_state;
/* Shared with the parent: checks in all runs, and per invariant the runs that checked it. */
static unsigned long long *__invar_shared;
static unsigned long long __invar_run_checks;
static char __invar_seen[MAX_INVARIANTS];
static long long __invar_history[64];
static int __invar_drawn;
static const long long __invar_pool[] = {0, 1, -1, 2, -2, 3, 7, 8, 10, 15, 16, 31, 32, 63, 64, 100, 127, 128, 255, 256,
  1000, 1024, 32767, 32768, 65535, 65536, 2147483647LL, -2147483647LL - 1, 4294967295LL};

static unsigned long long __invar_next(void) {
  /* splitmix64 */
  unsigned long long z = (__invar_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Small values, boundary values, a value drawn before in this run (so that
   two inputs are equal as often as programs test for it), or any value. */
static long long __invar_value(void) {
  unsigned long long r = __invar_next();
  long long v;
  switch (r % 5) {
  case 0: v = (long long)((r >> 8) % 33) - 16; break;
  case 1: v = __invar_pool[(r >> 8) % (sizeof __invar_pool / sizeof __invar_pool[0])]; break;
  case 2: if (__invar_drawn > 0) { v = __invar_history[(r >> 8) % (__invar_drawn < 64 ? __invar_drawn : 64)]; break; }
  /* fall through */
  default: v = (long long)__invar_next(); break;
  }
  __invar_history[__invar_drawn++ % 64] = v;
  return v;
}

int __invar_check(int id, int ok) {
  if (!ok) {
    fprintf(stderr, "invariant %d violated\n", id);
    fflush(stderr);
    _exit(3);
  }
  __sync_fetch_and_add(&__invar_shared[0], 1ULL);
  if (id < MAX_INVARIANTS && !__invar_seen[id]) {
    __invar_seen[id] = 1;
    __sync_fetch_and_add(&__invar_shared[1 + id], 1ULL);
  }
  if (++__invar_run_checks >= 100000) _exit(0);
  return 0;
}

int __VERIFIER_nondet_int(void) { return (int)__invar_value(); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)__invar_value(); }
unsigned int __VERIFIER_nondet_unsigned(void) { return (unsigned int)__invar_value(); }
short __VERIFIER_nondet_short(void) { return (short)__invar_value(); }
unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)__invar_value(); }
char __VERIFIER_nondet_char(void) { return (char)__invar_value(); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)__invar_value(); }
_Bool __VERIFIER_nondet_bool(void) { return (_Bool)(__invar_next() & 1); }
_Bool __VERIFIER_nondet__Bool(void) { return (_Bool)(__invar_next() & 1); }
void __VERIFIER_assume(int c) { if (!c) _exit(0); }
/* The program is true: reaching the error is a failure of the test. */
void __VERIFIER_error(void) { fprintf(stderr, "the error is reached\n"); _exit(4); }

/* argv: invariants, runs wanted per invariant, most runs, seed. */
int main(int argc, char **argv) {
  int invariants = atoi(argv[1]);
  unsigned long long wanted = strtoull(argv[2], 0, 10);
  long most = atol(argv[3]);
  unsigned long long seed = strtoull(argv[4], 0, 10);
  if (invariants > MAX_INVARIANTS) invariants = MAX_INVARIANTS;
  __invar_shared = mmap(0, (MAX_INVARIANTS + 1) * sizeof *__invar_shared, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  long runs = 0;
  for (;;) {
    unsigned long long least = ~0ULL;
    for (int k = 0; k < invariants; k++)
      if (__invar_shared[1 + k] < least) least = __invar_shared[1 + k];
    if (least >= wanted || runs >= most) {
      printf("runs %ld checks %llu least %llu\n", runs, __invar_shared[0], least);
      return 0;
    }
    pid_t pid = fork();
    if (pid == 0) {
      __invar_state = seed * 1000003ULL + (unsigned long long)runs;
      /* A prefix of a run is a run too: 20 ms of it are enough. */
      struct itimerval limit = {{0, 0}, {0, 20000}};
      setitimer(ITIMER_REAL, &limit, 0);
      __invar_program_main();
      _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    runs++;
    if (WIFEXITED(status) && WEXITSTATUS(status) >= 3) {
      printf("run %ld (seed %llu) ends with %d\n", runs - 1, seed, WEXITSTATUS(status));
      return WEXITSTATUS(status);
    }
  }
}
"""


def ilp32(text):
    """The program with ILP32's 32-bit `long` spelt `int`, for a 64-bit gcc
    (no -m32 libraries are needed): `long long` stays, `long int` and
    `long` become `int`. Offsets change, so this runs after instrumenting."""
    text = re.sub(r"\blong\s+long\b", "__invar_long_long", text)
    text = re.sub(r"\blong\s+int\b", "int", text)
    text = re.sub(r"\bint\s+long\b", "int", text)
    text = re.sub(r"\blong\b", "int", text)
    return text.replace("__invar_long_long", "long long")


def condition_start(text, offset, keyword):
    """Offset in `text` where the loop condition starts, for a loop whose
    keyword starts at `offset`: after `while (`, or after the first `;` of
    `for (` at depth one. Returns (offset, empty condition)."""
    i = offset + len(keyword)
    while text[i].isspace():
        i += 1
    if text[i] != "(":
        fail("no ( after %s" % keyword)
    i += 1
    if keyword == "while":
        return i, False
    depth = 1
    while True:
        c = text[i]
        if c in "\"'":
            quote = c
            i += 1
            while text[i] != quote:
                i += 2 if text[i] == "\\" else 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ";" and depth == 1:
            j = i + 1
            while text[j].isspace():
                j += 1
            return i + 1, text[j] == ";"
        i += 1


def check_runs(witness_path, program_path, runs, seed):
    doc = load(witness_path)
    with open(program_path) as f:
        text = f.read()
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    insertions = []
    ids = []
    for entry in doc:
        for item in entry["content"]:
            inv = item["invariant"]
            loc = inv["location"]
            offset = starts[loc["line"] - 1] + loc.get("column", 1) - 1
            if inv["type"] == "loop_invariant":
                keyword = "while" if text.startswith("while", offset) else "for"
                at, empty = condition_start(text, offset, keyword)
                check = "__invar_check(%d, !!(%s)), " % (len(ids), inv["value"])
                insertions.append((at, check + ("1" if empty else "")))
            else:
                insertions.append((offset, "__invar_check(%d, !!(%s)); " % (len(ids), inv["value"])))
            ids.append(inv["value"])
    if not ids:
        print("runs 0 checks 0 (no invariant)")
        return
    for at, code in sorted(insertions, reverse=True):
        text = text[:at] + code + text[at:]
    if doc[0]["metadata"]["task"]["data_model"] == "ILP32":
        text = ilp32(text)
    text = "int __invar_check(int id, int ok);\n" + text
    with tempfile.TemporaryDirectory() as d:
        program = os.path.join(d, "program.c")
        harness = os.path.join(d, "harness.c")
        binary = os.path.join(d, "run")
        with open(program, "w") as f:
            f.write(text)
        with open(harness, "w") as f:
            f.write(HARNESS)
        cc = subprocess.run(["gcc", "-w", "-O1", "-fno-builtin", "-Dmain=__invar_program_main",
                             "-c", program, "-o", program + ".o"], capture_output=True, text=True)
        if cc.returncode != 0:
            fail("gcc refuses the instrumented program: " + cc.stderr[:2000])
        cc = subprocess.run(["gcc", "-w", "-O1", harness, program + ".o", "-o", binary],
                            capture_output=True, text=True)
        if cc.returncode != 0:
            fail("gcc refuses the harness: " + cc.stderr[:2000])
        # Up to 50 times the runs wanted, until each invariant was checked
        # in that many runs.
        out = subprocess.run([binary, str(len(ids)), str(runs), str(50 * runs), str(seed)],
                             capture_output=True, text=True)
        if out.returncode != 0:
            m = re.search(r"invariant (\d+) violated", out.stderr)
            which = ids[int(m.group(1))] if m else "?"
            fail("%s%s: invariant %r" % (out.stdout, out.stderr, which))
        print(out.stdout.strip())


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "schema":
        check_schema(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 6 and sys.argv[1] == "runs":
        check_runs(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()

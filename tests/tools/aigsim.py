#!/usr/bin/env python3
"""Independent AIGER witness checker, written apart from invar's Rust code.

usage: aigsim.py MODEL WITNESS
Reads an ASCII or binary AIGER 1.9 model and an HWMCC witness ("1", "b<i>...",
initial latch line, input lines, "."), simulates it with three-valued logic
and exits 0 if every claimed bad property is 1 at some step while all
invariant constraints hold in every step up to it; exits 1 otherwise.
Outputs count as bad properties when the model has no bad and no justice.
"""
import re
import sys


def read_aiger(path, symbols=None):
    """The model's literals; if `symbols` is a dict, it receives the symbol
    table as {("i"|"l"|"o"|"b"|"c"|"j"|"f", position): name}."""
    data = open(path, "rb").read()
    pos = 0

    def line():
        nonlocal pos
        end = data.index(b"\n", pos)
        text = data[pos:end].decode()
        pos = end + 1
        return text

    header = line().split()
    kind = header[0]
    counts = [int(x) for x in header[1:]] + [0] * (10 - len(header))
    m, i, l, o, a, b, c, j, f = counts[:9]
    inputs, latches, ands = [], [], {}
    if kind == "aag":
        for _ in range(i):
            inputs.append(int(line()))
        for _ in range(l):
            parts = [int(x) for x in line().split()]
            latches.append((parts[0], parts[1], parts[2] if len(parts) > 2 else 0))
    else:
        inputs = [2 * (k + 1) for k in range(i)]
        for k in range(l):
            parts = [int(x) for x in line().split()]
            lit = 2 * (i + k + 1)
            latches.append((lit, parts[0], parts[1] if len(parts) > 1 else 0))
    outputs = [int(line()) for _ in range(o)]
    bad = [int(line()) for _ in range(b)]
    constraints = [int(line()) for _ in range(c)]
    sizes = [int(line()) for _ in range(j)]
    for s in sizes:
        for _ in range(s):
            line()
    for _ in range(f):
        line()
    if kind == "aag":
        for _ in range(a):
            lhs, r0, r1 = (int(x) for x in line().split())
            ands[lhs >> 1] = (r0, r1)
    else:
        def delta():
            nonlocal pos
            value, shift = 0, 0
            while True:
                byte = data[pos]
                pos += 1
                value |= (byte & 0x7F) << shift
                if byte & 0x80 == 0:
                    return value
                shift += 7
        for k in range(a):
            lhs = 2 * (i + l + k + 1)
            r0 = lhs - delta()
            r1 = r0 - delta()
            ands[lhs >> 1] = (r0, r1)
    if symbols is not None:
        while pos < len(data):
            end = data.find(b"\n", pos)
            end = len(data) if end < 0 else end
            text = data[pos:end].decode(errors="replace")
            pos = end + 1
            m = re.match(r"([ilobcjf])(\d+) (.*)$", text)
            if not m:
                break  # the comment section, or the end
            symbols[(m.group(1), int(m.group(2)))] = m.group(3)
    if not bad and j == 0:
        bad = outputs
    return inputs, latches, ands, bad, constraints


def simulate(inputs, latches, ands, init, vectors):
    """Three-valued simulation (None: unknown) from the witness's initial
    latch line `init` under the input lines `vectors`; yields, per step, a
    function from a literal to its value in that step."""
    X = None
    state = {}
    for (lit, nxt, reset), ch in zip(latches, init):
        if reset in (0, 1):
            state[lit >> 1] = reset
        else:
            state[lit >> 1] = X if ch == "x" else int(ch)
    for vec in vectors:
        assert len(vec) == len(inputs), "input line width"
        value = {0: 0}

        def ev(lit):
            v = value[lit >> 1]
            return X if v is X else v ^ (lit & 1)

        def gate(var):
            stack = [var]
            while stack:
                v = stack[-1]
                if v in value:
                    stack.pop()
                    continue
                r0, r1 = ands[v]
                pending = [r >> 1 for r in (r0, r1) if (r >> 1) not in value]
                if pending:
                    stack.extend(pending)
                    continue
                x, y = ev(r0), ev(r1)
                value[v] = 0 if (x == 0 or y == 0) else (1 if (x == 1 and y == 1) else X)
                stack.pop()

        for lit, ch in zip(inputs, vec):
            value[lit >> 1] = X if ch == "x" else int(ch)
        value.update(state)
        for var in list(ands):
            gate(var)
        yield ev
        state = {lit >> 1: ev(nxt) for (lit, nxt, _) in latches}


def main():
    inputs, latches, ands, bad, constraints = read_aiger(sys.argv[1])
    lines = [x.strip() for x in open(sys.argv[2]).read().split("\n")]
    while lines and (lines[0].startswith("c") or lines[0] == ""):
        lines.pop(0)
    if lines[0] != "1":
        print("witness does not claim a counterexample")
        return 1
    if "j" in lines[1]:
        # A lasso needs its loop checked: aigsim 1.9.26 does that
        # (tests/tools/aiger); this checker does not claim to.
        print("justice witnesses (lassos) are not checked here: use aigsim 1.9.26")
        return 1
    claimed = [int(x) for x in re.findall(r"b(\d+)", lines[1])]
    init = lines[2]
    vectors = []
    for text in lines[3:]:
        if text == ".":
            break
        vectors.append(text)
    assert len(init) == len(latches), "latch line width"
    for (lit, nxt, reset), ch in zip(latches, init):
        if ch in "01" and reset in (0, 1) and int(ch) != reset:
            print("initial latch value contradicts reset")
            return 1
    hit = set()
    for step, ev in enumerate(simulate(inputs, latches, ands, init, vectors)):
        # Reset functions (AIGER 1.9.23): a latch's first value is its reset
        # literal's, under the first step's inputs.
        for (lit, nxt, reset) in latches:
            if step == 0 and reset not in (0, 1, lit) and (ev(lit) is None or ev(lit) != ev(reset)):
                print("initial value of latch %d does not match reset function %d" % (lit, reset))
                return 1
        if any(ev(cl) != 1 for cl in constraints):
            break
        for p in claimed:
            if ev(bad[p]) == 1:
                hit.add(p)
    missing = [p for p in claimed if p not in hit]
    if missing:
        print("not reached: " + " ".join("b%d" % p for p in missing))
        return 1
    print("all claimed properties reached")
    return 0


if __name__ == "__main__":
    sys.exit(main())

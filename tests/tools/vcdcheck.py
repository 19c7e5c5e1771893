#!/usr/bin/env python3
"""Independent check of invar's waveforms, written apart from its Rust code.

usage: vcdcheck.py aiger MODEL WITNESS VCD
       vcdcheck.py btor2 WITNESS VCD
       vcdcheck.py vmt COUNTEREXAMPLE VCD

Reads the Value Change Dump with its own parser and compares every value it
shows with an oracle:
- aiger: the model simulated under the HWMCC witness by aigsim.py's
  three-valued simulator. Every input, latch and bad property must appear
  under its symbol (or i<k>, l<k>, b<k>), bits named x[i] gathered into one
  word x, with the simulated value in every step.
- btor2: the BTOR2 witness itself. Every state it gives in frame 0 and every
  input it gives in any frame must appear under its name with that value in
  that step (array elements excepted), and the VCD must have exactly the
  witness's steps.
- vmt: invar's VMT counterexample (`check --witness`: ";; step k" then
  (= name value) pairs): every Bool and bit-vector value it gives must be
  shown (a name's whitespace as '_', without |quotes|), with exactly its
  steps.
Exits 0 if all agree, 1 with the first difference otherwise.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import aigsim  # noqa: E402


def read_vcd(path):
    """{name: [(width, [value text per step])]} and the number of steps.
    A value is the bit string, most significant bit first, or 'r<number>'."""
    tokens = open(path).read().split()
    pos = 0
    signals = {}  # id -> (name, width, kind)
    order = []
    while pos < len(tokens):
        t = tokens[pos]
        if t == "$var":
            kind, width, ident, name = tokens[pos + 1 : pos + 5]
            end = tokens.index("$end", pos)
            signals[ident] = (name, int(width), kind)
            order.append(ident)
            pos = end + 1
        elif t == "$enddefinitions":
            pos = tokens.index("$end", pos) + 1
            break
        elif t.startswith("$"):
            pos = tokens.index("$end", pos) + 1
        else:
            raise SystemExit("unexpected token %r in the header" % t)
    current = {}
    steps = []
    time = None
    while pos < len(tokens):
        t = tokens[pos]
        pos += 1
        if t.startswith("#"):
            if time is not None:
                steps.append(dict(current))
            time = int(t[1:])
            if time != len(steps):
                raise SystemExit("time %d where %d was expected" % (time, len(steps)))
        elif t in ("$dumpvars", "$end"):
            continue
        elif t[0] in "bB":
            current[tokens[pos]] = t[1:]
            pos += 1
        elif t[0] in "rR":
            current[tokens[pos]] = "r" + t[1:]
            pos += 1
        elif t[0] in "01xXzZ":
            current[t[1:]] = t[0].lower()
        else:
            raise SystemExit("unexpected value change %r" % t)
    # The last time stamp closes the last step.
    result = {}
    for ident in order:
        name, width, kind = signals[ident]
        values = []
        for step in steps:
            v = step.get(ident)
            if v is None:
                raise SystemExit("%s has no value in some step" % name)
            if not v.startswith("r"):
                v = v.rjust(width, "0") if v[0] in "01" else v.rjust(width, v[0])
            values.append(v)
        result.setdefault(name, []).append((width, values))
    return result, len(steps)


def bit(v):
    return "x" if v is None else str(v)


def check_aiger(model, witness, vcd):
    symbols = {}
    inputs, latches, ands, bad, constraints = aigsim.read_aiger(model, symbols)
    lines = [x.strip() for x in open(witness).read().split("\n")]
    while lines and (lines[0].startswith("c") or lines[0] == ""):
        lines.pop(0)  # leading comments; empty lines later are input vectors
    init = lines[2]
    vectors = []
    for text in lines[3:]:
        if text == ".":
            break
        vectors.append(text)
    # Expected signals: name -> list of {index: literal} (a bus) per kind.
    expected = {}
    groups = [("i", inputs), ("l", [lit for (lit, _, _) in latches]), ("b", bad)]
    for kind, lits in groups:
        buses = {}
        for k, lit in enumerate(lits):
            name = symbols.get((kind, k), "%s%d" % (kind, k))
            m = re.match(r"(.+)\[(\d+)\]$", name)
            if m:
                buses.setdefault(m.group(1), {})[int(m.group(2))] = lit
            else:
                expected.setdefault(name, []).append({0: lit})
        for base, bits in buses.items():
            expected.setdefault(base, []).append(bits)
    # The simulator's values, read out while each step is current.
    literals = {lit for buses in expected.values() for bits in buses for lit in bits.values()}
    trace = []
    for ev in aigsim.simulate(inputs, latches, ands, init, vectors):
        trace.append({lit: ev(lit) for lit in literals})
    shown, steps = read_vcd(vcd)
    if steps != len(vectors):
        return "the VCD has %d steps, the witness %d" % (steps, len(vectors))
    for name, buses in expected.items():
        got = shown.get(name, [])
        if len(got) != len(buses):
            return "%s: %d signals shown, %d expected" % (name, len(got), len(buses))
        for bits, (width, values) in zip(buses, got):
            lo, hi = min(bits), max(bits)
            if width != hi - lo + 1 or len(bits) != width:
                return "%s: width %d, expected %d" % (name, width, len(bits))
            for step, value in enumerate(trace):
                want = "".join(bit(value[bits[i]]) for i in range(hi, lo - 1, -1))
                if values[step] != want:
                    return "%s in step %d: %s shown, %s simulated" % (
                        name, step, values[step], want)
    extra = set(shown) - set(expected)
    if extra:
        return "signals the model does not have: %s" % sorted(extra)
    return None


def check_btor2(witness, vcd):
    shown, steps = read_vcd(vcd)
    frames = 0
    section = None
    for text in open(witness).read().split("\n"):
        text = text.strip()
        if not text or text.startswith(";"):
            continue
        if text[0] == "#":
            section, frame = "state", int(text[1:])
            continue
        if text[0] == "@":
            section, frame = "input", int(text[1:])
            frames = max(frames, frame + 1)
            continue
        if text in ("sat", ".") or text[0] == "b":
            continue
        parts = text.split()
        if len(parts) < 3 or parts[1].startswith("["):
            continue  # array elements, or an assignment without a name
        value, name = parts[1], re.sub(r"[@#]\d+$", "", parts[2])
        if section == "state" and frame != 0:
            continue  # the witness may give later states; they are derived
        got = shown.get(name)
        if not got:
            return "%s: not in the VCD" % name
        if all(values[frame] != value for (_, values) in got):
            return "%s in step %d: %s shown, %s in the witness" % (
                name, frame, [v[frame] for (_, v) in got], value)
    if steps != frames:
        return "the VCD has %d steps, the witness %d" % (steps, frames)
    return None


def check_vmt(counterexample, vcd):
    shown, steps = read_vcd(vcd)
    step = -1
    for text in open(counterexample).read().split("\n"):
        m = re.match(r";; step (\d+)", text.strip())
        if m:
            step = int(m.group(1))
            continue
        pairs = re.findall(r"\(= (\|[^|]*\||[^\s()]+) (#b[01]+|#x[0-9a-fA-F]+|true|false)\)", text)
        for name, value in pairs:
            name = re.sub(r"\s", "_", name.strip("|"))
            if value.startswith("#b"):
                bits = value[2:]
            elif value.startswith("#x"):
                bits = "".join(format(int(c, 16), "04b") for c in value[2:])
            else:
                bits = "1" if value == "true" else "0"
            got = shown.get(name)
            if not got:
                return "%s: not in the VCD" % name
            if all(values[step] != bits for (_, values) in got):
                return "%s in step %d: %s shown, %s in the counterexample" % (
                    name, step, [v[step] for (_, v) in got], bits)
    if steps != step + 1:
        return "the VCD has %d steps, the counterexample %d" % (steps, step + 1)
    return None


def main():
    if sys.argv[1] == "aiger":
        problem = check_aiger(*sys.argv[2:5])
    elif sys.argv[1] == "btor2":
        problem = check_btor2(*sys.argv[2:4])
    elif sys.argv[1] == "vmt":
        problem = check_vmt(*sys.argv[2:4])
    else:
        raise SystemExit(__doc__)
    if problem:
        print(problem)
        return 1
    print("the waveform agrees")
    return 0


if __name__ == "__main__":
    sys.exit(main())

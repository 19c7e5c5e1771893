#!/usr/bin/env bash
# Verilog to AIGER and BTOR2 through Yosys, for `invar check`.
#
#   examples/verilog/yosys-flow.sh DESIGN.sv TOP OUTDIR [-DNAME...]
#
# writes OUTDIR/TOP.aig (with a symbol table, and OUTDIR/TOP.aim, Yosys's
# map of inputs and latches to signal names) and OUTDIR/TOP.btor2.
# `read_verilog -formal` defines FORMAL and turns immediate `assert` and
# `assume` statements into $assert and $assume cells: each assert becomes
# a bad-state property, each assume an invariant constraint, in both
# formats. Registers keep their `initial` values; a register without one
# starts free (an AIGER latch without reset, a BTOR2 state without init).
# Designs with one clock: the clock input becomes an ordinary input that
# nothing reads, and every flip-flop steps once per transition.
# Further arguments are Verilog defines for read_verilog.
set -euo pipefail
usage="usage: yosys-flow.sh DESIGN.sv TOP OUTDIR [-DNAME...]"
design=${1:?$usage}
top=${2:?$usage}
out=${3:?$usage}
shift 3
defines="$*"
mkdir -p "$out"
# Common front: elaborate, flatten, make asynchronous resets and
# enable/reset flip-flops plain ones (AIGER has nothing else).
front="read_verilog -formal $defines $design; prep -top $top; flatten"
# AIGER: outputs go (only the properties are checked, and an AIGER output
# would count as a property for tools that read no bad section); memories
# become flip-flops; the logic becomes AND gates. -zinit keeps initial
# values through zero-initialised latches, with inputs for the free ones.
yosys -q -p "$front; delete -output; memory_map; opt -full; async2sync; dffunmap;
  techmap; opt -fast -nodffe -nosdff; abc -g AND -fast; opt_clean;
  write_aiger -zinit -symbols -map $out/$top.aim $out/$top.aig"
# BTOR2: word-level operators stay; memories stay arrays.
yosys -q -p "$front; memory -nomap; opt -full; async2sync; dffunmap;
  write_btor $out/$top.btor2"

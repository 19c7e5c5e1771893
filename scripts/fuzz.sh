#!/usr/bin/env bash
# Coverage-guided fuzzing of invar's readers with cargo-fuzz (libFuzzer).
#
#   scripts/fuzz.sh SECONDS [TARGET...]
#
# runs each target (all of them by default: aiger aiger_witness btor2
# btor2_witness vmt smtlib dimspec c) for SECONDS, one after the other,
# starting from the corpus in fuzz/corpus/TARGET (kept between runs, not
# committed), seeded from the conformance and malformed examples under
# formats/, the bundled samples and fuzz/seeds. A crash, a panic, a stack
# overflow or an input slower than 10 s stops the run with the input saved
# under fuzz/artifacts/TARGET and exit code 1.
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). libFuzzer's flags are
# unstable rustc options; RUSTC_BOOTSTRAP lets the stable toolchain take
# them. No sanitizer: the readers are safe Rust, and what is hunted here is
# panics, overflows of the stack or of integers (debug assertions are on),
# hangs and memory blow-ups.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(aiger aiger_witness btor2 btor2_witness vmt smtlib dimspec c)
fi
export RUSTC_BOOTSTRAP=1

# Seeds: small files only (libFuzzer's inputs stay below max_len anyway).
seed() {
  local target=$1
  shift
  local dir=fuzz/corpus/$target
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] || continue
    [ "$(stat -c %s "$f")" -le 65536 ] || continue
    cp -n "$f" "$dir/$(basename "$f")" 2>/dev/null || true
  done
}
seed aiger formats/aiger/*.aag formats/aiger/malformed/* hwmcc-samples/*.aig
seed aiger_witness fuzz/seeds/aiger_witness/*
seed btor2 formats/btor2/*.btor2 formats/btor2/malformed/* hwmcc-samples/btor2/*.btor2
seed btor2_witness fuzz/seeds/btor2_witness/*
seed vmt formats/vmt/*.vmt formats/vmt/malformed/* hwmcc-samples/vmt/*.vmt
seed smtlib formats/vmt/*.vmt formats/vmt/malformed/* hwmcc-samples/vmt/*.vmt
seed dimspec formats/dimspec/*.dimspec formats/dimspec/malformed/*
# C: the front end's input is preprocessed text.
mkdir -p fuzz/corpus/c
for f in tests/c/*.c tests/c/*.i; do
  out=fuzz/corpus/c/$(basename "$f").i
  [ -f "$out" ] && continue
  case "$f" in
    *.i) cp "$f" "$out" ;;
    *) gcc -E -P "$f" -o "$out" 2>/dev/null || rm -f "$out" ;;
  esac
done

declare -A dict=([btor2]=btor2 [vmt]=smtlib [smtlib]=smtlib [dimspec]=dimspec [c]=c)
declare -A max_len=([aiger]=65536 [c]=8192)
status=0
for t in "${targets[@]}"; do
  flags=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096
         -max_len="${max_len[$t]:-16384}" -print_final_stats=1)
  if [ -n "${dict[$t]:-}" ]; then
    flags+=(-dict="fuzz/dict/${dict[$t]}.dict")
  fi
  echo "== $t: ${seconds}s"
  if ! cargo fuzz run --sanitizer none "$t" "fuzz/corpus/$t" -- "${flags[@]}"; then
    echo "== $t: FAILED (input saved under fuzz/artifacts/$t)"
    status=1
  fi
done
exit $status

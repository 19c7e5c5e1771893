#!/usr/bin/env bash
# Checks that the test suite notices a broken engine: builds invar with the
# `sabotage` feature and runs `cargo test --release` twice, once with every
# bit-level verdict turned into `unknown` and the word-level engines (SMT
# k-induction, IC3+IA) answering `unknown` at once, and once with one
# circuit in a hundred given the opposite bit-level verdict
# (src/engines/mod.rs, `sabotage`).
# Each run must fail; the script prints how many tests failed in each and
# exits 1 if a sabotaged engine went unnoticed.
#
# usage: scripts/sabotage.sh [extra cargo test args, e.g. --test differential]
# (SABOTAGE_MODES="unknown" runs one mode only)
set -uo pipefail
cd "$(dirname "$0")/.."
# A target directory of its own: the tests run target/release/invar, and a
# normal build there during the run would replace the sabotaged binary (and
# a sabotaged binary must not be left where the README's commands find it).
export CARGO_TARGET_DIR=target/sabotage
status=0
for mode in ${SABOTAGE_MODES:-unknown flip}; do
  log=$(mktemp)
  INVAR_SABOTAGE=$mode cargo test --release --features sabotage --no-fail-fast "$@" >"$log" 2>&1
  failed=$(grep -E '^test .* FAILED$' "$log" | sed 's/^test //; s/ \.\.\. FAILED$//' | sort -u)
  count=$(printf '%s' "$failed" | grep -c . || true)
  echo "INVAR_SABOTAGE=$mode: $count tests failed"
  printf '%s\n' "$failed" | sed 's/^/  /' | head -40
  if [ "$count" -eq 0 ]; then
    echo "  the sabotaged engine ($mode) went unnoticed"
    status=1
  fi
  rm -f "$log"
done
exit $status

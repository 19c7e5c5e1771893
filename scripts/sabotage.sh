#!/usr/bin/env bash
# Checks that the test suite notices a broken engine: builds invar with the
# `sabotage` feature and runs `cargo test --release` twice, once with every
# bit-level verdict turned into `unknown` and once with one model in a
# hundred given the opposite verdict (src/engines/mod.rs, `sabotage`).
# Each run must fail; the script prints how many tests failed in each and
# exits 1 if a sabotaged engine went unnoticed.
#
# usage: scripts/sabotage.sh [extra cargo test args, e.g. --test differential]
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
for mode in unknown flip; do
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

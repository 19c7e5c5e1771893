#!/usr/bin/env bash
# Differential fuzzing of invar's SAT core on real IC3 queries: runs IC3 on
# each instance given (on the core, with its API traced), then replays every
# trace, checking each answer, model and failed core against CaDiCaL.
#
# usage: scripts/core-fuzz.sh SECONDS FILE...     (INVAR= another binary)
set -euo pipefail
seconds=$1; shift
invar=${INVAR:-$(dirname "$0")/../target/release/invar}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
total=0
for f in "$@"; do
  rm -f "$dir"/*.trace
  INVAR_CORE_TRACE=$dir "$invar" check "$f" --engine ic3 --timeout "$seconds" >/dev/null || true
  out=$("$invar" core-replay "$dir"/*.trace) || { echo "$f: $out"; exit 3; }
  n=${out%% *}
  total=$((total + n))
  echo "$(basename "$f"): $out"
done
echo "total: $total queries agree"

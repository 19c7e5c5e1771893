#!/usr/bin/env bash
# SV-COMP witnesses on a set of C programs with expected verdicts:
#
#   scripts/svcomp-witnesses.sh DIR [TIMEOUT] [RUNS]
#
# DIR holds the programs and a SOURCES.tsv (file in column 1, expected
# unreach-call verdict in column 5, as ../shared/bench/c and tests/c).
# Each program is checked with `--witness-out` (TIMEOUT seconds, default
# 60); every witness is validated against the 2.0 schema and every
# invariant checked on RUNS concrete runs (default 1000) by
# tests/tools/witnesscheck.py. Prints one line per program and the counts.
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/svcomp-witnesses.sh DIR [TIMEOUT] [RUNS]}
timeout=${2:-60}
runs=${3:-1000}
invar=${INVAR:-target/release/invar}
out=$(mktemp -d)
declare -i decided=0 valid=0 held=0 wrong=0 bad=0 loops=0
while IFS=$'\t' read -r file _ _ _ expected _; do
  [ "$file" = file ] && continue
  case "$expected" in true|false) ;; *) continue ;; esac
  program=$dir/$file
  [ -f "$program" ] || continue
  witness=$out/$file.yml
  $invar check "$program" --witness-out "$witness" --timeout "$timeout" >/dev/null 2>"$out/err"
  code=$?
  case $code in
    20) verdict=true; kind=correctness ;;
    10) verdict=false; kind=violation ;;
    *) echo "$file: no verdict ($code)"; continue ;;
  esac
  decided+=1
  if [ "$verdict" != "$expected" ]; then
    echo "$file: WRONG verdict $verdict"; wrong+=1; continue
  fi
  if [ ! -f "$witness" ]; then
    echo "$file: $verdict, NO WITNESS: $(tail -1 "$out/err")"; bad+=1; continue
  fi
  if ! schema=$(python3 tests/tools/witnesscheck.py schema "$witness" "$program" $kind); then
    echo "$file: $verdict, INVALID: $schema"; bad+=1; continue
  fi
  valid+=1
  if [ $kind = correctness ]; then
    n=$(grep -c '"loop_invariant"' "$witness")
    loops+=n
    if ! result=$(python3 tests/tools/witnesscheck.py runs "$witness" "$program" "$runs" 1); then
      echo "$file: true, INVARIANT FAILS: $result"; bad+=1; continue
    fi
    held+=1
    echo "$file: true, $n loop invariants, $result"
  else
    echo "$file: false, violation witness valid"
  fi
done < "$dir/SOURCES.tsv"
rm -rf "$out"
echo "decided $decided, wrong $wrong, valid witnesses $valid, correctness witnesses whose invariants held $held, loop invariants $loops, failures $bad"
[ $wrong -eq 0 ] && [ $bad -eq 0 ]

#!/bin/bash
# Builds every racy/ and fixed/ program and runs it plainly and under
# compute-sanitizer memcheck, racecheck and synccheck.
# Usage: run_checks.sh OUTDIR [JOBS]
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OUTDIR="${1:-$HERE/out}"
JOBS="${2:-8}"
TIMEOUT="${TIMEOUT:-60}"
mkdir -p "$OUTDIR/logs"
BUILD="$OUTDIR/build"
mkdir -p "$BUILD"

{
  echo "== nvcc"; nvcc --version
  echo "== compute-sanitizer"; which compute-sanitizer; compute-sanitizer --version
  echo "== gpu"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} > "$OUTDIR/env.txt" 2>&1

progs=$(cd "$HERE" && ls -d */ | tr -d / | while read p; do [ -d "$HERE/$p/racy" ] && echo "$p"; done)

build_one() {
  p="$1"; v="$2"
  nvcc -lineinfo -arch=sm_90 -o "$BUILD/$p.$v" "$HERE/$p/$v"/*.cu > "$OUTDIR/logs/$p.$v.build.log" 2>&1
  echo "$p $v build rc=$?" >> "$OUTDIR/logs/$p.$v.build.log"
}
export -f build_one
export HERE OUTDIR BUILD TIMEOUT

for p in $progs; do for v in racy fixed; do echo "$p $v"; done; done |
  xargs -P "$JOBS" -n 2 bash -c 'build_one "$0" "$1"'

run_one() {
  p="$1"; v="$2"; t="$3"
  exe="$BUILD/$p.$v"
  log="$OUTDIR/logs/$p.$v.$t.log"
  if [ ! -x "$exe" ]; then echo "NOBUILD" > "$log"; return; fi
  start=$(date +%s%N)
  if [ "$t" = plain ] || [ "$t" = plain2 ]; then
    timeout "$TIMEOUT" "$exe" > "$log" 2>&1
  else
    timeout "$TIMEOUT" compute-sanitizer --tool "$t" --print-limit 20 "$exe" > "$log" 2>&1
  fi
  rc=$?
  end=$(date +%s%N)
  echo "__rc=$rc time_ms=$(( (end - start) / 1000000 ))" >> "$log"
}
export -f run_one

for p in $progs; do for v in racy fixed; do for t in plain plain2 memcheck racecheck synccheck; do
  echo "$p $v $t"; done; done; done |
  xargs -P "$JOBS" -n 3 bash -c 'run_one "$0" "$1" "$2"'

summ="$OUTDIR/summary.txt"
: > "$summ"
for p in $progs; do for v in racy fixed; do
  b=$(tail -1 "$OUTDIR/logs/$p.$v.build.log" | sed 's/.*build //')
  w=$(grep -c -i "warning" "$OUTDIR/logs/$p.$v.build.log")
  echo "### $p/$v  build $b  (warnings: $w)" >> "$summ"
  for t in plain plain2 memcheck racecheck synccheck; do
    log="$OUTDIR/logs/$p.$v.$t.log"
    rcl=$(grep '^__rc=' "$log" | tail -1)
    case $t in
      plain|plain2) info=$(grep -v '^__rc=' "$log" | tail -4 | tr '\n' '|') ;;
      racecheck) info=$(grep -E "RACECHECK SUMMARY|ERROR SUMMARY" "$log" | tr '\n' '|') ;;
      *) info=$(grep -E "ERROR SUMMARY" "$log" | tr '\n' '|') ;;
    esac
    first=""
    if [ "$t" != plain ] && [ "$t" != plain2 ]; then
      first=$(grep -E "^========= (Invalid|Error|Warning|Barrier|Race|Divergent|.*hazard)" "$log" | head -2 | tr '\n' '|')
      where=$(grep -E "^=========     at " "$log" | head -2 | tr '\n' '|')
      first="$first $where"
    fi
    echo "  $t: $rcl :: $info $first" >> "$summ"
  done
done; done
# Extra runs at other argument values: lines "prog variant tool args..."
if [ -f "$HERE/extras.txt" ]; then
  echo "== extra runs (other argument values)" >> "$summ"
  while read -r p v t args; do
    [ -z "$p" ] && continue
    exe="$BUILD/$p.$v"
    log="$OUTDIR/logs/$p.$v.$t.extra.$(echo $args | tr ' ' '_').log"
    if [ "$t" = plain ]; then
      timeout "$TIMEOUT" "$exe" $args < /dev/null > "$log" 2>&1
    else
      timeout "$TIMEOUT" compute-sanitizer --tool "$t" --print-limit 20 "$exe" $args < /dev/null > "$log" 2>&1
    fi
    rc=$?
    info=$(grep -E "RACECHECK SUMMARY|ERROR SUMMARY|OK|MISMATCH|Assertion" "$log" | tail -3 | tr '\n' '|')
    echo "  $p/$v $t [$args]: rc=$rc :: $info" >> "$summ"
  done < "$HERE/extras.txt"
fi
cat "$summ"

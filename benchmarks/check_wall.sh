#!/usr/bin/env bash
# Wall time of a complete `simu check FILE` (search + detection, process start included, launch lines
# ignored) on every corpus file, one at a time; prints the median, mean, p90 and max.
# Usage: benchmarks/check_wall.sh [corpus-dir]   (run from the repository root, simu installed)
set -uo pipefail
root="${1:-corpus}"
out=$(mktemp)
while IFS= read -r f; do
  s=$(date +%s.%N); simu check "$f" --format json > /dev/null 2>&1; e=$(date +%s.%N)
  echo "$s $e $f" >> "$out"
done < <(find "$root" \( -name '*.cu' -o -name '*.cl' \) | sort)
python3 - "$out" <<'P'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
t = sorted(float(e) - float(s) for s, e, _ in rows)
print(f"files={len(t)} median={statistics.median(t):.2f}s mean={statistics.fmean(t):.2f}s "
      f"p90={t[int(0.9 * (len(t) - 1))]:.2f}s max={t[-1]:.2f}s")
P
rm -f "$out"

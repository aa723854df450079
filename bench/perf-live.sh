#!/usr/bin/env bash
# usage: bench/perf-live.sh BIN OUT.data   — perf record of the three live scenarios ×20 against a sandbox process
set -euo pipefail
bin=$1; out=$2
cd "$(dirname "$0")/.."
w=$(mktemp -d)
$bin sandbox --port 0 --legacy-port 0 --accounts bench/sandbox-accounts.json --write-vars $w/vars.yaml > $w/sb.log 2>&1 &
sb=$!
for _ in $(seq 100); do [[ -s $w/vars.yaml ]] && break; sleep 0.1; done
three="scenarios/live/repairminder-staff-session-lifecycle.yaml scenarios/live/repairminder-customer-company-selection.yaml scenarios/live/supabase-session-lifecycle.yaml"
/usr/bin/time -f "%e s wall, %U user, %S sys, %M KiB, %c involuntary + %w voluntary context switches" $bin run $three --vars-file $w/vars.yaml --repeat 20 --quiet > /dev/null 2> $w/time.txt || true
tail -1 $w/time.txt
perf record -g -o $out $bin run $three --vars-file $w/vars.yaml --repeat 20 --quiet > /dev/null 2>&1 || true
kill $sb

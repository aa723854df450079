#!/usr/bin/env bash
# FlowSpec benchmarks (docs/performance.md). Usage: bench/run.sh [--debug] [--quick]
# Builds the release binary (or measures $BENCH_BIN); prints one line per measure. Run from anywhere; needs /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
config=release; repeats=3; scale=1
for arg in "$@"; do
  case $arg in
    --debug) config=debug ;;
    --quick) repeats=1; scale=10 ;;   # smaller runs, for CI smoke checks of this script
    *) echo "unknown option $arg (use --debug, --quick)" >&2; exit 2 ;;
  esac
done
# BENCH_BIN=path measures that binary instead of building one (e.g. an older commit's, for a before/after table).
if [[ -n "${BENCH_BIN:-}" ]]; then
  bin="$BENCH_BIN"
else
  swift build -c "$config" --product flowspec >"${TMPDIR:-/tmp}/flowspec-bench-build.log" 2>&1 || { tail -30 "${TMPDIR:-/tmp}/flowspec-bench-build.log" >&2; exit 1; }
  bin=".build/$config/flowspec"
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export NO_COLOR=1

# elapsed seconds, peak RSS (KiB) and CPU seconds (user + system) of a command, its output discarded; fails
# loudly if the command fails.
measure() {
  /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" >"$work/out" 2>&1 || { echo "failed: $*" >&2; tail -20 "$work/out" >&2; exit 1; }
  awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$work/time"
}
# the fastest of $repeats runs: "seconds kib cpu-seconds"
best() {
  local best_s="" best_k="" best_c=""
  for ((r = 0; r < repeats; r++)); do
    read -r s k c < <(measure "$@")
    if [[ -z $best_s ]] || awk "BEGIN{exit !($s < $best_s)}"; then best_s=$s; best_k=$k; best_c=$c; fi
  done
  echo "$best_s $best_k $best_c"
}
rate() { awk "BEGIN{ printf \"%.0f\", $1 / ($2 > 0 ? $2 : 0.01) }"; }

echo "machine: $(nproc) cores, $(awk '/model name/{ $1=$2=$3=""; print; exit }' /proc/cpuinfo | sed 's/^ *//'), $(awk '/MemTotal/{ printf "%.0f GiB", $2/1048576 }' /proc/meminfo); $(swift --version 2>&1 | head -1); build: $config"

read -r s k c < <(best "$bin" --version)
echo "start-up alone, flowspec --version: ${s} s, peak ${k} KiB"

read -r s k c < <(best "$bin" check flows)
echo "cold start, flowspec check flows ($(find flows -name '*.yaml' | wc -l) files): ${s} s, peak ${k} KiB"

mkdir -p "$work/big/flows/bench"
bench/generate-flow.sh 1000 > "$work/big/flows/bench/big.yaml"
read -r s k c < <(best "$bin" check "$work/big/flows")
echo "load + check of a generated 1,000-state flow: ${s} s, peak ${k} KiB"

scripted=$("$bin" run scenarios --tag 'not live' --list | tail -1 | awk '{ print $1 }')
n=$((20 / scale)); [[ $n -lt 1 ]] && n=1
read -r s k c < <(best "$bin" run scenarios --tag 'not live' --repeat "$n" --quiet)
echo "scripted scenario runs: $((scripted * n)) in ${s} s = $(rate $((scripted * n)) "$s") runs/s, ${c} s CPU = $(awk "BEGIN{ printf \"%.0f\", $c * 1e6 / $((scripted * n)) }") µs CPU a run (shipped scripted suite × $n, --jobs $(nproc))"

live=$("$bin" run scenarios/live --list | tail -1 | awk '{ print $1 }')
# Once each: the suite is not repeatable within one sandbox (an authenticator code, once accepted, is refused for the
# rest of its 30 s window, as the TOTP scenario checks); the three-flow benchmark below repeats.
n=1
for jobs in 1 4; do
  read -r s k c < <(best "$bin" run scenarios/live --repeat "$n" --quiet --jobs "$jobs")
  echo "live scenario runs against the embedded sandbox: $((live * n)) in ${s} s = $(rate $((live * n)) "$s") runs/s, ${c} s CPU with the sandbox (--jobs $jobs)"
done

# The three flows of the Tavern comparison (docs/performance.md, Against Tavern): staff password + 2FA → me → refresh → logout,
# a customer choosing a company, Supabase OTP → user → refresh → sign-out; against a sandbox in its own process, so
# the CPU measured is flowspec's alone. Supabase's one-code-a-minute limit is lowered (bench/sandbox-accounts.json).
"$bin" sandbox --port 0 --legacy-port 0 --accounts bench/sandbox-accounts.json --write-vars "$work/vars.yaml" >"$work/sandbox.log" 2>&1 &
sandbox_pid=$!
trap 'kill $sandbox_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do [[ -s "$work/vars.yaml" ]] && break; sleep 0.1; done
three=(scenarios/live/repairminder-staff-session-lifecycle.yaml scenarios/live/repairminder-customer-company-selection.yaml
       scenarios/live/supabase-session-lifecycle.yaml)
n=$((20 / scale)); [[ $n -lt 1 ]] && n=1
read -r s k c < <(best "$bin" run "${three[@]}" --vars-file "$work/vars.yaml" --repeat "$n" --quiet)
echo "live, the three benchmark scenarios × $n against a sandbox process: $(awk "BEGIN{ printf \"%.2f\", $c * 1000 / (3 * $n) }") ms CPU a scenario (${c} s CPU, ${s} s wall, peak ${k} KiB)"
kill $sandbox_pid 2>/dev/null || true

n=$((10000 / scripted / scale + 1))
read -r s k c < <(measure "$bin" run scenarios --tag 'not live' --repeat "$n" --quiet)
echo "peak memory for $((scripted * n)) scripted scenario runs: ${k} KiB (${s} s)"

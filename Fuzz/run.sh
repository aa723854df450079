#!/usr/bin/env bash
# Builds the fuzz targets (release, libFuzzer) and runs them on copies of their stored corpora.
#   Fuzz/run.sh <target|all> <seconds>     e.g. Fuzz/run.sh json 300, Fuzz/run.sh all 60
# Targets: flow scenario expression template json accounts response (Fuzz/Sources/fuzz-<target>).
# Fails (exit 1) when any target crashes, times out (-timeout=1 per input), runs out of memory
# (-rss_limit_mb=2048) or breaks an invariant; the input that did it is left in $FUZZ_ARTIFACTS (default
# Fuzz/.build/artifacts) and its path printed. The stored corpora are only read: CI never writes into the repo.
# Environment:
#   FUZZ_WORK=DIR        keep each target's working corpus in DIR/<target> (to grow a corpus over long runs)
#   FUZZ_SANITIZERS=...  -sanitize= value for the build (default: fuzzer; e.g. fuzzer,address)
#   FUZZ_ARGS="..."      extra libFuzzer flags (e.g. -jobs=2 -workers=2)
#   FUZZ_NO_BUILD=1      use the binaries already built
#   FUZZ_SCRATCH=DIR     build folder (default Fuzz/.build; a fresh one measures a clean build)
set -euo pipefail
cd "$(dirname "$0")"
fuzz_dir="$(pwd)"

all_targets=(flow scenario expression template json accounts response)
target="${1:?usage: Fuzz/run.sh <target|all> <seconds>}"
seconds="${2:?usage: Fuzz/run.sh <target|all> <seconds>}"
if [[ "$target" == all ]]; then targets=("${all_targets[@]}"); else targets=("$target"); fi
for t in "${targets[@]}"; do
    [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "unknown target '$t' (one of: ${all_targets[*]}, all)" >&2; exit 2; }
done

sanitizers="${FUZZ_SANITIZERS:-fuzzer}"
# One build folder per sanitizer set, so switching sets does not rebuild everything each time.
scratch="$fuzz_dir/.build"
[[ "$sanitizers" == fuzzer ]] || scratch="$fuzz_dir/.build-$(echo "$sanitizers" | tr ',' '-')"
scratch="${FUZZ_SCRATCH:-$scratch}"
if [[ -z "${FUZZ_NO_BUILD:-}" ]]; then
    build_started=$SECONDS
    # SwiftPM keeps the build plan of a path dependency until a manifest changes, so a file added to the main
    # package since the last fuzz build would be left out ("has no member" errors); touching ours re-plans.
    touch "$fuzz_dir/Package.swift"
    swift build -c release --scratch-path "$scratch" -Xswiftc "-sanitize=$sanitizers"
    echo "fuzz build: $((SECONDS - build_started)) s"
fi
bin="$(swift build -c release --scratch-path "$scratch" -Xswiftc "-sanitize=$sanitizers" --show-bin-path)"

artifacts="${FUZZ_ARTIFACTS:-$fuzz_dir/.build/artifacts}"
mkdir -p "$artifacts"
# A crash must end with libFuzzer's report, not minutes of Swift's symbolicated backtrace.
export SWIFT_BACKTRACE=enable=no
# With AddressSanitizer, LeakSanitizer is off: on Linux it cannot see pointers Swift stores with tag bits (indirect
# enum payloads, e.g. every parsed expression of the shipped flows a target keeps in a global) and reports them as
# leaked (llvm/llvm-project#56751). Memory errors are still caught, and real growth still stops a run at
# -rss_limit_mb. docs/reliability.md ("AddressSanitizer") has what was seen.
if [[ "$sanitizers" == *address* ]]; then export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"; fi
# The scenario target reads the shipped flows; say where the repository is wherever the binary was built.
export FLOWSPEC_FUZZ_ROOT="${FLOWSPEC_FUZZ_ROOT:-$(dirname "$fuzz_dir")}"

failed=()
summary=()
for t in "${targets[@]}"; do
    if [[ -n "${FUZZ_WORK:-}" ]]; then
        work="$FUZZ_WORK/$t"
        mkdir -p "$work"
    else
        work="$(mktemp -d)"
    fi
    cp -n "$fuzz_dir/Corpus/$t/"* "$work/" 2>/dev/null || true
    log="$artifacts/$t.log"
    echo "=== fuzz-$t: $seconds s on $(ls "$work" | wc -l) corpus inputs (log: $log)"
    started=$SECONDS
    status=0
    # shellcheck disable=SC2086
    "$bin/fuzz-$t" -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/$t-" ${FUZZ_ARGS:-} "$work" >"$log" 2>&1 || status=$?
    runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo '?')"
    line="fuzz-$t: exit $status, $runs executions in $((SECONDS - started)) s, corpus $(ls "$work" | wc -l) inputs ($(du -sh "$work" | cut -f1))"
    echo "$line"
    summary+=("$line")
    if [[ $status -ne 0 ]]; then
        failed+=("$t")
        grep -E 'ERROR: libFuzzer|SUMMARY|FUZZ INVARIANT|Fatal error|Test unit written|==[0-9]+==' "$log" | head -n 20 || true
        tail -n 40 "$log"
    fi
    [[ -n "${FUZZ_WORK:-}" ]] || rm -rf "$work"
done

echo
printf '%s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzzing failed: ${failed[*]} (inputs in $artifacts)" >&2
    exit 1
fi

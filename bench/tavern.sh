#!/usr/bin/env bash
# FlowSpec against Tavern (the Python API-testing tool) on the same three auth flows, request for request, against
# the same backend: one FlowSpec sandbox process started here. bench/tavern/RESULTS.md has the numbers and caveats.
#
#   bench/tavern.sh [-n N] [--quick]      (N repetitions, default 50; --quick: N=3, one run each instead of 3)
#
#   1. Repair Minder staff: login, 2fa/request, outbox (the emailed code), 2fa/verify, me, refresh, logout  (7 requests)
#   2. Repair Minder customer of two companies: request-magic-link, outbox, verify-code (the company list),
#      verify-code with companyId (the session)                                                          (4 requests)
#   3. Supabase phone OTP: /otp, /verify, /user, /token?grant_type=refresh_token                         (4 requests)
#
# FlowSpec: bench/tavern/flowspec/ (scenarios; bench/ holds the two flows that read the code over HTTP, the rest are
# the product flows of flows/). Tavern: bench/tavern/test_*.tavern.yaml. Both read codes with an HTTP GET of the
# sandbox outbox (not the curl of the shipped live scenarios' email_code_command).
#
# Each tool runs in one process with N repetitions inside it (flowspec run --repeat N; pytest --bench-repeat N, see
# bench/tavern/conftest.py), so start-up is amortised for both; and once, one-shot (one repetition, start-up
# included). Each measure is the best of 3 by CPU time (user + sys of the tool's process tree, /usr/bin/time; the
# sandbox is another process and is not counted, but its own CPU per flow is shown as a check that both tools made
# it do the same work). Every run must pass, else the script stops with exit 1. A last row measures FlowSpec as the
# shipped live scenarios read codes (a curl per code, bench/tavern/flowspec-curl), for reference only.
#
# BENCH_BIN=path measures that flowspec binary; default .build/release/flowspec (built if missing). Tavern is
# installed into bench/tavern/.venv from bench/tavern/requirements.txt if missing (PyPI; python3 -m venv).
set -euo pipefail
cd "$(dirname "$0")/.."
n=50; repeats=3
while [[ $# -gt 0 ]]; do
  case $1 in
    -n) n=$2; shift ;;
    --quick) n=3; repeats=1 ;;
    *) echo "unknown option $1 (use -n N, --quick)" >&2; exit 2 ;;
  esac
  shift
done
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "-n wants a positive whole number, got $n" >&2; exit 2; }

if [[ -n "${BENCH_BIN:-}" ]]; then
  bin="$BENCH_BIN"
else
  bin=.build/release/flowspec
  if [[ ! -x $bin ]]; then
    echo "building $bin (swift build -c release --product flowspec)..." >&2
    swift build -c release --product flowspec >"${TMPDIR:-/tmp}/flowspec-bench-build.log" 2>&1 ||
      { tail -30 "${TMPDIR:-/tmp}/flowspec-bench-build.log" >&2; exit 1; }
  fi
fi
[[ -x $bin ]] || { echo "no flowspec binary at $bin" >&2; exit 1; }

venv=bench/tavern/.venv
if ! "$venv/bin/python" -c 'import importlib.metadata as m, tavern, pytest; assert m.version("tavern") == "3.7.1"' 2>/dev/null; then
  echo "installing Tavern into $venv (bench/tavern/requirements.txt)..." >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r bench/tavern/requirements.txt
fi
py="$venv/bin/python"

work=$(mktemp -d)
sandbox_pid=""
cleanup() { [[ -n $sandbox_pid ]] && kill "$sandbox_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
export NO_COLOR=1
# requests honours proxy variables; flowspec never proxies loopback. Keep both direct.
export NO_PROXY="127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}" no_proxy="127.0.0.1,localhost${no_proxy:+,$no_proxy}"

# One sandbox for everything. bench/sandbox-accounts.json lowers Supabase's one-SMS-a-minute per phone to 1 ms;
# Repair Minder codes have no send limit, and each repetition asks for a fresh one.
"$bin" sandbox --port 0 --legacy-port 0 --accounts bench/sandbox-accounts.json --write-vars "$work/vars.yaml" \
  >"$work/sandbox.log" 2>&1 &
sandbox_pid=$!
for _ in $(seq 100); do [[ -s "$work/vars.yaml" ]] && break; sleep 0.1; done
[[ -s "$work/vars.yaml" ]] || { echo "the sandbox did not start:" >&2; cat "$work/sandbox.log" >&2; exit 1; }

# Tavern reads the same variables from a global config file.
{
  echo "name: FlowSpec sandbox"
  echo "description: the sandbox's --write-vars, for the Tavern tests"
  echo "variables:"
  grep -E '^(repairminder_url|supabase_url|supabase_anon_key|staff_email|staff_password|multi_customer_email|multi_customer_company_id|phone|phone_otp):' \
    "$work/vars.yaml" | sed 's/^/  /'
} >"$work/tavern.yaml"

# The command line of a tool's run, in the array `cmd`.
command_for() {  # tool, repetitions
  case $1 in
    flowspec) cmd=("$bin" run bench/tavern/flowspec --flows flows --vars-file "$work/vars.yaml" --repeat "$2" --quiet) ;;
    # Not the comparison: the shipped live scenarios' way of reading codes, a curl under /bin/sh (bench/tavern/flowspec-curl).
    flowspec-curl) cmd=("$bin" run bench/tavern/flowspec-curl bench/tavern/flowspec/supabase-phone.yaml --flows flows
                        --vars-file "$work/vars.yaml" --repeat "$2" --quiet) ;;
    tavern) cmd=("$py" -m pytest bench/tavern/test_rm_customer.tavern.yaml bench/tavern/test_rm_staff.tavern.yaml
                 bench/tavern/test_supabase.tavern.yaml "--tavern-global-cfg=$work/tavern.yaml" --bench-repeat "$2" -q) ;;
  esac
}

# Did every flow pass? flowspec's last line is "N passed, 0 failed" (", N skipped" if any: not a pass here);
# pytest's is "N passed[, K warnings] in S s" (failed, error, skipped, xfail... would be named there).
passed() {  # tool, repetitions, output file, exit code
  local want=$((3 * $2)) last
  last=$(grep -v '^\s*$' "$3" | tail -1)
  case $1 in
    flowspec | flowspec-curl) [[ $4 == 0 && $last == "$want passed, 0 failed" ]] ;;
    tavern) [[ $4 == 0 && $last =~ ^=*\ *$want\ passed(,\ [0-9]+\ warnings?)?\ in\  ]] ;;
  esac
}

sandbox_cpu() { awk '{ print $14 + $15 }' "/proc/$sandbox_pid/stat"; }  # clock ticks
hz=$(getconf CLK_TCK)

# One measured run: "cpu_s wall_s rss_kib sandbox_cpu_s"; exits the script if the run did not pass.
measure() {  # tool, repetitions
  local before after rc=0 cmd
  command_for "$1" "$2"
  before=$(sandbox_cpu)
  /usr/bin/time -f "%e %M %U %S" -o "$work/time" "${cmd[@]}" >"$work/out" 2>&1 || rc=$?
  after=$(sandbox_cpu)
  if ! passed "$1" "$2" "$work/out" "$rc"; then
    echo "FAILED: $1 × $2 (exit $rc) — a failing run makes the measure meaningless. Its output:" >&2
    tail -40 "$work/out" >&2
    exit 1
  fi
  awk -v sb="$(( after - before ))" -v hz="$hz" '{ printf "%.3f %.2f %d %.3f\n", $3 + $4, $1, $2, sb / hz }' "$work/time"
}
# The best (least CPU) of $repeats runs.
best() {
  local best="" line
  for ((r = 0; r < repeats; r++)); do
    line=$(measure "$1" "$2")
    if [[ -z $best ]] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best=$line; fi
  done
  echo "$best"
}

# Warm-up, not measured: page cache, Python's bytecode cache, the sandbox's first accounts.
measure flowspec 1 >/dev/null
measure tavern 1 >/dev/null

read -r f_cpu f_wall f_rss f_sb < <(best flowspec "$n")
read -r t_cpu t_wall t_rss t_sb < <(best tavern "$n")
read -r f1_cpu f1_wall f1_rss f1_sb < <(best flowspec 1)
read -r t1_cpu t1_wall t1_rss t1_sb < <(best tavern 1)
read -r c_cpu c_wall c_rss c_sb < <(best flowspec-curl "$n")

version=$("$bin" --version 2>&1 | head -1)
commit=$(git -C "$(dirname "$bin")" log --oneline -1 2>/dev/null | cut -c1-60 || true)
echo "FlowSpec vs Tavern, 3 flows × N, the same 15 requests (staff 7, customer 4, Supabase 4: 5 a flow on average)"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); flowspec: $bin ($version${commit:+; its checkout is now at $commit, which may be newer than the build})"
echo "tavern: $("$py" -c 'import importlib.metadata as m; print(m.version("tavern"), "/ pytest", m.version("pytest"), "/ requests", m.version("requests"))'), $("$py" --version 2>&1)"
echo "best of $repeats by CPU (user+sys of the tool's processes); sandbox = the server's CPU for the same runs"
printf '%-9s %-22s %12s %10s %9s %14s %14s\n' tool run "CPU ms/flow" "CPU s" "wall s" "peak RSS MiB" "sandbox ms/flow"
row() {  # tool, label, flows, cpu, wall, rss, sandbox
  printf '%-9s %-22s %12.2f %10.3f %9.2f %14.1f %14.2f\n' "$1" "$2" \
    "$(awk "BEGIN{ print $4 * 1000 / $3 }")" "$4" "$5" "$(awk "BEGIN{ print $6 / 1024 }")" "$(awk "BEGIN{ print $7 * 1000 / $3 }")"
}
row flowspec "× $n ($((3 * n)) flows)" $((3 * n)) "$f_cpu" "$f_wall" "$f_rss" "$f_sb"
row tavern "× $n ($((3 * n)) flows)" $((3 * n)) "$t_cpu" "$t_wall" "$t_rss" "$t_sb"
row flowspec "one-shot (3 flows)" 3 "$f1_cpu" "$f1_wall" "$f1_rss" "$f1_sb"
row tavern "one-shot (3 flows)" 3 "$t1_cpu" "$t1_wall" "$t1_rss" "$t1_sb"
echo "not compared, the shipped scenarios' way: codes by curl (email_code_command), the curl and sh processes counted:"
row flowspec "× $n, codes by curl" $((3 * n)) "$c_cpu" "$c_wall" "$c_rss" "$c_sb"
ratio() { awk "BEGIN{ printf \"%.1f\", ($1) / ($2 > 0 ? $2 : 0.001) }"; }
echo "Tavern / FlowSpec CPU: $(ratio "$t_cpu" "$f_cpu")× repeated (× $n), $(ratio "$t1_cpu" "$f1_cpu")× one-shot"
# Start-up and loading, from the two runs: (one-shot × n - repeated) / (n - 1) is the fixed cost, the rest per flow.
if ((n >= 10)); then
  echo "marginal CPU a flow (repeated - one-shot, over the extra $((3 * (n - 1))) flows): flowspec $(awk "BEGIN{ printf \"%.2f\", ($f_cpu - $f1_cpu) * 1000 / (3 * ($n - 1)) }") ms, tavern $(awk "BEGIN{ printf \"%.2f\", ($t_cpu - $t1_cpu) * 1000 / (3 * ($n - 1)) }") ms"
fi

#!/usr/bin/env bash
# The official-client check: FlowSpec's sandbox Supabase Auth driven by the official Python client
# (supabase-auth, pinned in requirements.txt), the way a Supabase app uses it. See README.md and docs/sandbox.md.
#
#   bash conformance/supabase-client/run.sh [path/to/flowspec]     (default: .build/debug/flowspec; builds nothing)
#
# Starts the sandbox in the background with sandbox-accounts.yaml, makes a throwaway virtualenv, installs the
# pinned client from PyPI, runs check.py, and stops the sandbox however the script ends.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
flowspec="${1:-$root/.build/debug/flowspec}"
[ -x "$flowspec" ] || { echo "no flowspec binary at $flowspec (build it first: swift build)" >&2; exit 2; }

work="$(mktemp -d)"
sandbox_pid=""
cleanup() {
    if [ -n "$sandbox_pid" ]; then
        kill "$sandbox_pid" 2>/dev/null || true
        wait "$sandbox_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

"$flowspec" sandbox --port 0 --legacy-port 0 --accounts "$here/sandbox-accounts.yaml" \
    --write-vars "$work/vars.yaml" >"$work/sandbox.log" 2>&1 &
sandbox_pid=$!

. "$here/../virtualenv.sh"
make_virtualenv "$work/venv" "$here/requirements.txt"

for _ in $(seq 1 300); do
    [ -s "$work/vars.yaml" ] && break
    kill -0 "$sandbox_pid" 2>/dev/null || { echo "the sandbox did not start:" >&2; cat "$work/sandbox.log" >&2; exit 1; }
    sleep 0.1
done
[ -s "$work/vars.yaml" ] || { echo "the sandbox wrote no variables within 30 s" >&2; cat "$work/sandbox.log" >&2; exit 1; }

# check.py waits out the send interval once; tell it the one the accounts file sets.
send_interval="$(sed -n 's/^ *send_interval: *\([0-9.]*\)s *$/\1/p' "$here/sandbox-accounts.yaml")"
echo "supabase_send_interval: \"${send_interval:-60}\"" >>"$work/vars.yaml"

"$work/venv/bin/python" "$here/check.py" "$work/vars.yaml"

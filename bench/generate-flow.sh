#!/usr/bin/env bash
# Writes a flow with N request states (default 1000) chained by guarded transitions, plus its end states:
# the 1,000-state flow of docs/performance.md. Usage: bench/generate-flow.sh [N] > DIR/flows/bench/big.yaml
set -euo pipefail
n=${1:-1000}
echo "flow: bench.big"
echo "variables: { path: \"\" }"
echo "start: s1"
echo "states:"
for ((i = 1; i <= n; i++)); do
  next=s$((i + 1)); [[ $i -eq $n ]] && next=done
  cat <<STATE
  s$i:
    request: { method: GET, path: "/step/$i", query: { attempt: "\${string(len(path))}" } }
    unreachable: offline
    on:
      - when: status == 200 && body.step == $i
        set: { path: "\${string(path)}$i" }
        goto: $next
      - when: status == 401 || status == 403
        goto: refused
      - else: true
        goto: refused
STATE
done
cat <<'END'
  done: { end: ok, success: true }
  refused: { end: refused, success: false }
  offline: { end: offline, success: false }
END

#!/usr/bin/env bash
# Proves the live suite has teeth: for each sandbox break (`flowspec sandbox --break list`), start a sandbox
# with that one promise broken, run scenarios/live against it, and print which scenarios failed.
# A line ending in NOT CAUGHT is a promise the suite does not check. Run from the repository root:
#
#   scenarios/live/check-breaks.sh                          # every break, default accounts
#   BREAKS="none codes-reusable" scenarios/live/check-breaks.sh     # some ("none": no break, all must pass)
#   ACCOUNTS=scenarios/live/sandbox-short-lifetimes.json \
#     BREAKS="accepts-expired-token traveling-accepts-expired-token" scenarios/live/check-breaks.sh
#
# The expiry breaks are caught only with short token lifetimes (or with --allow-wait and 15 minutes to spare:
# a live run waits at most 60 s, and an expiry scenario whose token lives longer is skipped). sms_phone/sms_code_command are given here from the sandbox's
# outbox, since the sandbox's --write-vars file does not (yet) include them.
set -u
FS=${FLOWSPEC:-.build/debug/flowspec}
SUITE=${SUITE:-scenarios/live}
ACCOUNTS=${ACCOUNTS:-}
BREAKS=${BREAKS:-$("$FS" sandbox --break list | grep -v '^ ')}
status=0
for b in $BREAKS; do
  vars=$(mktemp -u /tmp/flowspec-break-vars.XXXXXX).yaml
  args=(sandbox --port 0 --legacy-port 0 --write-vars "$vars")
  [ -n "$ACCOUNTS" ] && args+=(--accounts "$ACCOUNTS")
  [ "$b" = none ] || args+=(--break "$b")
  "$FS" "${args[@]}" > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 100); do [ -s "$vars" ] && break; sleep 0.1; done
  base=$(sed -n 's/^repairminder_url: "\(.*\)"/\1/p' "$vars")
  out=$("$FS" run "$SUITE" --vars-file "$vars" --quiet --var sms_phone=+15555550123 \
        --var "sms_code_command=curl -fsS -G --data-urlencode \"to=\${phone}\" $base/__sandbox/outbox/latest" 2>&1)
  kill "$pid"; wait "$pid" 2>/dev/null
  rm -f "$vars"
  failed=$(printf '%s\n' "$out" | sed -n 's/^FAIL .*(scenarios\/live\/\([^,]*\),.*/\1/p' | tr '\n' ' ')
  summary=$(printf '%s\n' "$out" | tail -1)
  if [ "$b" = none ]; then
    [ -z "$failed" ] || status=1
    printf '%-32s %-30s %s\n' "$b" "$summary" "${failed:-(all pass, as they should)}"
  else
    [ -n "$failed" ] || status=1
    printf '%-32s %-30s %s\n' "$b" "$summary" "${failed:-NOT CAUGHT}"
  fi
done
exit $status

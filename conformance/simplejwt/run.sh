#!/usr/bin/env bash
# Conformance: FlowSpec against djangorestframework-simplejwt 5.5.1 (a real server nobody here wrote).
# See README.md.
#
#   bash conformance/simplejwt/run.sh [path/to/flowspec]     (default: .build/debug/flowspec; builds nothing)
#   KEEP_WORK=1 bash conformance/simplejwt/run.sh …           keeps the temporary folder, for a closer look
#
# Makes a throwaway virtualenv, installs the pinned requirements, then for the default configuration and for each
# weak one (AUTH_WEAKNESS, app/jwtapp/settings.py): a fresh SQLite database with its five accounts, the Django server on
# a free loopback port, FlowSpec's live scenarios and probe file against it, the server stopped by its PID. The
# variants run side by side (each its own server, database and port). The default must pass everything; each weak
# variant must be caught by the scenario (and probe) named in README.md, for that reason. Prints one line per
# expectation, then `N passed, N failed`; exits 1 if any expectation failed. Every server it starts is stopped
# however the script ends.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
flowspec="${1:-$root/.build/debug/flowspec}"
[ -x "$flowspec" ] || { echo "no flowspec binary at $flowspec (build it first: swift build)" >&2; exit 2; }
flowspec="$(cd "$(dirname "$flowspec")" && pwd)/$(basename "$flowspec")"
started=$SECONDS

work="$(mktemp -d)"
variant_jobs=()
cleanup() {
    # Each variant runs as a job in its own process group (set -m below): stopping the group stops that
    # variant's flowspec and server at once, and the variant cannot start anything after this.
    for job in ${variant_jobs[@]+"${variant_jobs[@]}"}; do
        kill -- "-$job" 2>/dev/null || true
    done
    # Every variant also wrote its server's PID to its own file: stop each one, whatever state the script is in.
    for pidfile in "$work"/*/server.pid; do
        [ -f "$pidfile" ] || continue
        pid="$(cat "$pidfile")"
        if [ -n "$pid" ]; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    if [ -n "${KEEP_WORK:-}" ]; then
        echo "kept every output, report, server log and database in $work (KEEP_WORK is set)" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Django 5.2 needs Python 3.10 or later.
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
    || { echo "python3 is $(python3 --version 2>&1); Django 5.2 needs Python 3.10 or later" >&2; exit 1; }

. "$here/../virtualenv.sh"
make_virtualenv "$work/venv" "$here/requirements.txt"
python="$work/venv/bin/python"
echo "virtualenv ready ($((SECONDS - started)) s)"

# Starts the app for one variant in $work/$1: database, accounts, server; writes vars.yaml. Returns non-zero
# (with the server's log) when it does not come up.
start_server() {
    local variant="$1" dir="$work/$1" port
    mkdir -p "$dir"
    export AUTH_WEAKNESS="${variant#default}"
    export DJANGO_DB="$dir/db.sqlite3"
    export DJANGO_SECRET_KEY="$("$python" -c 'import secrets; print(secrets.token_hex(32))')"
    (cd "$here/app" && "$python" manage.py migrate -v0 \
        && "$python" manage.py shell -v0 -c "$(cat "$here/app/accounts.py")") >"$dir/accounts.log" 2>&1 \
        || { echo "$variant: creating the accounts failed:" >&2; cat "$dir/accounts.log" >&2; return 1; }
    port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    (cd "$here/app" && exec "$python" manage.py runserver --noreload "127.0.0.1:$port") >"$dir/server.log" 2>&1 &
    echo $! >"$dir/server.pid"
    for _ in $(seq 1 100); do
        # /api/me/ without a token answers 401 once the server is up.
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/me/" || true)" = 401 ] && break
        kill -0 "$(cat "$dir/server.pid")" 2>/dev/null || { echo "$variant: the server did not start:" >&2; cat "$dir/server.log" >&2; return 1; }
        sleep 0.1
    done
    cat >"$dir/vars.yaml" <<EOF
simplejwt_url: http://127.0.0.1:$port
simplejwt_username: qa
simplejwt_password: qa-correct-horse-battery
simplejwt_inactive_username: departed
simplejwt_inactive_password: departed-correct-horse
max_access_lifetime_seconds: 300
max_refresh_lifetime_seconds: 86400
simplejwt_leaver_username: leaver
simplejwt_leaver_password: leaver-correct-horse
simplejwt_second_username: colleague
simplejwt_second_password: colleague-correct-horse
deactivate_command: "DJANGO_DB='$DJANGO_DB' '$python' '$here/app/deactivate.py'"
simplejwt_throwaway_username: throwaway
simplejwt_throwaway_password: throwaway-correct-horse
reactivate_command: "DJANGO_DB='$DJANGO_DB' '$python' '$here/app/deactivate.py' --reactivate"
EOF
}

stop_server() {
    local pidfile="$work/$1/server.pid" pid
    [ -f "$pidfile" ] || return 0
    pid="$(cat "$pidfile")"
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    : >"$pidfile"
}

# Runs a command for at most 180 s where coreutils' timeout exists (Linux; macOS has none by default). In the
# foreground, so that it stays in the variant's process group and cleanup() stops it with the rest.
bounded() {
    if command -v timeout >/dev/null; then timeout --foreground 180 "$@"; else "$@"; fi
}

# One variant: server up, the scenarios, the probe file, server down. Exit codes go to files for the verdicts.
check_variant() {
    local variant="$1" dir="$work/$1"
    if ! start_server "$variant" 2>"$dir/start.err"; then
        # Nothing ran: every expectation on this variant fails, showing why the server did not come up.
        cp "$dir/start.err" "$dir/run.out"; cp "$dir/start.err" "$dir/probe.out"
        echo 3 >"$dir/run.rc"; echo 3 >"$dir/probe.rc"; stop_server "$variant"; return 0
    fi
    set +e
    # The default run is verbose: every request and answer is printed, which the masking check below reads.
    local verbose=()
    [ "$variant" = default ] && verbose=(--verbose)
    bounded "$flowspec" run "$here/scenarios" --timeout 60 --flows "$here/flows" \
        --vars-file "$dir/vars.yaml" --no-sandbox ${verbose[@]+"${verbose[@]}"} --report "json=$dir/run.json" >"$dir/run.out" 2>&1
    echo $? >"$dir/run.rc"
    # BROKEN verdicts of the kinds that have reproductions are also written as runnable scenarios (flowspec probe
    # --reproduce), which must fail against this server (below: and pass against the default one).
    bounded "$flowspec" probe "$here/flows" --flows "$here/flows" --vars-file "$dir/vars.yaml" \
        --no-sandbox --report "json=$dir/probe.json" --reproduce "$dir/repro" >"$dir/probe.out" 2>&1
    echo $? >"$dir/probe.rc"
    if compgen -G "$dir/repro/*.yaml" >/dev/null; then
        bounded "$flowspec" run "$dir/repro" --timeout 60 --flows "$here/flows" --vars-file "$dir/vars.yaml" \
            --no-sandbox >"$dir/repro.out" 2>&1
        echo $? >"$dir/repro.rc"
    fi
    set -e
    # The default server stays up for the weak variants' reproductions; cleanup() stops it by its PID.
    [ "$variant" = default ] || stop_server "$variant"
}

# The files must load cleanly before anything runs against a server.
check_rc=0
"$flowspec" check "$here/flows" "$here/scenarios" >"$work/check.out" 2>&1 || check_rc=$?

variants=(default rotation_off blacklist_after_off blacklist_app_missing long_access_lifetime long_refresh_lifetime leeway
    inactive_user_accepted notes_not_scoped)
set -m    # every background job in a process group of its own, which cleanup() can stop whole
for variant in "${variants[@]}"; do
    mkdir -p "$work/$variant"
    check_variant "$variant" &
    variant_jobs+=($!)
done
wait
set +m
variant_jobs=()

# The reproductions of each weak variant's BROKEN verdicts, against the default server: there they must pass —
# the promise they reproduce is kept — which shows they test the promise and not something else.
for variant in "${variants[@]}"; do
    [ "$variant" != default ] && compgen -G "$work/$variant/repro/*.yaml" >/dev/null || continue
    set +e
    bounded "$flowspec" run "$work/$variant/repro" --timeout 60 --flows "$here/flows" \
        --vars-file "$work/default/vars.yaml" --no-sandbox >"$work/$variant/repro-default.out" 2>&1
    echo $? >"$work/$variant/repro-default.rc"
    set -e
done
stop_server default

rc() { cat "$work/$1/$2.rc" 2>/dev/null || echo "?"; }
# What each variant's run and probe said, for the log.
for variant in "${variants[@]}"; do
    echo "$variant: run exit $(rc "$variant" run) ($(tail -1 "$work/$variant/run.out" 2>/dev/null)); probe exit $(rc "$variant" probe) ($(grep -E '^[0-9]+ held, ' "$work/$variant/probe.out" 2>/dev/null | tail -1))"
done

# What a failed probe expectation shows: the probe's verdicts, then its reproductions' runs.
for variant in "${variants[@]}"; do
    for part in probe.out repro.out repro-default.out; do
        if [ -f "$work/$variant/$part" ]; then echo "--- $part"; cat "$work/$variant/$part"; fi
    done >"$work/$variant/probe.all"
done

passed=0
failed=0
# expect NAME OK: one line per expectation; on failure, the variant's output for the reason.
expect() {
    local name="$1" ok="$2" show="$3"
    if [ "$ok" = yes ]; then
        echo "PASS  $name"; passed=$((passed + 1))
    else
        echo "FAIL  $name"; failed=$((failed + 1))
        # The verdict lines and their details (reasons, paths, last exchange), without the verbose run's
        # requests and answers: a block from `    GET …`/`    ← …` to the next line indented less than 6.
        if [ -f "$show" ]; then
            awk '/^    (GET|POST|PUT|PATCH|DELETE|←) / { verbose = 1; next }
                 verbose && /^      / { next }
                 { verbose = 0; print "      | " $0 }' "$show"
        fi
        [ -z "$show" ] || [ -f "$show" ] || echo "      | (no output: $show)"
    fi
}
# scenario_caught VARIANT "scenario name" OUTCOME: the run failed (exit 1), that scenario is among the failures,
# and it failed for the reason meant: its contract flow ended with OUTCOME (printed as "got `OUTCOME`").
scenario_caught() {
    [ "$(rc "$1" run)" = 1 ] \
        && grep -F -A3 "FAIL  $2  (" "$work/$1/run.out" | grep -qF "got \`$3\`" && echo yes || echo no
}
# probe_json VARIANT ARGS…: what the probe's JSON report says holds (../probe_verdicts.py ARGS); its one-line
# account of the verdicts goes to the variant's probe.all, shown when the expectation fails.
probe_json() {
    local variant="$1" out
    shift
    out="$(python3 "$here/../probe_verdicts.py" "$work/$variant/probe.json" "$@")" && local ok=yes || local ok=no
    echo "--- probe.json: $out" >>"$work/$variant/probe.all"
    echo "$ok"
}
# The kinds whose BROKEN verdicts `flowspec probe --reproduce` writes as scenarios (docs/probe.md, Reproductions);
# lifetime and cross_user verdicts have none (the CLI says so; the JSON report holds the exchanges).
reproduced_kinds=" rotation reuse_detection logout_revokes expiry "
# probe_caught VARIANT KIND [CHECK] [-- ALLOWED KIND…]: the probe failed (exit 1); its JSON report has a BROKEN
# verdict of KIND (whose check names CHECK, when given) and no BROKEN or ERROR verdict of another kind but the
# ALLOWED ones; for a kind with reproductions, they fail against that server (exit 1, a BROKEN verdict reproduced)
# and pass against the default one (exit 0, none failed or skipped).
probe_caught() {
    local variant="$1" kind="$2" check="" allow=()
    shift 2
    if [ $# -gt 0 ] && [ "$1" != -- ]; then check="$1"; shift; fi
    if [ $# -gt 0 ]; then shift; allow=("$@"); fi
    local json
    json="$(probe_json "$variant" --broken "$kind" ${check:+--check "$check"} ${allow[@]+--allow "${allow[@]}"})"
    [ "$(rc "$variant" probe)" = 1 ] && [ "$json" = yes ] && grep -Eq "BROKEN +$kind( |$)" "$work/$variant/probe.out" \
        && { [ "${reproduced_kinds/ $kind /}" = "$reproduced_kinds" ] || {
            [ "$(rc "$variant" repro)" = 1 ] && grep -q "reproduces a BROKEN verdict" "$work/$variant/repro.out" \
            && [ "$(rc "$variant" repro-default)" = 0 ] && grep -Eq '^[0-9]+ passed, 0 failed$' "$work/$variant/repro-default.out"; }; } \
        && echo yes || echo no
}

expect "flowspec check: flows, scenarios and probe file load cleanly" \
    "$([ "$check_rc" = 0 ] && echo yes || echo no)" "$work/check.out"

d=default
expect "default: every scenario passes, none skipped" \
    "$([ "$(rc $d run)" = 0 ] && grep -Eq '^[0-9]+ passed, 0 failed$' "$work/$d/run.out" && echo yes || echo no)" "$work/$d/run.out"
# The probe summary: `N held, 0 broken, …` with nothing else but zeros and `not applicable`.
probe_clean() {
    local summary
    summary="$(grep -E '^[0-9]+ held, ' "$work/$1/probe.out" 2>/dev/null | tail -1 || true)"
    [ "$(rc "$1" probe)" = 0 ] && [ -n "$summary" ] \
        && ! echo "$summary" | sed 's/[0-9]* not applicable//; s/^[0-9]* held//' | grep -Eq '[1-9]' && echo yes || echo no
}
expect "default: every declared probe holds, none skipped" "$(probe_clean $d)" "$work/$d/probe.out"
# The same from the JSON report, kind by kind: nothing BROKEN, ERROR or skipped, and each declared promise checked.
expect "default: the JSON report has every declared kind held and nothing broken, in error or skipped" \
    "$(probe_json $d --clean --held signature garbage rotation reuse_detection logout_revokes expiry lifetime cross_user \
    deactivated_account)" "$work/$d/probe.all"

# Secrets never appear: no account password and no JWT (every token simplejwt issues starts `eyJ`) in any
# console output, report or written reproduction (flows and scenarios meant to be committed) of any variant, the default's verbose run (every request and answer) included — and
# that run did show the token pair's body, masked, so the check is not vacuous.
leaks="$(grep -lE 'qa-correct-horse-battery|departed-correct-horse|leaver-correct-horse|colleague-correct-horse|throwaway-correct-horse|eyJ[A-Za-z0-9_-]{8,}' \
    "$work"/*/run.out "$work"/*/probe.out "$work"/*/run.json "$work"/*/probe.json "$work"/*/repro*.out \
    "$work"/*/repro/*.yaml "$work"/*/repro/probe/*.yaml 2>/dev/null || true)"
outputs=0
for file in "$work"/*/run.out "$work"/*/probe.out "$work"/*/run.json "$work"/*/probe.json "$work"/*/repro*.out \
    "$work"/*/repro/*.yaml "$work"/*/repro/probe/*.yaml; do
    if [ -f "$file" ]; then outputs=$((outputs + 1)); fi
done
expect "secrets masked: no password or token in $outputs outputs, reports and written reproductions" \
    "$([ -z "$leaks" ] && [ "$outputs" -ge 20 ] && grep -qF '{"access":"••••","refresh":"••••"}' "$work/default/run.out" \
        && echo yes || echo no)" ""
[ -z "$leaks" ] || echo "      | found in: $leaks"

v=rotation_off
expect "$v: caught by scenario 'simplejwt refresh rotates the refresh token' (ends not_rotated)" \
    "$(scenario_caught $v 'simplejwt refresh rotates the refresh token' not_rotated)" "$work/$v/run.out"
expect "$v: caught by probe rotation (and nothing else but reuse_detection, which needs a rotation), its reproduction fails here and passes on the default" \
    "$(probe_caught $v rotation -- reuse_detection)" "$work/$v/probe.all"

v=blacklist_after_off
expect "$v: caught by scenario 'simplejwt refuses a rotated-out refresh token' (ends old_accepted)" \
    "$(scenario_caught $v 'simplejwt refuses a rotated-out refresh token' old_accepted)" "$work/$v/run.out"
expect "$v: caught by probe reuse_detection (and nothing else), its reproduction fails here and passes on the default" \
    "$(probe_caught $v reuse_detection)" "$work/$v/probe.all"

v=blacklist_app_missing
expect "$v: caught by scenario 'simplejwt logout (blacklist) revokes the refresh token' (ends still_valid)" \
    "$(scenario_caught $v 'simplejwt logout (blacklist) revokes the refresh token' still_valid)" "$work/$v/run.out"
expect "$v: caught by probe logout_revokes (and nothing else but reuse_detection: nothing is blacklisted), its reproduction fails here and passes on the default" \
    "$(probe_caught $v logout_revokes -- reuse_detection)" "$work/$v/probe.all"

v=long_access_lifetime
expect "$v: caught by scenario 'simplejwt access tokens live no longer than the policy allows' (ends too_long)" \
    "$(scenario_caught $v 'simplejwt access tokens live no longer than the policy allows' too_long)" "$work/$v/run.out"

expect "$v: caught by probe lifetime on the access token (and nothing else)" \
    "$(probe_caught $v lifetime 'access token')" "$work/$v/probe.all"

v=long_refresh_lifetime
expect "$v: caught by scenario 'simplejwt refresh tokens live no longer than the policy allows' (ends too_long)" \
    "$(scenario_caught $v 'simplejwt refresh tokens live no longer than the policy allows' too_long)" "$work/$v/run.out"
expect "$v: caught by probe lifetime on the refresh token (and nothing else)" \
    "$(probe_caught $v lifetime 'refresh token')" "$work/$v/probe.all"

v=leeway
expect "$v: caught by scenario 'simplejwt refuses an access token past its exp' (ends accepted)" \
    "$(scenario_caught $v 'simplejwt refuses an access token past its exp' accepted)" "$work/$v/run.out"
expect "$v: caught by probe expiry (and nothing else), its reproduction fails here and passes on the default" \
    "$(probe_caught $v expiry)" "$work/$v/probe.all"

v=inactive_user_accepted
expect "$v: caught by scenario 'simplejwt refuses the tokens of an account deactivated after login' (ends access_still_accepted)" \
    "$(scenario_caught $v 'simplejwt refuses the tokens of an account deactivated after login' access_still_accepted)" "$work/$v/run.out"
expect "$v: caught by probe deactivated_account (and nothing else)" "$(probe_caught $v deactivated_account)" "$work/$v/probe.all"

v=notes_not_scoped
expect "$v: caught by scenario 'simplejwt notes are answered to their owner only' (ends read_by_other)" \
    "$(scenario_caught $v 'simplejwt notes are answered to their owner only' read_by_other)" "$work/$v/run.out"
expect "$v: caught by probe cross_user (and nothing else)" "$(probe_caught $v cross_user)" "$work/$v/probe.all"

echo "simplejwt conformance took $((SECONDS - started)) s (virtualenv, ${#variants[@]} servers, scenarios and probes)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

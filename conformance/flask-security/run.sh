#!/usr/bin/env bash
# Flask-Security-Too 5.9 as a real backend for FlowSpec: the default app must pass every live scenario and
# every probe; each weak variant (a configuration a team could ship by mistake, app/app.py WEAKNESSES) must
# be caught by the scenario and the probe kind named for it in README.md.
#
#   bash conformance/flask-security/run.sh [path/to/flowspec]     (default: .build/debug/flowspec; builds nothing)
#
# Makes a throwaway virtualenv, installs requirements.txt from PyPI, and for each variant: a fresh SQLite
# database and mail folder in a temporary directory, accounts seeded through Flask-Security's datastore, the
# server on 127.0.0.1 on a free port, the checks, and the server stopped by its PID however the script ends.
# Prints PASS/FAIL per expectation, then `N passed, N failed`; exits 1 if any failed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
flowspec="${1:-$root/.build/debug/flowspec}"
[ -x "$flowspec" ] || { echo "no flowspec binary at $flowspec (build it first: swift build)" >&2; exit 2; }
flowspec="$(cd "$(dirname "$flowspec")" && pwd)/$(basename "$flowspec")"
started=$(date +%s)

work="$(mktemp -d)"
server_pid=""
check_pid=""
stop_server() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        server_pid=""
    fi
}
cleanup() {
    if [ -n "$check_pid" ]; then
        kill "$check_pid" 2>/dev/null || true
        wait "$check_pid" 2>/dev/null || true
    fi
    stop_server
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. "$here/../virtualenv.sh"
make_virtualenv "$work/venv" "$here/requirements.txt"
python="$work/venv/bin/python"
echo "virtualenv ready after $(( $(date +%s) - started )) s"

# The auth-token lifetime this app's team promises (SECURITY_TOKEN_MAX_AGE): short, so expiry is checked in
# seconds. The token_lifetime_days variant configures a month instead; the promise stays the same.
token_max_age=10

# start_server VARIANT: seeds a fresh database and starts the app; leaves its variables in $vars.
start_server() {
    local variant="$1" dir="$work/$1"
    mkdir -p "$dir/mail"
    export APP_DB="$dir/app.sqlite" APP_MAIL_DIR="$dir/mail" APP_TOKEN_MAX_AGE="$token_max_age"
    if [ "$variant" = default ]; then export AUTH_WEAKNESS=""; else export AUTH_WEAKNESS="$variant"; fi
    "$python" "$here/app/seed.py" >"$dir/vars.yaml"
    "$python" "$here/app/serve.py" "$dir/url" >"$dir/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 200); do
        [ -s "$dir/url" ] && break
        kill -0 "$server_pid" 2>/dev/null || { echo "the $variant server did not start:" >&2; cat "$dir/server.log" >&2; exit 1; }
        sleep 0.1
    done
    [ -s "$dir/url" ] || { echo "the $variant server wrote no URL within 20 s" >&2; cat "$dir/server.log" >&2; exit 1; }
    echo "flask_url: \"$(cat "$dir/url")\"" >>"$dir/vars.yaml"
    vars="$dir/vars.yaml"
    echo "== $variant: $(cat "$dir/url") (AUTH_WEAKNESS=${AUTH_WEAKNESS:-none})"
}

passed=0
failed=0
# expect NAME STATUS PATTERN -- COMMAND...: the command must exit STATUS and its output must match PATTERN
# (an extended regular expression; every line of it, when it has several), so a failure is for the right reason.
expect() {
    local name="$1" want="$2" patterns="$3" log status pattern ok=1
    shift 4
    log="$work/check-$((passed + failed)).log"
    # In the background and waited for, so a TERM or INT stops the script (and the server) at once instead of
    # after the check: bash runs a trap only when the foreground command has returned.
    (cd "$here" && exec "$@") >"$log" 2>&1 </dev/null &
    check_pid=$!
    set +e
    wait "$check_pid"
    status=$?
    set -e
    check_pid=""
    [ "$status" = "$want" ] || ok=0
    while IFS= read -r pattern; do
        [ -z "$pattern" ] || grep -Eq -- "$pattern" "$log" || ok=0
    done <<<"$patterns"
    record "$name" "$ok" "$log" "(exit $status, wanted $want; output must match: $(echo "$patterns" | paste -sd '|'))"
}
# record NAME OK LOG WHY: counts one expectation; a failure shows the end of its log.
record() {
    if [ "$2" = 1 ]; then
        passed=$((passed + 1))
        echo "PASS  $1"
    else
        failed=$((failed + 1))
        echo "FAIL  $1 $4"
        sed 's/^/      /' "$3" | tail -40
    fi
}

# The commands the checks run (from this folder; the variables file is each variant's).
run=("$flowspec" run scenarios --flows flows --no-sandbox)
probe=("$flowspec" probe flows --flows flows --no-sandbox)

expect "check: the flows, probe file and scenarios are clean" 0 "0 errors" -- "$flowspec" check flows scenarios

start_server default
# One flow from the shell, as a person would: inputs as templates over the variables (the authenticator code computed
# from the secret), the tokens in a store file, then the protected endpoint with them. Before the scenarios: the TOTP
# scenario waits for a fresh time step of this account anyway.
expect "default: exec signs in with the authenticator code (--input 'code=\${totp(vars.totp_secret)}')" 0 \
    "^signed_in \(success\)" -- "$flowspec" exec flask.login-2fa --flows flows --vars-file "$vars" \
    --input 'email=${vars.totp_2fa_email}' --input 'password=${vars.account_password}' \
    --input 'code=${totp(vars.totp_secret)}' --store "$work/default/tokens.json"
expect "default: exec opens /api/me with the stored auth token" 0 '"outcome":"ok"' -- \
    "$flowspec" exec flask.me --flows flows --vars-file "$vars" --store "$work/default/tokens.json" --json
expect "default: every live scenario passes" 0 "^[0-9]+ passed, 0 failed$" -- "${run[@]}" --vars-file "$vars" \
    --verbose --report "json=$work/default-report.json"
expect "default: every probe holds" 0 "^[1-9][0-9]* held, 0 broken, 0 errors, 0 skipped" -- "${probe[@]}" --vars-file "$vars" \
    --report "json=$work/default-probe.json"
# The same from the JSON report, kind by kind: nothing BROKEN, ERROR or skipped, and each declared promise checked.
expect "default: the JSON report has every declared kind held and nothing broken, in error or skipped" 0 "" -- \
    python3 "$here/../probe_verdicts.py" "$work/default-probe.json" --clean \
    --held garbage expiry rotation reuse_detection logout_revokes one_time_codes deactivated_account second_factor enumeration
stop_server

start_server token_lifetime_days
expect "token_lifetime_days: caught by scenario 'an auth token is refused once its max age…'" 1 \
    "FAIL +an auth token is refused once its max age
still_accepted" -- "${run[@]}" --vars-file "$vars" --filter 'max age'
# The probe logs in anew and sends the auth token once the promised max age (auth_token_max_age) has passed.
expect "token_lifetime_days: caught by probe expiry" 1 "BROKEN +expiry" -- "${probe[@]}" --vars-file "$vars" --probe expiry \
    --report "json=$work/token_lifetime_days-probe.json"
expect "token_lifetime_days: the JSON report has expiry BROKEN, and nothing else broken or in error" 0 "" -- \
    python3 "$here/../probe_verdicts.py" "$work/token_lifetime_days-probe.json" --broken expiry
stop_server

start_server enumeration
expect "enumeration: caught by scenario 'a failed login answers the same…'" 1 \
    "FAIL +a failed login answers the same
distinguishable" -- "${run[@]}" --vars-file "$vars" --filter 'failed login answers the same'
expect "enumeration: caught by probe enumeration" 1 "BROKEN +enumeration" -- "${probe[@]}" --vars-file "$vars" \
    --probe enumeration --report "json=$work/enumeration-probe.json"
expect "enumeration: the JSON report has enumeration BROKEN, and nothing else broken or in error" 0 "" -- \
    python3 "$here/../probe_verdicts.py" "$work/enumeration-probe.json" --broken enumeration
stop_server

start_server two_factor_optional
expect "two_factor_optional: caught by scenario 'a password alone never gives an auth token…'" 1 \
    "FAIL +a password alone never gives an auth token
signed_in_with_password_only" -- "${run[@]}" --vars-file "$vars" --filter 'password alone'
# The account without a second factor signs in with its password alone; the one with it is still asked for its code.
expect "two_factor_optional: caught by probe second_factor on /login (and only there)" 1 \
    "BROKEN +second_factor .+ flask\.login-2fa-setup
held +second_factor .+ flask\.us-signin-password-2fa" -- "${probe[@]}" --vars-file "$vars" --probe second_factor \
    --report "json=$work/two_factor_optional-probe.json"
expect "two_factor_optional: the JSON report has second_factor BROKEN for /login, and nothing else broken or in error" 0 "" -- \
    python3 "$here/../probe_verdicts.py" "$work/two_factor_optional-probe.json" --broken second_factor --check flask.login-2fa-setup
stop_server

start_server us_password_skips_two_factor
expect "us_password_skips_two_factor: caught by scenario 'a password at the unified sign-in endpoint still needs…'" 1 \
    "FAIL +a password at the unified sign-in endpoint still needs the second factor
signed_in_with_password_only" -- "${run[@]}" --vars-file "$vars" --filter 'unified sign-in endpoint'
expect "us_password_skips_two_factor: caught by probe second_factor on /us-signin (and only there)" 1 \
    "BROKEN +second_factor .+ flask\.us-signin-password-2fa
held +second_factor .+ flask\.login-2fa-setup" -- "${probe[@]}" --vars-file "$vars" --probe second_factor \
    --report "json=$work/us_password_skips_two_factor-probe.json"
expect "us_password_skips_two_factor: the JSON report has second_factor BROKEN for /us-signin, and nothing else broken or in error" 0 "" -- \
    python3 "$here/../probe_verdicts.py" "$work/us_password_skips_two_factor-probe.json" --broken second_factor --check flask.us-signin-password-2fa
stop_server

start_server codes_reusable
expect "codes_reusable: caught by scenario 'an emailed sign-in code signs in once'" 1 \
    "FAIL +an emailed sign-in code signs in once
reused" -- "${run[@]}" --vars-file "$vars" --filter 'emailed sign-in code signs in once'
expect "codes_reusable: caught by probe one_time_codes" 1 \
    "BROKEN +one_time_codes" -- "${probe[@]}" --vars-file "$vars" --probe one_time_codes \
    --report "json=$work/codes_reusable-probe.json"
expect "codes_reusable: the JSON report has one_time_codes BROKEN, and nothing else broken or in error" 0 "" -- \
    python3 "$here/../probe_verdicts.py" "$work/codes_reusable-probe.json" --broken one_time_codes
stop_server

# Secrets never appear in output: the password, the authenticator secret and every code that was mailed, in every
# check's output (the default run's is --verbose: every request and answer) and in the JSON reports.
secrets_found() {
    local secret file
    {
        sed -n 's/^account_password: "\(.*\)"$/\1/p; s/^totp_secret: "\(.*\)"$/\1/p' "$work"/*/vars.yaml
        cat "$work"/*/mail/* 2>/dev/null | sed -n 's/.*following code: \([0-9][0-9]*\).*/\1/p'
    } | sort -u >"$work/secrets.txt"
    [ -s "$work/secrets.txt" ] || { echo "no secrets collected to look for"; return 0; }
    while IFS= read -r secret; do
        for file in "$work"/check-*.log "$work/default-report.json" "$work"/*-probe.json; do
            if grep -Eq -- "(^|[^0-9A-Za-z])$secret([^0-9A-Za-z]|\$)" "$file"; then
                echo "a secret ($(echo "$secret" | cut -c1-2)…) appears in $(basename "$file")"
            fi
        done
    done <"$work/secrets.txt"
    echo "looked for $(wc -l <"$work/secrets.txt") secrets"
}
secrets_found >"$work/secrets.log"
ok=1
grep -q 'appears in' "$work/secrets.log" && ok=0
grep -q '^looked for [1-9]' "$work/secrets.log" || ok=0
record "no password, authenticator secret or mailed code in any output or report" "$ok" "$work/secrets.log"

echo "flask-security conformance took $(( $(date +%s) - started )) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

#!/bin/sh
# Prints the code of the latest mail sent to an address, as a QA team reads a test mailbox:
#   sh mail-code.sh MAIL_DIR EMAIL
# Flask-Mailman's file backend writes one file per run of messages into MAIL_DIR; the code is the one in
# "…using the following code: 123456" (two-factor) or "…sign in to your account using the following code: 123456"
# (unified sign-in), in the last message addressed to EMAIL.
dir="$1"; to="$2"
[ -d "$dir" ] && [ -n "$to" ] || { echo "usage: mail-code.sh MAIL_DIR EMAIL" >&2; exit 2; }
code="$(for f in $(ls -tr "$dir"); do cat "$dir/$f"; done | awk -v to="To: $to" '
    /^To: / { mine = ($0 == to) }
    mine && /following code: [0-9]+/ { sub(/.*following code: /, ""); sub(/[^0-9].*/, ""); last = $0 }
    END { if (last != "") print last }')"
[ -n "$code" ] || { echo "no code mailed to $to in $dir" >&2; exit 1; }
echo "$code"

"""Deactivates an account the way a QA script would, straight in the database (is_active = 0, which is what
Django's admin sets), and prints "deactivated"; with --reactivate, sets is_active = 1 again and prints "reactivated".

A live scenario runs it as a `command:` step, and `flowspec probe` as the deactivated_account promise's `deactivate`
and `reactivate` commands: FlowSpec hands it the non-secret inputs of the login as environment variables, so
$username is the account that logged in; DJANGO_DB is the server's SQLite file. It uses no Django setup, so it takes
milliseconds: the access token is checked right after, within its lifetime.
"""
import os
import sqlite3
import sys

active = 1 if sys.argv[1:] == ["--reactivate"] else 0
with sqlite3.connect(os.environ["DJANGO_DB"]) as db:
    changed = db.execute(
        "UPDATE auth_user SET is_active = ? WHERE username = ?", (active, os.environ["username"])
    ).rowcount
if changed != 1:
    sys.exit(f"no account named {os.environ['username']!r} in {os.environ['DJANGO_DB']}")
print("reactivated" if active else "deactivated")

"""Deactivates an account the way a QA script would, straight in the database (is_active = 0, which is what
Django's admin sets), and prints "deactivated".

A live scenario runs it as a `command:` step: FlowSpec hands it the inputs used so far as environment variables,
so $username is the account the scenario logged in with; DJANGO_DB is the server's SQLite file. It uses no
Django setup, so it takes milliseconds: the scenario checks the access token right after, within its lifetime.
"""
import os
import sqlite3
import sys

with sqlite3.connect(os.environ["DJANGO_DB"]) as db:
    changed = db.execute(
        "UPDATE auth_user SET is_active = 0 WHERE username = ?", (os.environ["username"],)
    ).rowcount
if changed != 1:
    sys.exit(f"no account named {os.environ['username']!r} in {os.environ['DJANGO_DB']}")
print("deactivated")

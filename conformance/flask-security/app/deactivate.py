"""Deactivates an account the way Flask-Security's docs say an administrator does (Features, "Administrative
Management of Accounts": UserDatastore.deactivate_user, which "immediately stops any access by the user to any
protected endpoints"), and prints "deactivated"; with --reactivate, UserDatastore.activate_user, "reactivated".

`flowspec probe` runs it as the deactivated_account promise's `deactivate` and `reactivate` commands, with the
login's non-secret inputs in the environment: $email is the account that logged in. APP_DB and APP_MAIL_DIR are the
server's, as for app.py (seed.py writes the whole command into the variables).
"""
import os
import sys

from app import create_app, db


def main():
    reactivate = sys.argv[1:] == ["--reactivate"]
    app = create_app()
    with app.app_context():
        datastore = app.security.datastore
        user = datastore.find_user(email=os.environ["email"])
        if user is None:
            sys.exit(f"no account {os.environ['email']!r}")
        if reactivate:
            datastore.activate_user(user)
        else:
            datastore.deactivate_user(user)
        db.session.commit()
    print("reactivated" if reactivate else "deactivated")


if __name__ == "__main__":
    main()

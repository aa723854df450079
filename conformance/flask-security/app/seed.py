"""Makes the database and the accounts through Flask-Security's own datastore, and prints the run variables.

  python seed.py > vars.yaml      (APP_DB, APP_MAIL_DIR and APP_TOKEN_MAX_AGE set as for app.py)

The server's URL (flask_url) is added by whoever starts it (run.sh).

Accounts (password for all: see PASSWORD):
  email-2fa@example.com   two-factor by emailed code
  totp-2fa@example.com    two-factor by authenticator app; its base32 secret goes to the variables
  plain@example.com       no two-factor set up (the app requires it, so a password alone must not sign in)
  probe-setup@example.com the same, for the probe: its login sets two-factor up by email (second_factor)
  probe-2fa@example.com   two-factor by emailed code, for the probe's password at /us-signin (second_factor)
  us@, us-replay@, us-expiry@, probe@example.com   unified sign-in by emailed code, no password
  leaver@example.com      the same; the probe deactivates it (deactivate.py) and makes it active again
"""

import json
import os
import shlex
import sys

from flask_security import hash_password

from app import create_app, db

PASSWORD = "correct-horse-battery"
US_ACCOUNTS = {
    "us_email": "us@example.com",
    "us_replay_email": "us-replay@example.com",
    "us_expiry_email": "us-expiry@example.com",
    "probe_email": "probe@example.com",
    "leaver_email": "leaver@example.com",
}


def main():
    mail_dir = os.environ["APP_MAIL_DIR"]
    app = create_app()
    with app.app_context():
        db.create_all()
        security = app.security
        datastore = security.datastore
        totp = security.totp_factory

        datastore.create_user(email="email-2fa@example.com", password=hash_password(PASSWORD))
        user = datastore.find_user(email="email-2fa@example.com")
        datastore.tf_set(user, "email", totp_secret=totp.generate_totp_secret())

        secret = totp.generate_totp_secret()
        datastore.create_user(email="totp-2fa@example.com", password=hash_password(PASSWORD))
        user = datastore.find_user(email="totp-2fa@example.com")
        datastore.tf_set(user, "authenticator", totp_secret=secret)
        b32 = totp.get_totp_b32_key(secret)

        datastore.create_user(email="plain@example.com", password=hash_password(PASSWORD))

        # The probe's second_factor logins, on accounts no scenario uses (one code per account per 30 s step).
        datastore.create_user(email="probe-setup@example.com", password=hash_password(PASSWORD))
        datastore.create_user(email="probe-2fa@example.com", password=hash_password(PASSWORD))
        user = datastore.find_user(email="probe-2fa@example.com")
        datastore.tf_set(user, "email", totp_secret=totp.generate_totp_secret())

        # One account per use: an account accepts at most one code per 30 s time step (SingleUseTotp in
        # app.py), so scenarios and probes that sign in one after another each have their own.
        for email in US_ACCOUNTS.values():
            datastore.create_user(email=email)
            datastore.us_setup_email(datastore.find_user(email=email))
        db.session.commit()

    # The code command reads the latest mail to the address the flow is using ($email, set by flowspec).
    script = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mail-code.sh"))
    code_command = f"sh {shlex.quote(script)} {shlex.quote(mail_dir)} \"$email\""
    # Deactivates (or, with --reactivate, activates) $email through the datastore, against this server's database.
    here = os.path.dirname(os.path.abspath(__file__))
    account_command = "APP_DB={} APP_MAIL_DIR={} {} {}".format(
        shlex.quote(os.environ["APP_DB"]), shlex.quote(mail_dir), shlex.quote(sys.executable),
        shlex.quote(os.path.join(here, "deactivate.py")))
    variables = {
        "email_2fa_email": "email-2fa@example.com",
        "totp_2fa_email": "totp-2fa@example.com",
        "plain_email": "plain@example.com",
        "probe_setup_email": "probe-setup@example.com",
        "probe_2fa_email": "probe-2fa@example.com",
        **US_ACCOUNTS,
        "account_password": PASSWORD,
        "unknown_email": "nobody@example.com",
        "totp_secret": b32,
        "email_code_command": code_command,
        "deactivate_command": account_command,
        "reactivate_command": account_command + " --reactivate",
        "auth_token_max_age": int(os.environ.get("APP_TOKEN_MAX_AGE", "900")),
    }
    for name, value in variables.items():
        print(f"{name}: {json.dumps(value)}")


if __name__ == "__main__":
    main()

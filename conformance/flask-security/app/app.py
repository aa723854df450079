"""A minimal Flask-Security-Too 5.9 app: JSON API only, SQLite, mail to files.

Only configuration differs between the default app and its weak variants: AUTH_WEAKNESS names one
(see WEAKNESSES below and ../README.md). Everything else is the library as its documentation describes it:
https://flask-security-too.readthedocs.io/en/stable/configuration.html

Environment:
  APP_DB            path of the SQLite database (made by seed.py)
  APP_MAIL_DIR      folder Flask-Mailman's file backend writes each sent mail to
  APP_TOKEN_MAX_AGE seconds an auth token is valid (SECURITY_TOKEN_MAX_AGE); default 900, the library's default
  AUTH_WEAKNESS     empty for the default app, else one of WEAKNESSES
"""

import os
from datetime import timedelta

from flask import Flask, jsonify
from flask_mailman import Mail
from flask_security import Security, SQLAlchemyUserDatastore, auth_required, current_user
from flask_security.models import fsqla_v4 as fsqla
from flask_security.totp import Totp
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect

# Configuration a team could ship by mistake; each one is caught by a live scenario (../README.md).
WEAKNESSES = {
    # An auth token that stays valid for a month instead of the team's lifetime.
    "token_lifetime_days": {"SECURITY_TOKEN_MAX_AGE": timedelta(days=30)},
    # The library's default: login and sign-in errors say whether an account exists.
    "enumeration": {"SECURITY_RETURN_GENERIC_RESPONSES": False},
    # Two-factor offered but not required: an account without it signs in with a password alone.
    "two_factor_optional": {"SECURITY_TWO_FACTOR_REQUIRED": False},
    # Unified sign-in accepts a password without asking for the second factor that /login requires.
    "us_password_skips_two_factor": {"SECURITY_US_MFA_REQUIRED": []},
    # No replay protection for one-time codes (the library's stock Totp, see SingleUseTotp below).
    "codes_reusable": {"APP_TOTP_REPLAY_PROTECTION": False},
}

db = SQLAlchemy()
fsqla.FsModels.set_db_info(db)


class Role(db.Model, fsqla.FsRoleMixin):
    pass


class User(db.Model, fsqla.FsUserMixin):
    # The last TOTP time step accepted for this account (SingleUseTotp).
    totp_last_counter = db.Column(db.Integer, nullable=True)


class FsRefreshTracker(db.Model, fsqla.FsRefreshTrackerMixin):
    # The name the fsqla_v4 user model's relationship refers to.
    __tablename__ = "fs_refresh"


class SingleUseTotp(Totp):
    """Replay protection as flask_security.totp.Totp's documentation asks an app to add: passlib refuses a code
    whose time step is not after the last one accepted for the account, so each code (emailed, unified sign-in or
    authenticator) works once, and one account accepts at most one code per 30 s step."""

    def get_last_counter(self, user):
        return user.totp_last_counter

    def set_last_counter(self, user, tmatch):
        user.totp_last_counter = tmatch.counter
        db.session.commit()


def create_app():
    app = Flask(__name__)
    weakness = os.environ.get("AUTH_WEAKNESS", "")
    if weakness and weakness not in WEAKNESSES:
        raise SystemExit(f"unknown AUTH_WEAKNESS {weakness!r}; one of {', '.join(WEAKNESSES)}")

    app.config.update(
        # Throwaway secrets: a fresh database is made for every run.
        SECRET_KEY="conformance-only-secret-key",
        SECURITY_PASSWORD_SALT="conformance-only-salt",
        SECURITY_TOTP_SECRETS={"1": "conformance-only-totp-encryption-key"},
        SECURITY_TOTP_ISSUER="FlowSpec conformance",
        SQLALCHEMY_DATABASE_URI="sqlite:///" + os.environ["APP_DB"],
        # A JSON API client, as the docs' "Security with a Single Page Application" pattern configures it:
        # CSRF is checked for session (cookie) authentication only; token requests and the unauthenticated
        # endpoints (login, two-factor validation, sign-in codes) need no CSRF token.
        SECURITY_CSRF_PROTECT_MECHANISMS=["session", "basic"],
        SECURITY_CSRF_IGNORE_UNAUTH_ENDPOINTS=True,
        WTF_CSRF_CHECK_DEFAULT=False,
        WTF_CSRF_TIME_LIMIT=None,
        SECURITY_FLASH_MESSAGES=False,
        # Auth tokens: sent back in the Authentication-Token header.
        SECURITY_TOKEN_AUTHENTICATION_HEADER="Authentication-Token",
        SECURITY_TOKEN_MAX_AGE=int(os.environ.get("APP_TOKEN_MAX_AGE", "900")),
        # Refresh tokens (new in 5.9) in the JSON body rather than a cookie.
        SECURITY_REFRESH_TOKEN=True,
        SECURITY_REFRESH_TOKEN_COOKIE_NAME=None,
        # Two-factor by email or authenticator app, required for password logins.
        SECURITY_TWO_FACTOR=True,
        SECURITY_TWO_FACTOR_REQUIRED=True,
        SECURITY_TWO_FACTOR_ENABLED_METHODS=["email", "authenticator"],
        # Unified sign-in: a code by email alone signs in (it is not a password, so no second factor).
        SECURITY_UNIFIED_SIGNIN=True,
        SECURITY_US_ENABLED_METHODS=["password", "email", "authenticator"],
        SECURITY_US_MFA_REQUIRED=["password"],
        SECURITY_RETURN_GENERIC_RESPONSES=True,
        # Mail: one file per message in APP_MAIL_DIR (Flask-Mailman's file backend).
        MAIL_BACKEND="file",
        MAIL_FILE_PATH=os.environ["APP_MAIL_DIR"],
        MAIL_DEFAULT_SENDER="no-reply@conformance.example",
        SECURITY_EMAIL_HTML=False,
        APP_TOTP_REPLAY_PROTECTION=True,
    )
    if weakness:
        app.config.update(WEAKNESSES[weakness])

    db.init_app(app)
    CSRFProtect(app)  # before Security, which checks for it when CSRF_PROTECT_MECHANISMS is set
    Mail(app)
    datastore = SQLAlchemyUserDatastore(db, User, Role, refresh_tracker_model=FsRefreshTracker)
    totp_cls = SingleUseTotp if app.config["APP_TOTP_REPLAY_PROTECTION"] else Totp
    app.security = Security(app, datastore, totp_cls=totp_cls)

    @app.get("/api/me")
    @auth_required("token")
    def me():
        return jsonify(email=current_user.email)

    return app

#!/usr/bin/env python3
"""Drive FlowSpec's sandbox Supabase Auth with the official Python client (supabase-auth on PyPI) the way a
Supabase app would, and check every answer against GoTrue's behaviour (github.com/supabase/auth) and the
client's own parsing (its Session, User, UserIdentity and AuthOtpResponse models).

Usage: check.py VARS_FILE   (the file `flowspec sandbox --write-vars` writes)

Prints `PASS name`, `FAIL name: expected … got …` or `SKIP name: reason` per check, then
`N passed, N failed, N skipped`; exits 1 on any failure. Tokens and codes are printed masked only.
"""
from __future__ import annotations

import json
import sys
import time
import traceback
import uuid
from datetime import datetime

import httpx
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError
from supabase_auth.types import AuthOtpResponse, AuthResponse, Session, User, UserResponse

RESULTS = {"passed": 0, "failed": 0, "skipped": 0}


def mask(secret: object) -> str:
    text = str(secret)
    return text[:3] + "…" if len(text) > 3 else "…"


def check(name: str, expected: str, got: object, ok: bool) -> bool:
    if ok:
        RESULTS["passed"] += 1
        print(f"PASS {name}")
    else:
        RESULTS["failed"] += 1
        print(f"FAIL {name}: expected {expected}, got {got}")
    return ok


def skip(name: str, reason: str) -> None:
    RESULTS["skipped"] += 1
    print(f"SKIP {name}: {reason}")


def describe(error: BaseException) -> str:
    if isinstance(error, AuthApiError):
        return f"AuthApiError(status={error.status}, code={error.code}, message={error.message!r})"
    return f"{type(error).__name__}: {error}"


def expect_api_error(name: str, call, status: int, code: str, message: str | None = None) -> AuthApiError | None:
    """The call must raise the client's AuthApiError with this status, code (and message)."""
    want = f"AuthApiError(status={status}, code={code}" + (f", message={message!r})" if message else ")")
    try:
        result = call()
    except AuthApiError as error:
        ok = error.status == status and error.code == code and (message is None or error.message == message)
        check(name, want, describe(error), ok)
        return error
    except Exception as error:  # noqa: BLE001 — any other outcome is a failure to report
        check(name, want, describe(error), False)
        return None
    check(name, want, f"success ({type(result).__name__})", False)
    return None


def run_check(name: str, body) -> None:
    """Runs a check body that raises on an unexpected exception: that is a failure of this check only."""
    try:
        body()
    except Exception as error:  # noqa: BLE001
        check(name, "no exception", describe(error) + "\n" + traceback.format_exc(limit=2), False)


def read_vars(path: str) -> dict[str, str]:
    values = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if ":" not in line:
                continue
            key, raw = line.split(":", 1)
            values[key.strip()] = json.loads(raw.strip())
    return values


class Sandbox:
    def __init__(self, variables: dict[str, str]):
        self.url = variables["supabase_url"].rstrip("/") + "/auth/v1"
        self.anon_key = variables["supabase_anon_key"]
        self.outbox = variables["repairminder_url"].rstrip("/") + "/__sandbox/outbox/latest"
        self.test_phone = variables["phone"]
        self.test_code = variables["phone_otp"]
        self.reuse_interval = float(variables.get("supabase_refresh_reuse_interval", "0"))
        # Not a live-suite variable: run.sh passes the send interval its accounts file sets.
        self.send_interval = float(variables.get("supabase_send_interval", "60"))

    def client(self) -> SyncGoTrueClient:
        """A client configured as supabase-py configures it: apikey and Authorization: Bearer <anon key>."""
        return SyncGoTrueClient(
            url=self.url,
            headers={"apikey": self.anon_key, "Authorization": f"Bearer {self.anon_key}"},
            auto_refresh_token=False,
            persist_session=False,
        )

    def latest_code(self, phone: str) -> str:
        answer = httpx.get(self.outbox, params={"to": phone}, timeout=10)
        answer.raise_for_status()
        return answer.text.strip()


def fresh_phone() -> str:
    """A phone no other check (or run) has used: +1 555 then 7 random digits."""
    return "+1555" + str(uuid.uuid4().int % 10_000_000).zfill(7)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    sandbox = Sandbox(read_vars(sys.argv[1]))
    client = sandbox.client()

    # --- The gateway and the informational endpoints -------------------------------------------------------
    def no_apikey():
        answer = httpx.post(sandbox.url + "/otp", json={"phone": fresh_phone()}, timeout=10)
        body = answer.json()
        check("request without apikey → 401 No API key found in request",
              '401 {"message": "No API key found in request"}', f"{answer.status_code} {body}",
              answer.status_code == 401 and body == {"message": "No API key found in request"})
    run_check("request without apikey", no_apikey)

    def settings():
        # The client has no method for /settings or /health; its own _request (the one all its methods use)
        # sends them with its headers.
        body = client._request("GET", "settings").json()
        check("GET /settings: phone sign-in on", "external.phone true, phone_autoconfirm false, disable_signup false",
              body, body.get("external", {}).get("phone") is True and body.get("phone_autoconfirm") is False
              and body.get("disable_signup") is False)
    run_check("GET /settings", settings)

    def health():
        body = client._request("GET", "health").json()
        check("GET /health: GoTrue", '{"name": "GoTrue", "version": …, "description": …}', body,
              body.get("name") == "GoTrue" and "version" in body and "description" in body)
    run_check("GET /health", health)

    # --- A phone that gets real SMS codes ---------------------------------------------------------------
    phone = fresh_phone()
    state: dict[str, object] = {}

    def send_real():
        answer = client.sign_in_with_otp({"phone": phone})
        check("sign_in_with_otp (new phone) parses as AuthOtpResponse without message_id", "AuthOtpResponse(message_id=None)",
              answer, isinstance(answer, AuthOtpResponse) and answer.message_id is None)
    run_check("sign_in_with_otp (new phone)", send_real)

    expect_api_error("sign_in_with_otp again within the send interval → 429 over_sms_send_rate_limit",
                     lambda: client.sign_in_with_otp({"phone": phone}), 429, "over_sms_send_rate_limit")
    expect_api_error("resend (type sms) within the send interval → 429 over_sms_send_rate_limit",
                     lambda: client.resend({"phone": phone, "type": "sms"}), 429, "over_sms_send_rate_limit")

    def wrong_code():
        code = sandbox.latest_code(phone)
        state["code"] = code
        wrong = str((int(code) + 1) % 1_000_000).zfill(6)
        expect_api_error("verify_otp with a wrong code → 403 otp_expired",
                         lambda: client.verify_otp({"phone": phone, "token": wrong, "type": "sms"}),
                         403, "otp_expired", "Token has expired or is invalid")
    run_check("verify_otp with a wrong code", wrong_code)

    def right_code():
        response = client.verify_otp({"phone": phone, "token": str(state["code"]), "type": "sms"})
        session = response.session
        ok = isinstance(response, AuthResponse) and isinstance(session, Session) and isinstance(response.user, User)
        check("verify_otp with the texted code → AuthResponse with Session and User", "a Session and a User",
              type(session).__name__, ok)
        if not ok:
            return
        user = session.user
        identities = user.identities or []
        check("session parses: token_type bearer, expires_in > 0, expires_at = exp of the access token",
              "bearer, expires_in > 0, int expires_at",
              f"{session.token_type}, {session.expires_in}, {session.expires_at}",
              session.token_type == "bearer" and session.expires_in > 0 and isinstance(session.expires_at, int)
              and abs(session.expires_at - (int(time.time()) + session.expires_in)) <= 5)
        check("user parses: phone without +, one phone identity, confirmation_sent_at, phone_confirmed_at",
              f"phone {phone[1:]}, identities [phone], datetimes",
              f"phone {user.phone}, identities {[i.provider for i in identities]}, "
              f"confirmation_sent_at {user.confirmation_sent_at}, phone_confirmed_at {user.phone_confirmed_at}",
              user.phone == phone[1:] and len(identities) == 1 and identities[0].provider == "phone"
              and identities[0].user_id == user.id and isinstance(user.confirmation_sent_at, datetime)
              and isinstance(user.phone_confirmed_at, datetime) and isinstance(user.last_sign_in_at, datetime)
              and user.aud == "authenticated" and user.role == "authenticated" and user.is_anonymous is False)
        state["session"] = session
    run_check("verify_otp with the texted code", right_code)

    expect_api_error("verify_otp with the same code again (single use) → 403 otp_expired",
                     lambda: client.verify_otp({"phone": phone, "token": str(state.get("code")), "type": "sms"}),
                     403, "otp_expired")
    expect_api_error("verify_otp for a phone that was never sent a code → 403 otp_expired",
                     lambda: client.verify_otp({"phone": fresh_phone(), "token": "123456", "type": "sms"}),
                     403, "otp_expired")

    def resend_confirmed():
        answer = client.resend({"phone": phone, "type": "sms"})
        check("resend for a confirmed phone → AuthOtpResponse, nothing sent, not rate limited", "AuthOtpResponse(message_id=None)",
              answer, isinstance(answer, AuthOtpResponse) and answer.message_id is None)
    run_check("resend for a confirmed phone", resend_confirmed)

    # --- The test phone and its fixed code ------------------------------------------------------------------
    def test_phone():
        try:
            client.sign_in_with_otp({"phone": sandbox.test_phone})
            sent = "200"
        except AuthApiError as error:  # a previous send within the interval: tolerated, like an app would
            sent = f"{error.status} {error.code}"
        check("sign_in_with_otp (test phone) → 200, or 429 from a recent send", "200 or 429 over_sms_send_rate_limit",
              sent, sent in ("200", "429 over_sms_send_rate_limit"))
        expect_api_error("sign_in_with_otp (test phone) again → 429: test phones are rate limited too",
                         lambda: client.sign_in_with_otp({"phone": sandbox.test_phone}), 429, "over_sms_send_rate_limit")
        first = client.verify_otp({"phone": sandbox.test_phone, "token": sandbox.test_code, "type": "sms"})
        second = client.verify_otp({"phone": sandbox.test_phone, "token": sandbox.test_code, "type": "sms"})
        check("a test phone's fixed code verifies twice (not single use)", "two sessions for one user",
              f"{first.user.id if first.user else None} / {second.user.id if second.user else None}",
              first.session is not None and second.session is not None and first.user.id == second.user.id
              and first.session.refresh_token != second.session.refresh_token)
        # Confirmed now: once the send interval has passed, a send answers GoTrue's test message id.
        time.sleep(sandbox.send_interval + 0.2)
        answer = client.sign_in_with_otp({"phone": sandbox.test_phone})
        check("sign_in_with_otp (confirmed test phone, after the send interval) → message_id test-otp",
              "AuthOtpResponse(message_id='test-otp')", answer,
              isinstance(answer, AuthOtpResponse) and answer.message_id == "test-otp")
    run_check("test phone", test_phone)

    # --- /user ----------------------------------------------------------------------------------------------
    session: Session | None = state.get("session")  # type: ignore[assignment]

    def user_valid():
        response = client.get_user(session.access_token)
        check("get_user with the access token → UserResponse with the same user and identities",
              f"user {mask(session.user.id)}", response,
              isinstance(response, UserResponse) and response.user.id == session.user.id
              and [i.provider for i in (response.user.identities or [])] == ["phone"])
    if session:
        run_check("get_user", user_valid)
    else:
        check("get_user", "a session from verify_otp", "none", False)

    expect_api_error("get_user with a garbage JWT → 403 bad_jwt (not 401)",
                     lambda: client.get_user("not-a-jwt"), 403, "bad_jwt")

    def expired():
        lifetime = session.expires_in if session else 0
        if lifetime > 15:
            skip("get_user with an expired access token → 403 bad_jwt",
                 f"access tokens live {lifetime} s here; run the sandbox with a short supabase.access_token_lifetime "
                 "(run.sh does) — a token cannot be forged without the sandbox's key")
            return
        time.sleep(max(0, session.expires_at - time.time()) + 1.2)
        expect_api_error("get_user with an expired access token → 403 bad_jwt",
                         lambda: client.get_user(session.access_token), 403, "bad_jwt")
    if session:
        run_check("get_user expired", expired)

    # --- refresh_session: rotation and reuse --------------------------------------------------------------
    def rotation():
        signed = client.verify_otp({"phone": sandbox.test_phone, "token": sandbox.test_code, "type": "sms"}).session
        t0 = signed.refresh_token
        r1 = client.refresh_session(t0)
        t1 = r1.session.refresh_token
        check("refresh_session rotates: a new refresh token, the same user", f"≠ {mask(t0)}", mask(t1),
              t1 != t0 and r1.user.id == signed.user.id and isinstance(r1.session.expires_at, int))
        t2 = client.refresh_session(t1).session.refresh_token
        name = "refresh_session with the token just rotated out (parent of the active) → 200 with the active token"
        try:
            parent = client.refresh_session(t1)
            check(name, mask(t2), mask(parent.session.refresh_token), parent.session.refresh_token == t2)
        except AuthApiError as error:
            check(name, mask(t2), describe(error), False)
        time.sleep(sandbox.reuse_interval + 0.05)
        expect_api_error("refresh_session with an older rotated-out token → 400 refresh_token_already_used",
                         lambda: client.refresh_session(t0), 400, "refresh_token_already_used",
                         "Invalid Refresh Token: Already Used")
        time.sleep(sandbox.reuse_interval + 0.05)
        expect_api_error("after that reuse the family is revoked: the active token → 400 refresh_token_already_used",
                         lambda: client.refresh_session(t2), 400, "refresh_token_already_used")
        expect_api_error("refresh_session with an unknown token → 400 refresh_token_not_found",
                         lambda: client.refresh_session("abcdefghijkl"), 400, "refresh_token_not_found")
        expect_api_error("refresh_session with a malformed token → 400 validation_failed",
                         lambda: client.refresh_session("not a token"), 400, "validation_failed",
                         "Refresh token is not valid")
    run_check("refresh_session", rotation)

    # --- sign_out with each scope -------------------------------------------------------------------------
    def sign_in(c: SyncGoTrueClient) -> Session:
        return c.verify_otp({"phone": sandbox.test_phone, "token": sandbox.test_code, "type": "sms"}).session

    def status_of(c: SyncGoTrueClient, access_token: str) -> str:
        try:
            c.get_user(access_token)
            return "200"
        except AuthApiError as error:
            return f"{error.status} {error.code}"

    def sign_out_global():
        c = sandbox.client()
        other = sign_in(sandbox.client())
        mine = sign_in(c)
        c.sign_out()
        check("sign_out() (global) clears the client's session", "get_session() None", "a session",
              c.get_session() is None)
        got = (status_of(c, mine.access_token), status_of(c, other.access_token))
        check("after sign_out() (global), get_user → 403 session_not_found for every session of the user",
              "403 session_not_found twice", got, got == ("403 session_not_found",) * 2)
        expect_api_error("after sign_out() the session's refresh token → 400 refresh_token_not_found",
                         lambda: c.refresh_session(mine.refresh_token), 400, "refresh_token_not_found")
    run_check("sign_out global", sign_out_global)

    def sign_out_local():
        c = sandbox.client()
        other = sign_in(sandbox.client())
        mine = sign_in(c)
        c.sign_out({"scope": "local"})
        got = (status_of(c, mine.access_token), status_of(c, other.access_token))
        check("sign_out(scope local) ends only this session", "('403 session_not_found', '200')", got,
              got == ("403 session_not_found", "200") and c.get_session() is None)
    run_check("sign_out local", sign_out_local)

    def sign_out_others():
        c = sandbox.client()
        other = sign_in(sandbox.client())
        mine = sign_in(c)
        c.sign_out({"scope": "others"})
        current = c.get_session()
        got = (status_of(c, other.access_token), status_of(c, current.access_token if current else mine.access_token))
        check("sign_out(scope others) ends the other sessions and keeps this one", "('403 session_not_found', '200')",
              got, got == ("403 session_not_found", "200") and current is not None)
    run_check("sign_out others", sign_out_others)

    def sign_out_twice():
        c = sandbox.client()
        session = sign_in(c)
        c.admin.sign_out(session.access_token)
        # The client treats 401/403/404 from /logout as "already signed out": no error.
        c.sign_out()
        check("sign_out() after the session was already ended server-side succeeds (the client ignores 403)",
              "no error, no session", "ok", c.get_session() is None)
    run_check("sign_out twice", sign_out_twice)

    passed, failed, skipped = RESULTS["passed"], RESULTS["failed"], RESULTS["skipped"]
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

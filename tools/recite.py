#!/usr/bin/env python3
"""Rewrite citations of private source documents into citations of docs/systems/.

FlowSpec was written from documents its users cannot read. Its docs, flow titles and reasons, scenario names,
sandbox messages and Swift comments used to cite them ("seed 003", "Seed 004 (Backend Requirements)",
"reference/supabase-auth.md", "DESIGN.md", ...). The systems are now described in docs/systems/, and every
citation should name one of those pages:

    <System> (docs/systems/<file>.md, <Section>)         e.g. Repair Minder API (docs/systems/repairminder.md, Logout)
    (<System>, docs/systems/<file>.md, <Section>)        the same inside parentheses

Usage:
    tools/recite.py            rewrite the files in place (idempotent: a second run changes nothing)
    tools/recite.py --check    change nothing; list file:line of every remaining forbidden citation, exit 1 if any
    tools/recite.py --dry-run  list the files that would change

Run it from anywhere inside the repository. It rewrites docs/, flows/, scenarios/, schemas/, README.md and the
Swift sources under Sources/ and Tests/ (only their comments and string literals carry citations; the
patterns below never match Swift identifiers such as `seed:` of the shuffle options). docs/systems/ itself
is only checked, never rewritten.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

# --------------------------------------------------------------------------------------------------------------
# The systems. Key: the private document's number (or a synthetic key for combined citations).
# label: the name used in citations; file: the page under docs/systems/; keyword: if the text before a
# parenthesised citation already names the system, the label is left out to avoid "Traveling (Traveling API, …)".

SYSTEMS = {
    "003": ("Repair Minder API", "repairminder.md", "repair minder"),
    "001": ("Repair Minder app", "repairminder.md", "repair minder"),
    "000": ("legacy Repair Minder API", "repairminder-legacy.md", "legacy"),
    "002": ("Swiss Coin app", "supabase-auth.md", "supabase"),
    "004": ("Traveling API", "traveling.md", "traveling"),
    "REF": ("Supabase Auth", "supabase-auth.md", "supabase"),
    "RMBOTH": ("Repair Minder API and app", "repairminder.md", "repair minder"),
    "SBBOTH": ("Supabase Auth and Swiss Coin app", "supabase-auth.md", "supabase"),
}


def path_of(key: str) -> str:
    return "docs/systems/" + SYSTEMS[key][1]


# --------------------------------------------------------------------------------------------------------------
# 1. Exact replacements, applied first to the whole text of a file, for sentences the generic rules would make
#    clumsy. Each is a regular expression (whitespace in the old text matches any run of whitespace, so a
#    re-wrapped paragraph still matches) and its replacement. Keep them specific: they run on every file.

def ws(text: str) -> str:
    """A literal text as a regex in which each run of spaces also matches a line break."""
    return r"\s+".join(re.escape(part) for part in text.split(" "))


EXACT: list[tuple[str, str]] = [
    # scenarios/live/README.md: the legend and its headings
    (r"Seed references: \*\*003\*\*.*?\(with seed 002\)\.",
     "Each promise cites the page of [docs/systems/](../../docs/systems/README.md) that makes it:\n"
     "`repairminder.md` (Repair Minder API and app), `repairminder-legacy.md` (legacy Repair Minder API),\n"
     "`supabase-auth.md` (Supabase Auth, Swiss Coin app) and `traveling.md` (Traveling API)."),
    (ws("### Repair Minder customers (seeds 003, 001)"), "### Repair Minder customers (docs/systems/repairminder.md)"),
    (ws("### Supabase Auth (SB, seed 002)"), "### Supabase Auth (docs/systems/supabase-auth.md)"),
    (ws("(seed 001; path `/api/customer/auth/logout` as in `flows/repairminder/customer-logout.yaml` — the seeds do not name it)"),
     "(Repair Minder app, docs/systems/repairminder.md, Logout per Role; path `/api/customer/auth/logout` as in "
     "`flows/repairminder/customer-logout.yaml` — the API does not name it: docs/systems/repairminder.md, Not Documented)"),
    (ws("fail when it breaks a promise the seed documents make."),
     "fail when it breaks a promise the system descriptions in `docs/systems/` make."),
    (ws("with a reason naming the promise and the seed — when not."),
     "with a reason naming the promise and the page of `docs/systems/` that makes it — when not."),
    (ws("Access tokens live 15 minutes (seed 003),"),
     "Access tokens live 15 minutes (Repair Minder API, docs/systems/repairminder.md, Token Lifetimes),"),

    # docs/
    (ws("Choices made where DESIGN.md and the issues were silent, and why."),
     "Choices made where the design, the system descriptions (docs/systems/) and the issues were silent, and why."),
    (ws("session's namespace, as seeds 001, 003 and 004 describe (\"clear tokens and return to login\")."),
     "session's namespace, as the Repair Minder app and API and the Traveling API describe (\"clear tokens and "
     "return to login\": docs/systems/repairminder.md, Auto-Refresh Strategy; docs/systems/traveling.md, "
     "Authenticated Request Flow)."),
    (ws("The sandbox is an in-memory reference backend for the seed APIs,"),
     "The sandbox is an in-memory reference backend for the APIs described in docs/systems/,"),
    (ws("(seed 004's test user)"), "(the Traveling API's test user: docs/systems/traveling.md, Testing Checklist)"),
    (ws("refresh token's expiry by the full lifetime again (seed 003: \"sliding expiry\")."),
     "refresh token's expiry by the full lifetime again (Repair Minder API, docs/systems/repairminder.md, "
     "Token Refresh, 'Sliding Expiry')."),
    (ws("Traveling's are JWTs (seed 004 shows `eyJ...` for both tokens)."),
     "Traveling's are JWTs (the Traveling API shows `eyJ...` for both tokens: docs/systems/traveling.md, "
     "Backend Requirements)."),
    (ws("Seed 004 has no logout endpoint (the app only clears its tokens), and the sandbox adds none."),
     "The Traveling API has no logout endpoint (the app only clears its tokens: docs/systems/traveling.md, "
     "Logout), and the sandbox adds none."),
    (ws("(seed 000 models:"), "(legacy Repair Minder API models, docs/systems/repairminder-legacy.md, Models:"),
    (ws("(rotation, reuse detection as seed 003)"),
     "(rotation, reuse detection as in the Repair Minder API: docs/systems/repairminder.md, Token Refresh)"),
    (ws("(scenario customer-logout-keeps-staff-tokens, seed 001)"),
     "(scenario customer-logout-keeps-staff-tokens; Repair Minder app, docs/systems/repairminder.md, Logout per Role)"),
    (ws("TOTP and 8-character recovery codes (seed 003 note)"),
     "TOTP and 8-character recovery codes (Repair Minder API, docs/systems/repairminder.md, Step 3: Verify 2FA Code)"),
    (ws("sign-ins of the user survive, as seed 003 says \"revokes the entire token family\","),
     "sign-ins of the user survive, as the Repair Minder API says \"revokes the entire token family\" "
     "(docs/systems/repairminder.md, Token Refresh),"),
    (ws("Customer `client` is camelCase as in seed 003's response example (its Swift model mentions `first_name`)."),
     "Customer `client` is camelCase as in the Repair Minder API's response example (its client model mentions "
     "`first_name`: docs/systems/repairminder.md, Single Company Response)."),
    (ws("login and a string at `/me`, exactly as seed 004 shows them;"),
     "login and a string at `/me`, exactly as the Traveling API shows them (docs/systems/traveling.md, "
     "Backend Requirements);"),
    (ws("a rotated-out refresh token is refused but (seed 004 being silent) does not revoke the newer one;"),
     "a rotated-out refresh token is refused but (the Traveling API being silent: docs/systems/traveling.md, "
     "Not Documented) does not revoke the newer one;"),
    (ws("exist in the envelope because seed 000's AuthManager calls them"),
     "exist in the envelope because the legacy app calls them (docs/systems/repairminder-legacy.md, Endpoints)"),
    (ws("(the reference exempts it)"), "(Supabase's gateway exempts it: docs/systems/supabase-auth.md, Routing and Keys)"),
    *[(ws(f"{before} {old}"),
       f"{before} ({SYSTEMS[key][0]}, docs/systems/{SYSTEMS[key][1]}, {section})" + old[old.rindex(")") + 1:])
      for before, old, key, section in [
        ("900 s", "(seed 003)", "003", "Token Lifetimes"),
        ("7 days", "(seed 003)", "003", "Token Lifetimes"),
        ("90 days", "(seed 003)", "003", "Token Lifetimes"),
        ("`dataClassification`, `permissions`", "(seed 003),", "003", "Staff JWT"),
        ("`issuedAt`, `sessionId`", "(seed 003),", "003", "Customer JWT"),
        ("### Quarantine", "(seed 003)", "003", "Quarantine Mode"),
        ("gets \"Token reuse detected…\"", "(seed 003).", "003", "Token Refresh"),
        ("Access tokens expire after 15 minutes", "(seed 003).", "003", "Token Lifetimes"),
        ("A deactivated account gets 401 \"Account is deactivated\"", "(seed 003).", "003", "Staff Login Flow, Error Responses"),
        ("returns every User field", "(seed 003).", "003", "Get Current User"),
        ("A wrong password is 401 \"Invalid credentials\"", "(seed 003).", "003", "Staff Login Flow, Error Responses"),
        ("a 90-day refresh token", "(seed 003).", "003", "Mobile Detection"),
        ("outside the allow-list", "(seed 003).", "003", "Quarantine Mode"),
        ("stays allowed in quarantine", "(seed 003).", "003", "Quarantine Mode"),
        ("answers the same for unknown emails", "(seed 003).", "003", "Customer Magic Link Flow"),
        ("signs in to that company", "(seed 003, seed 001).", "RMBOTH", "Multiple Companies Response"),
        ("are wrapped in `{\"data\": …}`", "(seed 004).", "004", "Backend Requirements"),
        ("exchanges a valid refresh token", "(seed 004).", "004", "Backend Requirements"),
        ("so refresh-on-401 runs", "(seed 004).", "004", "Authenticated Request Flow"),
        ("until `twoFactorToken` is sent", "(seed 000).", "000", "Two-Factor Login"),
        ("3600 s", "(reference)", "REF", "Defaults"),
        ("60 s", "(reference)", "REF", "Defaults"),
        ("`over_sms_send_rate_limit`", "(reference).", "REF", "Rate Limits"),
        ("An SMS code is single use", "(reference).", "REF", "POST /verify"),
        ("returns a new refresh token", "(reference).", "REF", "POST /token"),
        ("not 401", "(reference).", "REF", "GET /user"),
        ("`session_not_found`", "(reference).", "REF", "POST /logout"),
    ]],
    (ws("Where the seeds are silent"), "Where the system descriptions are silent"),
    (ws("Not in the seeds"), "Not in the system descriptions"),
    (ws("holds the live suite for the seed APIs,"), "holds the live suite for the APIs of docs/systems/,"),
    (ws("every promise the seed documents make"), "every promise the system descriptions (docs/systems/) make"),
    (ws("(a faithful in-memory implementation of the seed APIs)"),
     "(a faithful in-memory implementation of the APIs described in docs/systems/)"),
    (ws("scripted scenarios for every seed system"), "scripted scenarios for every modelled system (docs/systems/)"),

    # flows/ and scenarios/
    (ws("(path assumed; not in seed 003)"), "(path assumed; not in docs/systems/repairminder.md, Not Documented)"),
    (ws("# Seed 001 calls customerLogout() without naming its path;"),
     "# The Repair Minder app (docs/systems/repairminder.md, Logout per Role) calls a customer logout without "
     "naming its path (Not Documented);"),
    (ws("Seed 003's 15-minute tokens are therefore"),
     "The Repair Minder API's 15-minute tokens (docs/systems/repairminder.md, Token Lifetimes) are therefore"),
    (ws("# Seed 004 gives no lifetime;"), "# The Traveling API gives no lifetime (docs/systems/traveling.md, Token Lifetimes);"),
    (ws("(seed 000 clears on any /me failure)"),
     "(the legacy app clears on any /me failure; docs/systems/repairminder-legacy.md, Session Restore on Launch)"),
    (ws("(seed 003; seed 000 session restore)"),
     "(Repair Minder API, docs/systems/repairminder.md; legacy Repair Minder API, "
     "docs/systems/repairminder-legacy.md, Session Restore on Launch)"),
    (ws("(seed 004, Testing Checklist: invalid credentials)"),
     "(Traveling API, docs/systems/traveling.md, Testing Checklist: invalid credentials)"),
    (ws("\"The seed's error message for this account\""), "\"The documented error message for this account\""),
    (ws("(seed 003, steps 2-3)"), "(Repair Minder API, docs/systems/repairminder.md, Staff Login Flow steps 2-3)"),
    (ws("(seed 003; needs the optional"), "(Repair Minder API, docs/systems/repairminder.md, Staff Login Flow; needs the optional"),

    # Sources/ and Tests/ (comments and string literals)
    (re.escape('"  legacy Repair Minder (seed 000):              '),
     '"  legacy Repair Minder:                         '),
    (ws('Those marked "seed 003" are quoted from the seed; the others'),
     'Those marked "documented" are quoted from the Repair Minder API (docs/systems/repairminder.md); the others'),
    (r"(?m)^(\s*)// seed 003$", r"\1// documented (docs/systems/repairminder.md)"),
    (ws("Customer JWTs carry the session id (seed 003 claims)."),
     "Customer JWTs carry the session id (Repair Minder API, docs/systems/repairminder.md, Customer JWT)."),
    (ws("The staff endpoints seed 003's quarantine rules name,"),
     "The staff endpoints the Repair Minder API's quarantine rules name (docs/systems/repairminder.md, Quarantine Mode),"),
    (ws("an HS256 access JWT with seed 003's claims plus"),
     "an HS256 access JWT with the Repair Minder API's claims (docs/systems/repairminder.md, Staff JWT) plus"),
    (ws("answers seed 003's verify shape:"),
     "answers the Repair Minder API's verify shape (docs/systems/repairminder.md, Step 3: Verify 2FA Code):"),
    (ws("The Repair Minder API of seed 003 under `/api`:"),
     "The Repair Minder API (docs/systems/repairminder.md) under `/api`:"),
    (ws("The JSON shapes of seed 003."), "The JSON shapes of the Repair Minder API (docs/systems/repairminder.md)."),
    (ws("that is what the seed shows,"), "that is what the API description shows,"),
    (ws("(seed 003 \"User Model (Staff)\")"), "(Repair Minder API, docs/systems/repairminder.md, User Model (Staff))"),
    (ws("(seed 003 \"Company Model\")"), "(Repair Minder API, docs/systems/repairminder.md, Company Model)"),
    (ws("Seed 003's quarantine mode:"), "The Repair Minder API's quarantine mode (docs/systems/repairminder.md, Quarantine Mode):"),
    (ws("The older Repair Minder backend of seed 000, on its own port:"),
     "The older Repair Minder backend (docs/systems/repairminder-legacy.md), on its own port:"),
    (ws("because seed 000's AuthManager calls them"),
     "because the legacy app calls them (docs/systems/repairminder-legacy.md, Endpoints)"),
    (ws("Seed 000's shapes:"), "The legacy Repair Minder API's shapes (docs/systems/repairminder-legacy.md):"),
    (ws("(seed 003, scenarios)"), "(Repair Minder API, docs/systems/repairminder.md; scenarios)"),
    (ws("(seed 003 2FA and magic-link verify steps;"),
     "(Repair Minder API, docs/systems/repairminder.md, Login Codes;"),
    # The API does not itself say that login codes work once (docs/systems/repairminder.md, Login Codes)
    (ws("Seed 003 (2FA codes are single use)"), "Repair Minder API (docs/systems/repairminder.md, Login Codes: a code works once)"),
    (ws("Seed 003 (magic-link codes are single use)"), "Repair Minder API (docs/systems/repairminder.md, Login Codes: a code works once)"),
    (ws("Seed 003 (customer login codes are single use)"), "Repair Minder API (docs/systems/repairminder.md, Login Codes: a code works once)"),
    (ws("Seed 001 (customer logout ends that customer session)"),
     "Repair Minder app (docs/systems/repairminder.md, Logout per Role: customer logout ends that customer session)"),
    (ws("the seed's exact 401 message"), "the exact documented 401 message"),
    (ws("legacy (seed 000) port"), "legacy Repair Minder API (docs/systems/repairminder-legacy.md) port"),
    (ws("scripted scenarios for every seed system (`contracts/`:"),
     "scripted scenarios for every system of docs/systems/ (`contracts/`:"),
    (ws("The Traveling backend of seed 004 under `/v1`:"), "The Traveling backend (docs/systems/traveling.md) under `/v1`:"),
    (ws("// Seed 004 says nothing about reuse detection:"),
     "// The Traveling API says nothing about reuse detection (docs/systems/traveling.md, Not Documented):"),
    (ws("(OAuth security BCP, seed 003)"),
     "(OAuth security BCP; Repair Minder API, docs/systems/repairminder.md, Token Refresh)"),
    (ws("(seed 003: \"each refresh"), "(Repair Minder API, docs/systems/repairminder.md, Token Refresh: \"each refresh"),
    (ws("Mobile detection as seed 003 describes it:"),
     "Mobile detection as the Repair Minder API describes it (docs/systems/repairminder.md, Mobile Detection):"),
    (ws("like seed 003's single `magic_link_code` column)."),
     "like the Repair Minder API's single `magic_link_code` column: docs/systems/repairminder.md, Login Codes)."),
    (ws("Company status as seed 003 lists it;"),
     "Company status as the Repair Minder API lists it (docs/systems/repairminder.md, Company Model);"),
    (ws("Roles from seed 003's `UserRole`."), "Roles from the Repair Minder API's `UserRole` (docs/systems/repairminder.md, UserRole)."),
    (ws("Seed 004 shows a numeric id at login"),
     "The Traveling API (docs/systems/traveling.md, Backend Requirements) shows a numeric id at login"),
    (ws("Defaults from seed 003 (access 15 min, refresh 7 days web / 90 days mobile)"),
     "Defaults from the Repair Minder API (docs/systems/repairminder.md, Token Lifetimes: access 15 min, "
     "refresh 7 days web / 90 days mobile)"),
    (ws("// Seed 004's test credentials."), "// The Traveling API's test credentials (docs/systems/traveling.md, Testing Checklist)."),
    (ws("the main port's login is seed 003's\")"), "the main port's login is the current API's\")"),
    (ws("are quoted from the seed;"), "are quoted from the system description;"),
    # The break catalogue's test: every promise cites docs/systems/ (or a scenario) now.
    (r'brokenPromise\.promise\.contains\("seed"\)\s*\|\|\s*brokenPromise\.promise\.contains\("reference"\)',
     'brokenPromise.promise.contains("docs/systems/")'),

    # Un-numbered mentions of the private documents
    (r"\b([Tt])he seed's\b", r"\1he documented"),
    (r"\b([Tt])he seeds'", r"\1he documented"),
    (r"\bthe seed APIs\b", "the APIs described in docs/systems/"),
    (r"\bthe seeds (mix|show)\b", r"the system descriptions \1"),
    (r"\bSeed-000 backend\b", "Legacy Repair Minder backend"),
    (r"\bseed-000 (backend|API)\b", r"legacy Repair Minder \1"),
    (r"\ba seed-000 account\b", "a legacy Repair Minder account"),
    (r"\bthe seed-000 API\b", "the legacy Repair Minder API"),
    # "(reference)" after a space, as in "3600 s (reference)"; Swift calls such as `map(reference)` are code
    (r"(?<= )\(reference\)", "(Supabase Auth, docs/systems/supabase-auth.md)"),
]

# --------------------------------------------------------------------------------------------------------------
# 2. Generic rules, line by line, for what the exact replacements left.

COMBINED = [
    # several documents of one page cited together
    (re.compile(r"[Ss]eeds? 003[;,] (?:and )?(?:seed )?001\b"), "<<RMBOTH>>"),
    (re.compile(r"[Ss]eeds? 001[;,] (?:and )?(?:seed )?003\b"), "<<RMBOTH>>"),
    (re.compile(r"`?reference/supabase-auth\.md`?(?:,| and|;) (?:with )?seed 002\b"), "<<SBBOTH>>"),
    (re.compile(r"[Ss]eed 002(?:,| and|;) `?reference/supabase-auth\.md`?"), "<<SBBOTH>>"),
]

TOKEN = re.compile(r"(?P<tok>(?P<cap>[Ss])eeds?[ -](?P<n>00[0-4])\b|`?reference/supabase-auth\.md`?|<<(?P<combo>[A-Z]+)>>)")

# sections whose names in old citations differ from the headings in docs/systems/
SECTION_FIXES = [
    ("docs/systems/repairminder-legacy.md, AuthManager.login", "docs/systems/repairminder-legacy.md, Login"),
    ("docs/systems/repairminder-legacy.md, session restore", "docs/systems/repairminder-legacy.md, Session Restore on Launch"),
    ("docs/systems/repairminder-legacy.md, legacy login", "docs/systems/repairminder-legacy.md, Login"),
    ("docs/systems/repairminder.md, logout per role", "docs/systems/repairminder.md, Logout per Role"),
    ("docs/systems/repairminder.md, customer logout", "docs/systems/repairminder.md, Logout per Role"),
]


def key_of(m: re.Match) -> str:
    if m.group("combo"):
        return m.group("combo")
    if m.group("n"):
        return m.group("n")
    return "REF"


def depth(prefix: str) -> int:
    return prefix.count("(") - prefix.count(")")


def rewrite_line(line: str) -> str:
    for pattern, repl in COMBINED:
        line = pattern.sub(repl, line)
    out = []
    pos = 0
    for m in TOKEN.finditer(line):
        if m.start() < pos:
            continue
        key = key_of(m)
        label, _, keyword = SYSTEMS[key]
        path = path_of(key)
        prefix = line[:m.start()]
        rest = line[m.end():]
        capital = bool(m.group("cap")) and m.group("cap") == "S"
        out.append(line[pos:m.start()])
        consumed = 0
        inside = depth(prefix) > 0
        if rest.startswith(" ("):
            # Seed 003 (Token Refresh): …  →  Repair Minder API (docs/systems/repairminder.md, Token Refresh): …
            text = f"{label} ({path}, "
            consumed = 2
        elif rest.startswith("'s"):
            # seed 003's claims  →  the Repair Minder API's claims (the exact table covers the ones that need a path)
            text = f"{'The' if capital else 'the'} {label}'s"
            consumed = 2
        elif inside:
            # (seed 003, Logout)  →  (Repair Minder API, docs/systems/repairminder.md, Logout)
            opening = prefix.rfind("(")
            named = keyword in prefix[max(0, opening - 60):max(0, opening)].lower()
            text = path if named else f"{label}, {path}"
            if rest[:1] == " " and rest[1:2] and rest[1:2] not in "(-—":
                text += ","
        else:
            # bare mention  →  the Repair Minder API (docs/systems/repairminder.md)
            lead = ""
            if rest[:1] == " " and rest[1:2].isalpha():
                lead = "The " if capital else "the "
            text = f"{lead}{label} ({path})"
        out.append(text)
        pos = m.end() + consumed
    out.append(line[pos:])
    line = "".join(out)
    for old, new in SECTION_FIXES:
        line = line.replace(old, new)
    return line


def rewrite(text: str) -> str:
    for pattern, repl in EXACT:
        if re.search(r"\\\d", repl):          # a template with group references such as \1
            text = re.sub(pattern, repl, text, flags=re.DOTALL)
        else:                                   # a literal text
            text = re.sub(pattern, lambda _m, r=repl: r, text, flags=re.DOTALL)
    return "\n".join(rewrite_line(line) for line in text.split("\n"))


# --------------------------------------------------------------------------------------------------------------
# 3. What must not remain.

FORBIDDEN = [
    re.compile(r"\b[Ss]eeds?[ -]?0?0[0-4]\b"),
    re.compile(r"\bseeds/"),
    re.compile(r"DESIGN\.md"),
    re.compile(r"reference/supabase-auth\.md"),
    re.compile(r"\.\./shared"),
    re.compile(r"(?<![\w-])SB(?![\w-])"),
    re.compile(r"\b[Tt]he seed'"),
    re.compile(r"\b[Tt]he seeds\b"),
    re.compile(r"\bseed (?:APIs?|documents?|systems?)\b"),
    re.compile(r"\bseed-0"),
    re.compile(r"\bthe seed shows\b"),
    re.compile(r"\bquoted from the seed\b"),
    re.compile(r"(?<= )\(reference\)"),
    re.compile(r"the reference exempts"),
    re.compile(r"Seed references"),
]


# --------------------------------------------------------------------------------------------------------------

def repo_root() -> Path:
    here = Path(__file__).resolve().parent
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=here, capture_output=True, text=True,
                             check=True).stdout.strip()
        return Path(top)
    except (OSError, subprocess.CalledProcessError):
        return here.parent


TEXT_SUFFIXES = {".md", ".yaml", ".yml", ".json", ".sh", ".txt", ".swift"}


def candidate_files(root: Path, include_systems: bool) -> list[Path]:
    files: list[Path] = []
    for top in ("docs", "flows", "scenarios", "schemas"):
        base = root / top
        if base.is_dir():
            files += [p for p in base.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES]
    for top in ("Sources", "Tests"):
        base = root / top
        if base.is_dir():
            files += [p for p in base.rglob("*.swift") if p.is_file()]
    if (root / "README.md").is_file():
        files.append(root / "README.md")
    systems = root / "docs" / "systems"
    if not include_systems:
        files = [p for p in files if systems not in p.parents]
    return sorted(set(files))


def check_yaml(path: Path, text: str) -> str | None:
    if path.suffix not in (".yaml", ".yml"):
        return None
    try:
        import yaml  # type: ignore
    except ImportError:
        return None
    try:
        yaml.safe_load(text)
    except yaml.YAMLError as error:  # pragma: no cover - reported to the user
        return str(error).replace("\n", " ")
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="list remaining forbidden citations; exit 1 if any")
    parser.add_argument("--dry-run", action="store_true", help="list the files that would change")
    args = parser.parse_args()
    root = repo_root()

    if args.check:
        problems = []
        for path in candidate_files(root, include_systems=True):
            for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
                for pattern in FORBIDDEN:
                    m = pattern.search(line)
                    if m:
                        problems.append(f"{path.relative_to(root)}:{number}: {m.group(0)!r}: {line.strip()[:160]}")
                        break
        for p in problems:
            print(p)
        print(f"recite --check: {len(problems)} forbidden citation(s)", file=sys.stderr)
        return 1 if problems else 0

    changed = []
    broken_yaml = []
    for path in candidate_files(root, include_systems=False):
        text = path.read_text(encoding="utf-8")
        new = rewrite(text)
        if new == text:
            continue
        error = check_yaml(path, new)
        if error:
            broken_yaml.append(f"{path.relative_to(root)}: {error}")
            continue
        changed.append(path.relative_to(root))
        if not args.dry_run:
            path.write_text(new, encoding="utf-8")
    for p in changed:
        print(("would change " if args.dry_run else "rewrote ") + str(p))
    for b in broken_yaml:
        print(f"NOT rewritten (the result would not be valid YAML): {b}", file=sys.stderr)
    print(f"recite: {len(changed)} file(s) {'would change' if args.dry_run else 'rewritten'}", file=sys.stderr)
    return 1 if broken_yaml else 0


if __name__ == "__main__":
    sys.exit(main())

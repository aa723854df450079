#!/usr/bin/env python3
"""Writes raw seed inputs for every fuzz target into OUT/<target>/, from what the repository ships: flows,
scenarios, the malformed-file catalogue, JSONTestSuite, accounts examples, and the expressions and templates found
in the shipped flows. Fuzz/Corpus/ holds these minimised with libFuzzer's -merge=1 (see docs/reliability.md)."""
import hashlib, json, pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
out = pathlib.Path(sys.argv[1])
LIMIT = 64 * 1024  # larger seeds (the 1 MB single-line fixture) only slow every mutation down


ALIAS = re.compile(rb"\*[A-Za-z0-9_]")


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    if len(data) > LIMIT or alias_bomb(data):
        return
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def alias_bomb(data):
    """The alias-bomb fixture expands to the loader's budget of a million nodes: correct, bounded, and ~0.4 s per run
    under the fuzzer's instrumentation, so its mutants time out (-timeout=1) on a loaded machine. Left out."""
    return b"&" in data and len(ALIAS.findall(data)) >= 20


def files(*patterns):
    for pattern in patterns:
        yield from sorted(root.glob(pattern))


malformed = list(files("Tests/EndToEndTests/Fixtures/**/*.yaml"))
for path in list(files("flows/**/*.yaml")) + malformed:
    put("flow", path.read_bytes())
for path in list(files("scenarios/traveling/**/*.yaml", "flows/traveling/session.yaml")) + malformed:
    put("scenario", path.read_bytes())

# Expressions and templates as the shipped flows write them: guards, set/store values, and strings with holes.
sample_json = [b'{"status":200,"access_token":"abc","user":{"id":"u1","roles":["a"]},"now":1790000000}',
               b'{"data":{"accessToken":"eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3OTAwMDAwMDB9.c2ln","items":[1,2.5,-3e2]}}',
               b'[]', b'null', b'"text"', b'{"now":-1e300,"headers":{"X-A":"b"}}']
expressions, templates = set(), set()
for path in files("flows/**/*.yaml", "scenarios/**/*.yaml"):
    for line in path.read_text(errors="replace").splitlines():
        m = re.match(r"\s*-?\s*(when|[a-z_]+):\s+(.+)$", line)
        if not m:
            continue
        value = m.group(2).strip()
        if value.startswith(("{", "[", "|", ">")):
            continue
        if value[:1] in "\"'" and value[-1:] == value[:1]:
            value = value[1:-1]
        if "${" in value:
            templates.add(value)
        elif m.group(1) in ("when", "else") or re.search(r"[=<>()!.]", value):
            expressions.add(value)
for extra in ['totp("JBSWY3DPEHPK3PXP", 8, 30, "sha512")', 'matches(body.code, "^[0-9]{6}$")', 'jwt(store.access_token).exp - now < 60',
              'len(body.items) > 0 && body.items[0] in ["a", "b"]', 'number("1e3") / 0', '-(-(1)) % 0', 'lower(upper(headers["x-a"]))',
              'string(now) + string(null)', 'exists(outputs.user_id) || !success', 'reason == "x" && outcome != "y"',
              'any(body.data.flows, it.id == "mfa_authenticate")', 'count(body.items, any(it.tags, it == "a")) > 1',
              'len(map(filter(body.items, exists(it.id)), it.id)) == 2', 'all(body, it) || first(body, it > 1) == first(body)']:
    expressions.add(extra)
for extra in ['Bearer ${store.access_token}', '$${literal} ${1 + 2}', '${body}', '${ "}" }', '/v1/users/${body.user.id}?q=${inputs.email}']:
    templates.add(extra)
for i, e in enumerate(sorted(expressions)):
    put("expression", e.encode() + b"\n" + sample_json[i % len(sample_json)])
for i, t in enumerate(sorted(templates)):
    put("template", t.encode() + b"\n" + sample_json[i % len(sample_json)])

for path in files("Tests/FlowSpecLanguageTests/Fixtures/JSONTestSuite/**/*.json"):
    put("json", path.read_bytes())

# Accounts files: the tests' examples and the documentation's.
for path in files("Tests/FlowSpecSandboxTests/AccountsFileTests.swift"):
    for block in re.findall(r'"""\n(.*?)"""', path.read_text(), re.S):
        put("accounts", re.sub(r"^ {8}", "", block, flags=re.M))
for block in re.findall(r"```(?:yaml|json)\n(.*?)```", (root / "docs/sandbox.md").read_text(), re.S):
    put("accounts", block)

# Responses: status line, headers, empty line, body (see Fuzz/Sources/fuzz-response/World.swift).
token = "eyJhbGciOiJIUzI1NiJ9x1Tok3nABCDEF123456"
responses = [
    f'200\nContent-Type: application/json\n\n{{"access_token":"{token}","refresh_token":"r3fr3shT0kenZZZZZZ99","user":{{"id":"u1"}},"expires_in":3600}}',
    '401\nContent-Type: application/json\n\n{"error":"invalid_credentials","message":"wrong password Pw9xQ4mZt7Lk2VbN"}',
    '403\nX-Reason: echo Pw9xQ4mZt7Lk2VbN ak7Rt2Yp9Qw3Zx5M\nContent-Type: text/plain\n\nforbidden for ak7Rt2Yp9Qw3Zx5M',
    '500\nContent-Type: text/html\n\n<html>oops</html>',
    '200\nContent-Type: application/json; charset=utf-8\nSet-Cookie: session=abc123def456ghi789; HttpOnly\n\n{"access_token":"Bearer abcdefgh12345678","user":{"id":7}}',
    '200\nContent-Type: application/json\n\n{"access_token":"aaaaaaaaaaaaaaaa1","data":[{"token":"zzzzzzzzzzzzzzzz9"}],"echo":{"password":"Pw9xQ4mZt7Lk2VbN"}}',
    '204\n\n',
    '200\nContent-Type: application/vnd.api+json\n\n[1,2,{"api_key":"k3yk3yk3yk3yk3yk3y"}]',
]
for r in responses:
    put("response", r)

# A few accounts shapes the examples above do not show: JSON, every section, wrong types.
for text in ['{"companies":[{"id":"c","name":"C"}],"staff":[{"email":"a@c.test","password":"p","company":"c","role":"admin"}]}',
             'traveling:\n  users:\n    - { email: t@x.test, password: pw }\nlegacy:\n  users: []\nlifetimes: { access_token: 15m, refresh_token_web: 7d }\n',
             'staff: [{ email: 1, company: nope }]\n', 'supabase: { test_phones: { "+1": 12 }, send_interval: -5s }\n', '~\n', '[1, 2]\n']:
    put("accounts", text)

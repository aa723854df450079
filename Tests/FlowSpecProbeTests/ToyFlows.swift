/// The flows and sessions of the toy backend, as a user would write them. Its probe files: ToyFlows+Probe.swift.
enum ToyFlows {
    static let files: [String: String] = [
        "flows/toy/session.yaml": """
        session: toy.session
        namespace: toy
        headers:
          Authorization: "Bearer ${store.access}"
        refresh:
          flow: toy.refresh
          when: status == 401
        """,
        // Password, then the code the backend emails.
        "flows/toy/login.yaml": """
        flow: toy.login
        namespace: toy
        inputs:
          email: { type: email }
          password: { type: string, secret: true }
          code: { type: code, secret: true }
        start: login
        states:
          login:
            request: { method: POST, path: /login, json: { email: "${inputs.email}", password: "${inputs.password}" } }
            on:
              # An account without two-factor gets its tokens at once.
              - when: status == 200 && exists(body.access)
                store: { access: body.access, refresh: body.refresh }
                goto: in
              - when: status == 200
                goto: ask
              - else: true
                goto: out
          ask:
            input: code
            goto: verify
          verify:
            request: { method: POST, path: /verify, json: { email: "${inputs.email}", code: "${inputs.code}" } }
            on:
              - when: status == 200
                store: { access: body.access, refresh: body.refresh }
                goto: in
              - else: true
                goto: out
          in: { end: in, success: true }
          out: { end: out, success: false }
        """,
        // The same login with a pre-auth id that the login consumes, as Repair Minder's userId or a flow id: the
        // request that redeemed a code cannot be made again in its context. A wrong code is asked for once more.
        "flows/toy/preauth-login.yaml": """
        flow: toy.preauth-login
        namespace: toy
        inputs:
          email: { type: email }
          password: { type: string, secret: true }
          code: { type: code, secret: true }
        variables:
          attempts: 0
        start: start
        states:
          start:
            request: { method: POST, path: /login/start, json: { email: "${inputs.email}", password: "${inputs.password}" } }
            on:
              - when: status == 200
                set: { pre_auth: body.pre_auth }
                goto: ask
              - else: true
                goto: out
          ask:
            input: code
            goto: finish
          finish:
            request: { method: POST, path: /login/finish, json: { pre_auth: "${pre_auth}", code: "${inputs.code}" } }
            on:
              - when: status == 200
                store: { access: body.access, refresh: body.refresh }
                goto: in
              - when: status == 401 && attempts < 1
                set: { attempts: attempts + 1 }
                goto: ask
              - else: true
                goto: out
          in: { end: in, success: true }
          out: { end: out, success: false }
        """,
        // The password alone: a login that asks for no code.
        "flows/toy/password-login.yaml": """
        flow: toy.password-login
        namespace: toy
        inputs:
          email: { type: email }
          password: { type: string, secret: true }
        start: token
        states:
          token:
            request: { method: POST, path: /token, json: { email: "${inputs.email}", password: "${inputs.password}" } }
            on:
              - when: status == 200
                store: { access: body.access, refresh: body.refresh }
                goto: in
              - else: true
                goto: out
          in: { end: in, success: true }
          out: { end: out, success: false }
        """,
        "flows/toy/refresh.yaml": """
        flow: toy.refresh
        namespace: toy
        start: refresh
        states:
          refresh:
            request: { method: POST, path: /refresh, json: { refresh: "${store.refresh}" } }
            on:
              - when: status == 200
                store: { access: body.access, refresh: body.refresh }
                goto: done
              - else: true
                forget: all
                goto: failed
          done: { end: done, success: true }
          failed: { end: failed, success: false }
        """,
        "flows/toy/me.yaml": """
        flow: toy.me
        session: toy.session
        namespace: toy
        start: me
        states:
          me:
            request: { method: GET, path: /me }
            on:
              - when: status == 200
                goto: ok
              - else: true
                goto: out
          ok: { end: ok, success: true }
          out: { end: out, success: false }
        """,
        "flows/toy/logout.yaml": """
        flow: toy.logout
        session: toy.session
        namespace: toy
        start: logout
        states:
          logout:
            request: { method: POST, path: /logout }
            on:
              - else: true
                forget: all
                goto: out
          out: { end: out, success: true }
        """,
        "flows/toy/note-create.yaml": """
        flow: toy.note-create
        session: toy.session
        namespace: toy
        start: create
        states:
          create:
            request: { method: POST, path: /notes, json: { text: "written by the probe" } }
            on:
              - when: status == 201
                store: { note_id: body.id }
                goto: created
              - else: true
                goto: refused
          created: { end: created, success: true }
          refused: { end: refused, success: false }
        """,
        "flows/toy/note-read.yaml": """
        flow: toy.note-read
        session: toy.session
        namespace: toy
        start: read
        states:
          read:
            request: { method: GET, path: "/notes/${store.note_id}" }
            on:
              - when: status == 200
                goto: read_ok
              - else: true
                goto: refused
          read_ok: { end: read, success: true }
          refused: { end: refused, success: false }
        """,
        "flows/toy/send-code.yaml": """
        flow: toy.send-code
        namespace: toy
        inputs:
          email: { type: email }
        start: send
        states:
          send:
            request: { method: POST, path: /send-code, json: { email: "${inputs.email}" } }
            on:
              - when: status == 200
                goto: sent
              - else: true
                goto: refused
          sent: { end: sent, success: true }
          refused: { end: refused, success: false }
        """,
        // A second system on the same backend: customers, whose tokens the staff endpoint must refuse.
        "flows/toy/customer-session.yaml": """
        session: toy.customer
        namespace: toy_customer
        headers:
          Authorization: "Bearer ${store.access}"
        """,
        "flows/toy/customer-login.yaml": """
        flow: toy.customer-login
        namespace: toy_customer
        inputs:
          email: { type: email }
          password: { type: string, secret: true }
        start: token
        states:
          token:
            request: { method: POST, path: /token, json: { email: "${inputs.email}", password: "${inputs.password}" } }
            on:
              - when: status == 200
                store: { access: body.access }
                goto: in
              - else: true
                goto: out
          in: { end: in, success: true }
          out: { end: out, success: false }
        """,
        "flows/toy/customer-me.yaml": """
        flow: toy.customer-me
        session: toy.customer
        namespace: toy_customer
        start: me
        states:
          me:
            request: { method: GET, path: /customer/me }
            on:
              - when: status == 200
                goto: ok
              - else: true
                goto: out
          ok: { end: ok, success: true }
          out: { end: out, success: false }
        """,
    ]
}

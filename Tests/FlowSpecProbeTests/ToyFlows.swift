/// The flows and session of the toy backend, as a user would write them, and its probe file.
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
        "flows/toy/login.yaml": """
            flow: toy.login
            namespace: toy
            inputs:
              code: { type: code, secret: true }
            start: login
            states:
              login:
                request: { method: POST, path: /login }
                on:
                  - when: status == 200
                    goto: ask
              ask:
                input: code
                goto: verify
              verify:
                request: { method: POST, path: /verify, json: { code: "${inputs.code}" } }
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
    ]

    /// The probe file; `extra` is appended under `promises:`.
    static func probe(_ extra: String = "", refused: String = "[401]") -> String {
        """
        probe: toy.session
        login:
          flow: toy.login
          inputs: { code: "123456" }
        protected: [toy.me]
        logout: toy.logout
        refused: \(refused)
        refresh_token_key: refresh
        promises:
          rotation: "toy docs: rotation"
          reuse_detection: { source: "toy docs: reuse", revokes_family: true }
          logout_revokes: "toy docs: logout"
          atomic_rotation: { source: "toy docs: single use", burst: 6 }
          one_time_codes: "toy docs: codes"
        \(extra)
        """
    }
}

import Testing

@testable import FlowSpecHTTP

@Suite(.timeLimit(.minutes(5))) struct ProxySettingsTests {
    @Test func readsUpperAndLowerCaseVariablesAndRespectsNoProxyAndLoopback() {
        let p = ProxySettings(environment: [
            "https_proxy": "http://user:pw@proxy.corp:3128/", "HTTP_PROXY": "proxy.corp",
            "NO_PROXY": ".internal, api.example.com:443",
        ])
        #expect(p.server(scheme: "https", host: "staging.example.org") == .init(host: "proxy.corp", port: 3128))
        #expect(p.server(scheme: "http", host: "staging.example.org") == .init(host: "proxy.corp", port: 80))
        #expect(p.server(scheme: "https", host: "auth.internal") == nil)
        #expect(p.server(scheme: "https", host: "api.example.com") == nil)
        #expect(p.server(scheme: "http", host: "127.0.0.1") == nil)
        #expect(p.server(scheme: "http", host: "localhost") == nil)
        #expect(
            ProxySettings(environment: ["HTTPS_PROXY": "x:1", "NO_PROXY": "*"]).server(scheme: "https", host: "a.b")
                == nil)
        #expect(ProxySettings(environment: [:]).server(scheme: "https", host: "a.b") == nil)
    }
}

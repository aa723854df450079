/// The API gateway in front of GoTrue (Kong): every route but /verify needs the project's anon key in an
/// `apikey` header (or `?apikey=`). Its errors are its own `{"message": …}`, not GoTrue's envelopes.
enum SupabaseGateway {
    static func refusal(_ request: SandboxRequest, anonKey: String) -> Reply? {
        guard let key = request.header("apikey") ?? request.query["apikey"] else {
            return .json(
                401, ["message": "No API key found in request"], headers: ["WWW-Authenticate": #"Key realm="kong""#])
        }
        guard key == anonKey else { return .json(401, ["message": "Invalid API key"]) }
        return nil
    }
}

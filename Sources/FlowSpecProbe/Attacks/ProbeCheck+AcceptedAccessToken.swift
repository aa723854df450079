import FlowSpecLanguage

/// The start the token attacks share: the access token they will send in another light (after a logout, from an
/// account since deactivated, to another session's flows) must first be one every protected flow accepts.
extension ProbeCheck {
    /// Runs `body` with the access token in `tokens` once every protected flow has accepted it (the control);
    /// otherwise the ERROR that says why a refusal would prove nothing: no token stored, or the control failed.
    func withAcceptedAccessToken(
        _ tokens: [String: JSONValue], _ body: (String) async -> [ProbeVerdict]
    ) async -> [ProbeVerdict] {
        guard let token = accessToken(tokens) else { return noAccessToken() }
        if let failed = await protectedControl(token, tokens: tokens) { return [failed] }
        return await body(token)
    }
}

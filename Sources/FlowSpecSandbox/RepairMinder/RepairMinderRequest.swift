extension SandboxRequest {
    /// The JSON object body, or 400 `{"error": "Invalid JSON body"}` in Repair Minder's error shape.
    func repairMinderBody() throws(Rejection) -> JSON {
        switch jsonObject() {
        case .success(let body): return body
        case .failure: throw Rejection(.error(400, RepairMinderMessages.invalidJSON))
        }
    }
}

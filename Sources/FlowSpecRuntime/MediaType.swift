import Foundation

/// What a `Content-Type` header says about a body: only a JSON media type makes a response body JSON.
public enum MediaType {
    /// `application/json` or any `type/subtype+json` (`application/problem+json`, `application/vnd.api+json`),
    /// case-insensitively, parameters such as `; charset=utf-8` ignored. No header, or one that is not a media
    /// type at all, is not JSON: flowspec does not sniff (docs/decisions.md).
    public static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let essence = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = essence.trimmingCharacters(in: [" ", "\t"]).lowercased().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let type = parts.first, let subtype = parts.last,
              isToken(type), isToken(subtype) else { return false }
        return (type == "application" && subtype == "json") || (subtype.hasSuffix("+json") && subtype.count > "+json".count)
    }

    /// RFC 9110 token characters; a media type's type and subtype are tokens.
    private static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}

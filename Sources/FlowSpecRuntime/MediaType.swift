import Foundation

/// What a `Content-Type` header says about a body: only a JSON media type makes a response body JSON.
package enum MediaType {
    /// `application/json` or any `type/subtype+json` (`application/problem+json`, `application/vnd.api+json`),
    /// case-insensitively, parameters such as `; charset=utf-8` ignored. No header, or one that is not a media
    /// type at all, is not JSON: flowspec does not sniff (docs/decisions.md, Reading responses).
    package static func isJSON(_ contentType: String?) -> Bool {
        guard var contentType else { return false }
        // Bytes, not characters: the header is ASCII when it is a media type at all, and Foundation's trimming and
        // lowercasing make copies through its Unicode machinery once every response. Read in place, not copied.
        return contentType.withUTF8 { bytes in
            var start = 0, end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
            let essence = bytes[start..<end]
            guard let slash = essence.firstIndex(of: UInt8(ascii: "/")) else { return false }
            let type = essence[..<slash], subtype = essence[(slash + 1)...]
            guard isToken(type), isToken(subtype) else { return false } // a second `/` is not a token character
            if sameIgnoringCase(type, "application"), sameIgnoringCase(subtype, "json") { return true }
            return subtype.count > 5 && sameIgnoringCase(subtype.suffix(5), "+json")
        }
    }

    private static func sameIgnoringCase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lowercase: StaticString) -> Bool
    {
        bytes.count == lowercase.utf8CodeUnitCount
            && zip(bytes, UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount))
                .allSatisfy { byte, expected in
                    (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == expected
                }
    }

    /// RFC 9110 token characters; a media type's type and subtype are tokens.
    private static func isToken(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        !text.isEmpty
            && text.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}

import Foundation

/// Substring tests with Foundation's meaning (`String.contains`: canonically equivalent text matches) at byte speed
/// when both sides are ASCII, where that meaning is plain byte equality. Foundation's search bridges every call to
/// an `NSString`; scenario checks ask it on every run.
package enum TextSearch {
    package static func contains(_ needle: String, in text: String) -> Bool {
        var needle = needle, text = text
        let answer: Bool? = needle.withUTF8 { part in
            text.withUTF8 { whole in
                // Foundation finds no empty string in anything; that answer is left to it.
                guard !part.isEmpty, part.allSatisfy({ $0 < 0x80 }), whole.allSatisfy({ $0 < 0x80 }) else { return nil }
                return firstOffset(of: part, in: whole) != nil
            }
        }
        return answer ?? text.contains(needle)
    }

    /// Where `part` first starts in `whole`, by bytes; 0 for an empty `part`.
    package static func firstOffset(of part: UnsafeBufferPointer<UInt8>, in whole: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = part.first else { return 0 }
        guard whole.count >= part.count else { return nil }
        var start = 0
        while start <= whole.count - part.count {
            if whole[start] == first {
                var offset = 1
                while offset < part.count, whole[start + offset] == part[offset] { offset += 1 }
                if offset == part.count { return start }
            }
            start += 1
        }
        return nil
    }
}

/// Codes compared in a time that does not depend on where they first differ, so how long a wrong guess takes to be
/// refused tells the guesser nothing about the code: one-time codes and TOTP codes are compared this way.
enum ConstantTime {
    static func equals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for (l, r) in zip(left, right) { difference |= l ^ r }
        return difference == 0
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many file descriptors this process has open, from `/proc/self/fd`; nil where there is no `/proc`.
/// Entries are counted, never copied: copying each `dirent` whole is the over-read that crashes Foundation's
/// `Process.run` (docs/decisions.md, Input commands).
package enum OpenDescriptors {
    package static func count() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var entries = 0
        while readdir(directory) != nil { entries += 1 }
        return max(0, entries - 2) // `.` and `..`
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What kind of file a `stat` mode describes: only regular files may be replaced by a rename.
package enum FileKind: Equatable, Sendable, CustomStringConvertible {
    case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other

    package init(_ mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .other
        }
    }

    /// "a FIFO", "a folder": for messages.
    package var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a folder"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO (named pipe)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "a special file"
        }
    }
}

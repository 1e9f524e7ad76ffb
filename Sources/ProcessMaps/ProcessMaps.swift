#if canImport(Glibc)
import Glibc
#endif

/// This process's memory map, `/proc/self/maps`: which files (shared libraries among them) are
/// mapped where. The engine pins the GL libraries it finds there; the asset locator finds the
/// library its own code was loaded from.
public enum ProcessMaps {
    /// The whole text, read to its end with read(2): a proc file reports size 0, and readers that
    /// trust the size (Foundation's among them) stop after the first 4 kB. Empty when unreadable.
    public static func read() -> String {
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

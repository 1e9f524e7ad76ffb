#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 address and port, host byte order.
public struct UDPEndpoint: Hashable, Sendable, CustomStringConvertible {
    public var address: UInt32
    public var port: UInt16

    public init(address: UInt32, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// "127.0.0.1", "0.0.0.0" or "localhost"; nil for anything else (names are not resolved).
    public init?(host: String, port: UInt16) {
        var addr = in_addr()
        let text = host == "localhost" ? "127.0.0.1" : host
        guard inet_pton(AF_INET, text, &addr) == 1 else { return nil }
        self.init(address: UInt32(bigEndian: addr.s_addr), port: port)
    }

    public var description: String {
        "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF):\(port)"
    }

    var sockaddr: sockaddr_in {
        var s = sockaddr_in()
        s.sin_family = sa_family_t(AF_INET)
        s.sin_port = port.bigEndian
        s.sin_addr.s_addr = address.bigEndian
        return s
    }

    init(_ s: sockaddr_in) {
        self.init(address: UInt32(bigEndian: s.sin_addr.s_addr), port: UInt16(bigEndian: s.sin_port))
    }
}

public struct UDPSocketError: Error, CustomStringConvertible {
    public var description: String
}

/// One non-blocking IPv4 UDP socket (POSIX): bind, wait, receive, send, close. The server's only
/// system calls, so the rest of the server is plain code.
public final class UDPSocket: @unchecked Sendable {
    private let fd: Int32
    /// The address actually bound (port 0 asks the kernel for a free one; this says which).
    public let local: UDPEndpoint

    /// Binds `endpoint`; throws with the reason (address in use, no such address).
    public init(binding endpoint: UDPEndpoint) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UDPSocketError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = endpoint.sockaddr
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let reason = errno == EADDRINUSE
                ? "\(endpoint) is in use (another DSU server, such as DS4Windows or evdevhook2, or a second tiltkit?)"
                : "cannot bind \(endpoint): \(String(cString: strerror(errno)))"
            Glibc.close(fd)
            throw UDPSocketError(description: reason)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        local = UDPEndpoint(actual)
    }

    deinit { Glibc.close(fd) }

    /// Waits up to `seconds` for a datagram; true when one is ready.
    public func waitReadable(seconds: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, Int32(seconds * 1000)) > 0 && p.revents & Int16(POLLIN) != 0
    }

    /// The next datagram, or nil when none is waiting. `length` is its real size even when it was
    /// longer than `buffer` (MSG_TRUNC), so an oversized packet is seen as such.
    public func receive(into buffer: inout [UInt8]) -> (length: Int, from: UDPEndpoint)? {
        var from = sockaddr_in()
        var fromLength = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.count
        let n = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, bytes.baseAddress, count, Int32(MSG_TRUNC), $0, &fromLength)
                }
            }
        }
        guard n >= 0 else { return nil }
        return (n, UDPEndpoint(from))
    }

    /// Sends one datagram; false when the kernel refused it (buffer full, unreachable).
    @discardableResult
    public func send(_ bytes: [UInt8], to endpoint: UDPEndpoint) -> Bool {
        var address = endpoint.sockaddr
        let n = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return n == bytes.count
    }
}

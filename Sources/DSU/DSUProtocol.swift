/// Constants of the cemuhook "DSU" protocol, version 1001: UDP, little-endian, a 16-byte header
/// and a u32 message type, then the message.
///
/// Sources: the protocol description v1993/cemuhook-protocol (README); sizes cross-checked with
/// Dolphin's `Source/Core/InputCommon/ControllerInterface/DualShockUDPClient/DualShockUDPProto.h`
/// (packed structs: VersionResponse 24 bytes, PortInfo 32, PadDataRequest 28, PadDataResponse 100).
public enum DSU {
    /// The only version served and accepted (`CEMUHOOK_PROTOCOL_VERSION` in Dolphin).
    public static let protocolVersion: UInt16 = 1001
    /// Where clients look by default (Cemu, Dolphin, DS4Windows).
    public static let defaultPort: UInt16 = 26760
    /// Slots a server offers (`PORT_COUNT` in Dolphin).
    public static let slotCount = 4
    /// Magic, version, length, CRC-32, sender id.
    public static let headerSize = 16
    public static let serverMagic: [UInt8] = Array("DSUS".utf8)
    public static let clientMagic: [UInt8] = Array("DSUC".utf8)

    /// Whole-packet sizes of the responses (Dolphin's structs; the client computes the CRC over
    /// exactly these sizes, so they must match byte for byte).
    public static let versionResponseSize = 24
    public static let portInfoResponseSize = 32
    public static let padDataResponseSize = 100
    /// Request sizes: version 20; port info 24 + one byte per asked slot (Dolphin always sends 4,
    /// so 28); pad data 28.
    public static let versionRequestSize = 20
    public static let portInfoRequestMinimumSize = 24
    public static let padDataRequestSize = 28
    /// The largest packet of the protocol; a longer datagram is dropped as oversized.
    public static let maxPacketSize = padDataResponseSize

    /// Seconds a pad-data subscription lasts without a new request (DS4Windows and
    /// joycond-cemuhook use 5 s; Dolphin re-asks every second, Cemu about as often).
    public static let subscriptionTimeout = 5.0
}

/// The u32 after the header (same value in the request and its response).
public enum DSUMessageType: UInt32, Sendable {
    case version = 0x10_0000
    case portInfo = 0x10_0001
    case padData = 0x10_0002
}

/// A slot's 6-byte MAC address, most significant byte first as on the wire.
public struct DSUMAC: Hashable, Sendable, CustomStringConvertible {
    public var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    public init(_ b: [UInt8]) {
        precondition(b.count == 6)
        bytes = (b[0], b[1], b[2], b[3], b[4], b[5])
    }

    public var array: [UInt8] { [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5] }

    /// A locally administered address (0x02 first) for a slot without a hardware MAC; never all
    /// zero, which clients read as "no pad".
    public static func local(slot: Int) -> DSUMAC { DSUMAC([0x02, 0x54, 0x4B, 0x00, 0x00, UInt8(truncatingIfNeeded: slot + 1)]) }

    public static func == (a: DSUMAC, b: DSUMAC) -> Bool { a.array == b.array }
    public func hash(into h: inout Hasher) { h.combine(array) }
    public var description: String { array.map { String($0, radix: 16).leftPadded(2) }.joined(separator: ":") }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

extension DSUMAC {
    /// A pad's address as Linux writes it (an evdev node's `uniq`, "aa:bb:cc:dd:ee:ff"); nil for
    /// anything else, or for all zeros (which clients read as "no pad").
    public init?(text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        let bytes = parts.compactMap { $0.count == 2 ? UInt8($0, radix: 16) : nil }
        guard bytes.count == 6, bytes.contains(where: { $0 != 0 }) else { return nil }
        self.init(bytes)
    }
}

/// What a client asks (v1993/cemuhook-protocol "Messages"; Dolphin's `FromClient`).
public enum DSURequest: Hashable, Sendable {
    /// 0x100000: the highest protocol version the server speaks.
    case version
    /// 0x100001: one port-info reply per listed slot (at most 4).
    case portInfo(slots: [UInt8])
    /// 0x100002: stream pad data for the matching slots until the client stops asking.
    case padData(DSUSubscription)
}

/// Which slots a pad-data request subscribes to. Flags byte: 0 all slots, bit 0 by slot number,
/// bit 1 by MAC (DS4Windows `UdpServer` matches either when both are set).
public struct DSUSubscription: Hashable, Sendable {
    public var slot: UInt8?
    public var mac: DSUMAC?

    public init(slot: UInt8? = nil, mac: DSUMAC? = nil) {
        self.slot = slot
        self.mac = mac
    }

    public static let allSlots = DSUSubscription()

    public var flags: UInt8 { (slot == nil ? 0 : 1) | (mac == nil ? 0 : 2) }

    public func matches(_ info: DSUSlotInfo) -> Bool {
        if slot == nil && mac == nil { return true }
        return slot == info.slot || mac == info.mac
    }
}

/// What a server sends (Dolphin's `FromServer`).
public enum DSUResponse: Hashable, Sendable {
    case version(maxProtocolVersion: UInt16)
    case portInfo(DSUSlotInfo)
    /// `counter` counts the pad-data packets this client received for this slot (0, 1, 2, …);
    /// `input` is the pad's buttons, sticks and touches at the time of `motion`.
    case padData(DSUSlotInfo, counter: UInt32, input: DSUPadInput, motion: DSUMotion)
}

/// A decoded packet: who sent it (the random per-run id in the header) and what it says.
public struct DSUPacket<Message: Hashable & Sendable>: Hashable, Sendable {
    public var senderID: UInt32
    public var message: Message

    public init(senderID: UInt32, message: Message) {
        self.senderID = senderID
        self.message = message
    }
}

/// Why a datagram was dropped; each is counted by the server.
public enum DSUDropReason: String, CaseIterable, Hashable, Sendable, Error {
    /// Shorter than a header and a message type.
    case short
    /// Longer than any packet of the protocol.
    case oversized
    /// Not "DSUC" (or "DSUS" when a client decodes).
    case badMagic
    /// Protocol version other than 1001.
    case badVersion
    /// The header's length is not the datagram's length − 16.
    case badLength
    /// The CRC-32 does not match.
    case badCRC
    /// A message type the protocol does not define.
    case unknownType
    /// A known type whose body is too short or holds impossible values (more than 4 slots, unknown flags).
    case badPayload
}

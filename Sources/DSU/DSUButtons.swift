/// The digital buttons of a pad-data packet, by the DualShock 4 names the protocol uses. The raw
/// value is the wire: its low byte is the first bitmask (D-pad left 0x80, down 0x40, right 0x20,
/// up 0x10, Options 0x08, R3 0x04, L3 0x02, Share 0x01), its second byte the second bitmask
/// (Square 0x80, Cross 0x40, Circle 0x20, Triangle 0x10, R1 0x08, L1 0x04, R2 0x02, L2 0x01),
/// then the PS and touch-click bytes. Bit values: v1993/cemuhook-protocol ("Bitmasks are
/// described in descending order") and DS4Windows `UdpServer.ReportToBuffer`; Dolphin's
/// `DualShockUDPClient.cpp` reads the same bits.
///
///     let held: DSUButtons = [.cross, .dpadUp]     // bytes 36, 37 of the packet: 0x10, 0x40
public struct DSUButtons: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let share = DSUButtons(rawValue: 0x01)
    public static let l3 = DSUButtons(rawValue: 0x02)
    public static let r3 = DSUButtons(rawValue: 0x04)
    public static let options = DSUButtons(rawValue: 0x08)
    public static let dpadUp = DSUButtons(rawValue: 0x10)
    public static let dpadRight = DSUButtons(rawValue: 0x20)
    public static let dpadDown = DSUButtons(rawValue: 0x40)
    public static let dpadLeft = DSUButtons(rawValue: 0x80)

    public static let l2 = DSUButtons(rawValue: 0x01 << 8)
    public static let r2 = DSUButtons(rawValue: 0x02 << 8)
    public static let l1 = DSUButtons(rawValue: 0x04 << 8)
    public static let r1 = DSUButtons(rawValue: 0x08 << 8)
    /// North (Nintendo X).
    public static let triangle = DSUButtons(rawValue: 0x10 << 8)
    /// East (Nintendo A).
    public static let circle = DSUButtons(rawValue: 0x20 << 8)
    /// South (Nintendo B).
    public static let cross = DSUButtons(rawValue: 0x40 << 8)
    /// West (Nintendo Y).
    public static let square = DSUButtons(rawValue: 0x80 << 8)

    /// The PS (Home) button: a byte of its own, 1 when held.
    public static let ps = DSUButtons(rawValue: 1 << 16)
    /// The touchpad's click: a byte of its own, 1 when held.
    public static let touchpad = DSUButtons(rawValue: 1 << 24)

    /// The first bitmask byte (D-pad, Options, sticks' clicks, Share).
    var firstByte: UInt8 { UInt8(truncatingIfNeeded: rawValue) }
    /// The second bitmask byte (face buttons, shoulders, triggers' clicks).
    var secondByte: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }

    init(firstByte: UInt8, secondByte: UInt8, ps: Bool, touchpad: Bool) {
        self.init(rawValue: UInt32(firstByte) | UInt32(secondByte) << 8 | (ps ? 1 << 16 : 0) | (touchpad ? 1 << 24 : 0))
    }
}

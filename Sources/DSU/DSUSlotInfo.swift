/// The 11-byte slot block that opens the port-info and pad-data responses: slot, state, model,
/// connection, MAC, battery (v1993/cemuhook-protocol; Dolphin's `DsState`, `DsModel`,
/// `DsConnection`, `DsBattery`). The twelfth byte is 0 in port info and "active" in pad data.
public struct DSUSlotInfo: Hashable, Sendable {
    public enum State: UInt8, Sendable { case disconnected = 0, reserved = 1, connected = 2 }
    public enum Model: UInt8, Sendable { case none = 0, partialGyro = 1, fullGyro = 2, generic = 3 }
    public enum Connection: UInt8, Sendable { case none = 0, usb = 1, bluetooth = 2 }

    public var slot: UInt8
    public var state: State
    public var model: Model
    public var connection: Connection
    public var mac: DSUMAC
    /// 0x00 not applicable, 0x01 dying … 0x05 full, 0xEE charging, 0xEF charged.
    public var battery: UInt8

    public init(slot: UInt8, state: State = .disconnected, model: Model = .none, connection: Connection = .none,
                mac: DSUMAC? = nil, battery: UInt8 = 0) {
        self.slot = slot
        self.state = state
        self.model = model
        self.connection = connection
        self.mac = mac ?? .local(slot: Int(slot))
        self.battery = battery
    }

    /// What a client reads for a slot nobody serves: all zero but the slot number.
    public static func absent(slot: UInt8) -> DSUSlotInfo {
        DSUSlotInfo(slot: slot, mac: DSUMAC([0, 0, 0, 0, 0, 0]))
    }
}

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

extension DSUSlotInfo {
    /// The battery byte from what Linux's power-supply class says of a pad
    /// (`/sys/class/power_supply/*/status` and `capacity`, in percent; hid-playstation and
    /// hid-nintendo register one per pad): charging 0xEE, full on the charger 0xEF, else the
    /// level 0x01 dying (< 10 %), 0x02 low (< 30 %), 0x03 medium (< 60 %), 0x04 high (< 90 %),
    /// 0x05 full; 0x00 when nothing is known. A driver that gives only `capacity_level`
    /// (hid-nintendo: Critical, Low, Normal, High, Full) is read as 5, 20, 50, 80, 100 %.
    /// Values: v1993/cemuhook-protocol "Battery values".
    ///
    ///     DSUSlotInfo.battery(status: "Discharging", capacityPercent: 45)   // 0x03
    public static func battery(status: String?, capacityPercent: Int?, capacityLevel: String? = nil) -> UInt8 {
        switch status {
        case "Charging": return 0xEE
        case "Full": return 0xEF
        default: break
        }
        let levels = ["Critical": 5, "Low": 20, "Normal": 50, "High": 80, "Full": 100]
        guard let percent = capacityPercent ?? capacityLevel.flatMap({ levels[$0] }), (0...100).contains(percent) else { return 0 }
        switch percent {
        case ..<10: return 0x01
        case ..<30: return 0x02
        case ..<60: return 0x03
        case ..<90: return 0x04
        default: return 0x05
        }
    }
}

/// The gyro gamepads read directly over hidraw, by USB vendor/product id.
public enum GamepadModel: String, CaseIterable, Hashable, Sendable {
    case dualShock4
    /// Sony's USB wireless adapter: DualShock 4 reports, possibly with no pad behind it.
    case dualShock4Dongle
    case dualSense
    case dualSenseEdge
    case switchPro
    case joyConLeft
    case joyConRight
    /// The Steam Deck's built-in controls (one USB device inside the Deck).
    case steamDeck
    /// The Steam Controller on its USB cable.
    case steamController
    /// Valve's wireless adapter for the Steam Controller: the same reports, possibly with no
    /// controller connected.
    case steamControllerDongle

    public static let sonyVendorID: UInt16 = 0x054C
    public static let nintendoVendorID: UInt16 = 0x057E
    public static let valveVendorID: UInt16 = 0x28DE

    /// Identifies a pad from the ids hidraw reports (HIDIOCGRAWINFO or uevent HID_ID).
    public init?(vendorID: UInt16, productID: UInt16) {
        switch (vendorID, productID) {
        case (Self.sonyVendorID, 0x05C4), (Self.sonyVendorID, 0x09CC): self = .dualShock4
        case (Self.sonyVendorID, 0x0BA0): self = .dualShock4Dongle
        case (Self.sonyVendorID, 0x0CE6): self = .dualSense
        case (Self.sonyVendorID, 0x0DF2): self = .dualSenseEdge
        case (Self.nintendoVendorID, 0x2009): self = .switchPro
        case (Self.nintendoVendorID, 0x2006): self = .joyConLeft
        case (Self.nintendoVendorID, 0x2007): self = .joyConRight
        // SDL's usb_ids.h; the kernel's hid-ids.h (USB_DEVICE_ID_STEAM_DECK, _STEAM_CONTROLLER,
        // _STEAM_CONTROLLER_WIRELESS).
        case (Self.valveVendorID, 0x1205): self = .steamDeck
        case (Self.valveVendorID, 0x1102): self = .steamController
        case (Self.valveVendorID, 0x1142): self = .steamControllerDongle
        default: return nil
        }
    }

    public var displayName: String {
        switch self {
        case .dualShock4: return "DualShock 4"
        case .dualShock4Dongle: return "DualShock 4 USB wireless adapter"
        case .dualSense: return "DualSense"
        case .dualSenseEdge: return "DualSense Edge"
        case .switchPro: return "Switch Pro Controller"
        case .joyConLeft: return "Joy-Con (L)"
        case .joyConRight: return "Joy-Con (R)"
        case .steamDeck: return "Steam Deck"
        case .steamController: return "Steam Controller"
        case .steamControllerDongle: return "Steam Controller wireless adapter"
        }
    }

    var family: Family {
        switch self {
        case .dualShock4, .dualShock4Dongle: return .dualShock4
        case .dualSense, .dualSenseEdge: return .dualSense
        case .switchPro, .joyConLeft, .joyConRight: return .nintendo
        case .steamDeck, .steamController, .steamControllerDongle: return .steam
        }
    }

    enum Family { case dualShock4, dualSense, nintendo, steam }

    /// Where the pad's gyro calibration comes from, for `tiltkit devices`: a factory calibration the
    /// pad reports, or none (Valve's reports carry none; `GyroCalibration` then finds the bias).
    public var calibrationSource: String {
        switch family {
        case .dualShock4, .dualSense: return "factory (feature report)"
        case .nintendo: return "factory (SPI flash)"
        case .steam: return "none in the reports: gyro bias from --gyro-calibration"
        }
    }
}

/// How the pad is attached; it changes report IDs, offsets and checksums.
public enum HIDBus: String, Hashable, Sendable {
    case usb, bluetooth

    /// From the kernel's BUS_* number (linux/input.h: BUS_USB 0x03, BUS_BLUETOOTH 0x05).
    public init?(kernelBusType: UInt32) {
        switch kernelBusType {
        case 0x03: self = .usb
        case 0x05: self = .bluetooth
        default: return nil
        }
    }
}

/// A pad model on a bus: what the report decoder needs to know.
public struct GamepadDevice: Hashable, Sendable, CustomStringConvertible {
    public var model: GamepadModel
    public var bus: HIDBus

    public init(model: GamepadModel, bus: HIDBus) {
        self.model = model
        self.bus = bus
    }

    /// Names accepted by `--device` hints, e.g. for a FIFO that has no ioctls.
    public static let hints: [String: GamepadDevice] = [
        "ds4-usb": GamepadDevice(model: .dualShock4, bus: .usb),
        "ds4-bt": GamepadDevice(model: .dualShock4, bus: .bluetooth),
        "ds4-dongle": GamepadDevice(model: .dualShock4Dongle, bus: .usb),
        "dualsense-usb": GamepadDevice(model: .dualSense, bus: .usb),
        "dualsense-bt": GamepadDevice(model: .dualSense, bus: .bluetooth),
        "switch-pro-usb": GamepadDevice(model: .switchPro, bus: .usb),
        "switch-pro-bt": GamepadDevice(model: .switchPro, bus: .bluetooth),
        "joycon-l": GamepadDevice(model: .joyConLeft, bus: .bluetooth),
        "joycon-r": GamepadDevice(model: .joyConRight, bus: .bluetooth),
        "steam-deck": GamepadDevice(model: .steamDeck, bus: .usb),
        "steam-controller": GamepadDevice(model: .steamController, bus: .usb),
        "steam-controller-dongle": GamepadDevice(model: .steamControllerDongle, bus: .usb),
    ]

    public init?(hint: String) {
        guard let device = Self.hints[hint.lowercased()] else { return nil }
        self = device
    }

    /// Guesses the pad from one input report, for streams with no device identity (a FIFO).
    /// Bluetooth report IDs are unambiguous; a 64-byte USB report 0x01 could be a DualShock 4 or a
    /// DualSense, so both layouts are tried and the one whose accelerometer reads closest to 1 g
    /// wins (any pad held or lying still reads ≈ 1 g).
    public init?(guessingFrom report: [UInt8]) {
        guard let id = report.first else { return nil }
        switch (id, report.count) {
        case (0x11, DualShock4Report.bluetoothLength): self.init(model: .dualShock4, bus: .bluetooth)
        case (0x31, DualSenseReport.bluetoothLength): self.init(model: .dualSense, bus: .bluetooth)
        case (0x30, SwitchReport.minimumLength...): self.init(model: .switchPro, bus: .usb)
        case (0x01, DualShock4Report.usbLength):
            func gravityError(_ accelOffset: Int, _ countsPerG: Double) -> Double {
                let a = report.int16Triple(at: accelOffset)
                let g = (Double(a.x * a.x) + Double(a.y * a.y) + Double(a.z * a.z)).squareRoot() / countsPerG
                return abs(g - 1)
            }
            let ds4 = gravityError(DualShock4Report.usbAccelOffset, PlayStationCalibration.nominalAccelCountsPerG)
            let ds = gravityError(DualSenseReport.usbAccelOffset, PlayStationCalibration.nominalAccelCountsPerG)
            guard min(ds4, ds) < 0.5 else { return nil }
            self.init(model: ds4 <= ds ? .dualShock4 : .dualSense, bus: .usb)
        default: return nil
        }
    }

    public var description: String { "\(model.displayName) (\(bus == .usb ? "USB" : "Bluetooth"))" }

    /// Samples per second the pad sends (SDL 2.26 HIDAPI drivers; INPUT_FACTS §2–4).
    public var nominalRate: Double {
        switch (model.family, bus) {
        case (.dualShock4, _): return 250
        case (.dualSense, .usb): return 250
        case (.dualSense, .bluetooth): return 1000
        case (.nintendo, _): return 200
        // A report every 4 ms (SDL's Steam Deck driver and hid-steam's Deck IMU: "always 1 kHz
        // according to the USB descriptor, but actually about 4 ms").
        case (.steam, _) where model == .steamDeck: return 250
        // SDL's default when the controller does not say its connection interval (9000 µs); the
        // source reads the real interval when it opens the controller.
        case (.steam, _): return 1e6 / Double(SteamControllerSettings.defaultReportIntervalMicroseconds)
        }
    }
}

import Foundation

/// A hidraw node as sysfs describes it (`/sys/class/hidraw/hidrawN/device/uevent`:
/// `HID_ID=0005:0000054C:000009CC`, `HID_NAME=…`, `HID_UNIQ=…`, `HID_PHYS=…`).
public struct HIDRawNode: Hashable, Sendable {
    /// e.g. "hidraw3".
    public var name: String
    /// e.g. "/dev/hidraw3".
    public var devicePath: String
    public var busType: UInt32
    public var vendorID: UInt16
    public var productID: UInt16
    public var productName: String
    /// Bluetooth MAC or USB serial; empty when the device has none.
    public var uniq: String
    public var phys: String

    public var bus: HIDBus? { HIDBus(kernelBusType: busType) }

    /// The USB interface number, from the phys suffix "/inputN" (usbhid's naming); nil otherwise.
    public var interfaceNumber: Int? {
        guard let range = phys.range(of: "/input", options: .backwards) else { return nil }
        return Int(phys[range.upperBound...])
    }

    /// False for a pad's other interfaces that share its ids and send no motion: the Steam Deck and
    /// the wired Steam Controller emulate a keyboard and a mouse on interfaces 0 and 1 and report
    /// on 2; the wireless adapter's controllers are interfaces 1–4 (SDL's HIDAPI Steam driver
    /// `IsSupportedDevice`; hid-steam tells them by their feature report).
    public var isMotionInterface: Bool {
        guard let interface = interfaceNumber, bus == .usb else { return true }
        switch model {
        case .steamDeck?, .steamController?: return interface == 2
        case .steamControllerDongle?: return (1...4).contains(interface)
        default: return true
        }
    }
    public var model: GamepadModel? { GamepadModel(vendorID: vendorID, productID: productID) }

    /// Parses a uevent file's text; nil without a well-formed HID_ID.
    public init?(name: String, devicePath: String, uevent: String) {
        var fields: [String: String] = [:]
        for line in uevent.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        let id = (fields["HID_ID"] ?? "").split(separator: ":")
        guard id.count == 3, let bus = UInt32(id[0], radix: 16), let vendor = UInt32(id[1], radix: 16),
              let product = UInt32(id[2], radix: 16) else { return nil }
        self.name = name
        self.devicePath = devicePath
        busType = bus
        vendorID = UInt16(truncatingIfNeeded: vendor)
        productID = UInt16(truncatingIfNeeded: product)
        productName = fields["HID_NAME"] ?? ""
        uniq = fields["HID_UNIQ"] ?? ""
        phys = fields["HID_PHYS"] ?? ""
    }

    /// Every hidraw node under `<sysfsRoot>/class/hidraw`, sorted by name.
    public static func scan(sysfsRoot: String = "/sys", devRoot: String = "/dev") -> [HIDRawNode] {
        let classDir = sysfsRoot + "/class/hidraw"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: classDir)) ?? []
        return names.sorted().compactMap { name in
            guard let uevent = try? String(contentsOfFile: "\(classDir)/\(name)/device/uevent", encoding: .utf8)
            else { return nil }
            return HIDRawNode(name: name, devicePath: "\(devRoot)/\(name)", uevent: uevent)
        }
    }

    /// True if `other` is the same physical pad: the same uniq (MAC/serial) where there is
    /// one, else the same vendor, product and bus.
    public func isSameDevice(as other: HIDRawNode) -> Bool {
        guard vendorID == other.vendorID && productID == other.productID else { return false }
        if !uniq.isEmpty || !other.uniq.isEmpty { return uniq.lowercased() == other.uniq.lowercased() }
        return busType == other.busType
    }
}

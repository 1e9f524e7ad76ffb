import CSDL2

/// The HID devices SDL's own hidapi enumerates (SDL_hid_enumerate): the pads its HIDAPI drivers
/// could read. A pad missing here is one SDL can only reach through its Linux joystick driver (for
/// example a USB-bus hidraw node without a usb_device parent, which SDL's bundled hidapi skips:
/// src/hidapi/linux/hid.c).
///
///     for d in SDLHIDDevices.list() { print(d.path, d.vendor, d.product) }
public enum SDLHIDDevices {
    public struct Device: Hashable, Sendable {
        public var path: String
        public var vendor: UInt16
        public var product: UInt16
        public var productName: String?
    }

    public static func list() -> [Device] {
        guard SDL_hid_init() == 0 else { return [] }
        defer { SDL_hid_exit() }
        guard let first = SDL_hid_enumerate(0, 0) else { return [] }
        defer { SDL_hid_free_enumeration(first) }
        var result: [Device] = []
        var next: UnsafeMutablePointer<SDL_hid_device_info>? = first
        while let d = next {
            let name = d.pointee.product_string.map { String(decoding: wideString($0), as: UTF8.self) }
            result.append(Device(path: d.pointee.path.map { String(cString: $0) } ?? "", vendor: d.pointee.vendor_id,
                                 product: d.pointee.product_id, productName: name))
            next = d.pointee.next
        }
        return result
    }

    private static func wideString(_ p: UnsafeMutablePointer<wchar_t>) -> [UInt8] {
        var bytes: [UInt8] = []
        var i = 0
        while p[i] != 0 && i < 256 {
            if let scalar = Unicode.Scalar(UInt32(bitPattern: p[i])) { bytes.append(contentsOf: Array(String(scalar).utf8)) }
            i += 1
        }
        return bytes
    }
}

import Foundation
import Motion

/// A capture in hid-tools' `hid-recorder` text format, the Linux standard for recording HID
/// devices (https://gitlab.freedesktop.org/libevdev/hid-tools, `hidtools/cli/record.py`):
///
///     # comments
///     D: 0                                  device index (multi-device recordings)
///     R: 211 05 01 09 05 a1 01 …            report descriptor: length, bytes (hex)
///     N: Sony Interactive Entertainment Wireless Controller
///     P: usb-0000:00:14.0-2/input3
///     I: 3 054c 09cc                        bus, vendor, product (hex)
///     E: 000000.004012 64 01 80 7f …        seconds.microseconds since start, length, bytes
///
/// Only the first device of a multi-device recording is kept.
public struct HIDRecording: Hashable, Sendable {
    public struct Event: Hashable, Sendable {
        /// Seconds since the recording started.
        public var time: Double
        public var report: [UInt8]
    }

    public var name = ""
    public var physicalPath = ""
    public var busType: UInt32?
    public var vendorID: UInt16?
    public var productID: UInt16?
    public var reportDescriptor: [UInt8] = []
    public var events: [Event] = []

    public struct ParseError: Error, Hashable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var message: String
        /// Line 0: the file as a whole.
        public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
    }

    /// The pad it was recorded from, if its ids are known.
    public var device: GamepadDevice? {
        guard let vendorID, let productID, let model = GamepadModel(vendorID: vendorID, productID: productID) else { return nil }
        return GamepadDevice(model: model, bus: busType.flatMap(HIDBus.init(kernelBusType:)) ?? .usb)
    }

    public init(contentsOf path: String) throws {
        // open(2) and read(2) through Motion's reader: the system's words ("Permission denied",
        // "a folder, not a file"), never Foundation's error text.
        let bytes: [UInt8]
        do { bytes = try FileInput.bytes(path: path, name: path) } catch let error as TraceError {
            throw ParseError(file: path, line: 0, message: error.what)
        }
        try self.init(text: String(decoding: bytes, as: UTF8.self), file: path)
    }

    public init(text: String, file: String = "<text>") throws {
        var deviceIndex = 0
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            func fail(_ message: String) -> ParseError { ParseError(file: file, line: number + 1, message: message) }
            guard line.count >= 2, line.dropFirst().first == ":" else { throw fail("expected 'X: …', got '\(line.prefix(40))'") }
            let tag = line.first!
            let body = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
            if tag == "D" { deviceIndex = Int(body) ?? 0; continue }
            if deviceIndex != 0 { continue }
            switch tag {
            case "N": name = body
            case "P": physicalPath = body
            case "I":
                let f = body.split(separator: " ")
                guard f.count == 3, let bus = UInt32(f[0], radix: 16), let v = UInt16(f[1], radix: 16), let p = UInt16(f[2], radix: 16)
                else { throw fail("I: needs 'bus vendor product' in hex") }
                busType = bus; vendorID = v; productID = p
            case "R":
                reportDescriptor = try Self.lengthAndBytes(body[...], fail)
            case "E":
                let f = body.split(separator: " ", maxSplits: 1)
                guard f.count == 2, let time = Double(f[0]) else { throw fail("E: needs 'seconds.micros length bytes…'") }
                events.append(Event(time: time, report: try Self.lengthAndBytes(f[1], fail)))
            default:
                continue  // Other tags (e.g. future additions) carry nothing the replay needs.
            }
        }
        guard !events.isEmpty else { throw ParseError(file: file, line: 0, message: "no E: events (not a hid-recorder file?)") }
    }

    private static func lengthAndBytes(_ text: Substring, _ fail: (String) -> ParseError) throws -> [UInt8] {
        let f = text.split(separator: " ", maxSplits: 1)
        guard let length = f.first.flatMap({ Int($0) }) else { throw fail("missing byte count") }
        let bytes = f.count > 1 ? HexBytes.parse(f[1]) : []
        guard let bytes else { throw fail("bytes are not hex") }
        guard bytes.count == length else { throw fail("says \(length) bytes but has \(bytes.count)") }
        return bytes
    }
}

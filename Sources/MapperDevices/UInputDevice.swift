import CLinuxInput
import Foundation
import MotionDevices
#if canImport(Glibc)
import Glibc
#endif

/// A virtual input device made through /dev/uinput with the modern setup of linux/uinput.h:
/// UI_SET_EVBIT and UI_SET_KEYBIT/RELBIT/ABSBIT per capability, UI_ABS_SETUP per axis, UI_DEV_SETUP
/// for the ids and name, UI_DEV_CREATE. Events are written as `struct input_event` records, a
/// batch ending in SYN_REPORT; `destroy()` (or deinit) removes the device (UI_DEV_DESTROY).
///
///     let mouse = try UInputDevice(VirtualMouse.layout)
///     try mouse.write([.relative(REL_X, 5), .synReport])
public final class UInputDevice: InputEventSink, @unchecked Sendable {
    /// What the device presents: ids, name, capabilities.
    public struct Layout: Hashable, Sendable {
        public struct Axis: Hashable, Sendable {
            public var code: Int32
            public var minimum: Int32
            public var maximum: Int32
            public init(code: Int32, minimum: Int32, maximum: Int32) {
                self.code = code
                self.minimum = minimum
                self.maximum = maximum
            }
        }

        public var name: String
        /// BUS_USB, BUS_VIRTUAL… (linux/input.h).
        public var bus: UInt16
        public var vendor: UInt16
        public var product: UInt16
        public var version: UInt16
        public var keys: [Int32] = []
        public var relativeAxes: [Int32] = []
        /// No fuzz and no flat: the mapper has applied the profile's deadzones, and the kernel's
        /// fuzz filter would smooth away small gyro-to-stick motion.
        public var absoluteAxes: [Axis] = []
    }

    public static let defaultPath = "/dev/uinput"
    public let layout: Layout
    public let path: String
    private var fd: Int32
    private let calls: SystemCalls
    private var buffer: [UInt8] = []

    public init(_ layout: Layout, path: String = UInputDevice.defaultPath, calls: SystemCalls = .live) throws(UInputError) {
        let (fd, code) = calls.open(path, O_WRONLY | O_NONBLOCK)
        guard fd >= 0 else { throw UInputError.fromOpen(path: path, errno: code) }
        self.layout = layout
        self.path = path
        self.fd = fd
        self.calls = calls
        do {
            try configure()
        } catch {
            _ = Glibc.close(fd)
            self.fd = -1
            throw error
        }
    }

    deinit { destroy() }

    private func configure() throws(UInputError) {
        func value(_ call: String, _ request: UInt, _ argument: Int32) throws(UInputError) {
            let (result, code) = calls.ioctlValue(fd, request, Int(argument))
            if result < 0 { throw .system(path: path, call: call, errno: code) }
        }
        func pointer<T>(_ call: String, _ request: UInt, _ argument: inout T) throws(UInputError) {
            let (result, code) = withUnsafeMutableBytes(of: &argument) { calls.ioctl(fd, request, $0.baseAddress!) }
            if result < 0 { throw .system(path: path, call: call, errno: code) }
        }
        if !layout.keys.isEmpty {
            try value("UI_SET_EVBIT", clinux_ui_set_evbit(), EV_KEY)
            for key in layout.keys { try value("UI_SET_KEYBIT", clinux_ui_set_keybit(), key) }
        }
        if !layout.relativeAxes.isEmpty {
            try value("UI_SET_EVBIT", clinux_ui_set_evbit(), EV_REL)
            for axis in layout.relativeAxes { try value("UI_SET_RELBIT", clinux_ui_set_relbit(), axis) }
        }
        if !layout.absoluteAxes.isEmpty {
            try value("UI_SET_EVBIT", clinux_ui_set_evbit(), EV_ABS)
            for axis in layout.absoluteAxes {
                try value("UI_SET_ABSBIT", clinux_ui_set_absbit(), axis.code)
                var setup = uinput_abs_setup()
                setup.code = UInt16(axis.code)
                setup.absinfo.minimum = axis.minimum
                setup.absinfo.maximum = axis.maximum
                try pointer("UI_ABS_SETUP", clinux_ui_abs_setup(), &setup)
            }
        }
        var setup = uinput_setup()
        setup.id = input_id(bustype: layout.bus, vendor: layout.vendor, product: layout.product, version: layout.version)
        withUnsafeMutableBytes(of: &setup.name) { name in
            // UINPUT_MAX_NAME_SIZE bytes, the last a NUL.
            for (i, byte) in layout.name.utf8.prefix(name.count - 1).enumerated() { name[i] = byte }
        }
        try pointer("UI_DEV_SETUP", clinux_ui_dev_setup(), &setup)
        try value("UI_DEV_CREATE", clinux_ui_dev_create(), 0)
    }

    /// Writes `events` in one write(2), as the kernel's 24-byte records.
    public func write(_ events: [InputEvent]) throws(UInputError) {
        guard fd >= 0, !events.isEmpty else { return }
        buffer.removeAll(keepingCapacity: true)
        for event in events { Self.append(event, to: &buffer) }
        let (written, code) = buffer.withUnsafeBytes { calls.write(fd, $0) }
        if written < 0 { throw .system(path: path, call: "write", errno: code) }
    }

    /// `struct input_event` on 64-bit Linux (linux/input.h), little-endian: the time left zero
    /// (uinput stamps each event), then type, code, value. Appended in place: a write allocates nothing
    /// once the buffer has grown.
    private static func append(_ event: InputEvent, to buffer: inout [UInt8]) {
        for _ in 0..<16 { buffer.append(0) }
        withUnsafeBytes(of: event.type.littleEndian) { buffer.append(contentsOf: $0) }
        withUnsafeBytes(of: event.code.littleEndian) { buffer.append(contentsOf: $0) }
        withUnsafeBytes(of: event.value.littleEndian) { buffer.append(contentsOf: $0) }
    }

    /// Removes the device (games holding it see it unplugged). Idempotent.
    public func destroy() {
        guard fd >= 0 else { return }
        _ = calls.ioctlValue(fd, clinux_ui_dev_destroy(), 0)
        _ = Glibc.close(fd)
        fd = -1
    }
}

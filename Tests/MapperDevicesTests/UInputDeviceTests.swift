import CLinuxInput
import Foundation
@testable import MapperDevices
import MotionDevices
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The calls a device made, kept by a `SystemCalls` that opens /dev/null in place of /dev/uinput.
final class UInputCallLog: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var values: [(request: UInt, value: Int)] = []
    private(set) var setups: [uinput_setup] = []
    private(set) var axes: [uinput_abs_setup] = []
    private(set) var written: [UInt8] = []

    var calls: SystemCalls {
        var calls = SystemCalls(open: { _, flags in
            let fd = Glibc.open("/dev/null", flags)
            return (fd, fd < 0 ? errno : 0)
        }, ioctl: { [self] _, request, argument in
            lock.lock(); defer { lock.unlock() }
            if request == clinux_ui_dev_setup() { setups.append(argument.load(as: uinput_setup.self)) }
            if request == clinux_ui_abs_setup() { axes.append(argument.load(as: uinput_abs_setup.self)) }
            return (0, 0)
        })
        calls.ioctlValue = { [self] _, request, value in
            lock.lock(); values.append((request, value)); lock.unlock()
            return (0, 0)
        }
        calls.write = { [self] _, buffer in
            lock.lock(); written += buffer; lock.unlock()
            return (buffer.count, 0)
        }
        return calls
    }
}

@Suite("uinput devices")
struct UInputDeviceTests {
    @Test("no /dev/uinput: one line saying to load the module")
    func missing() {
        for code in [ENOENT, ENODEV] {
            #expect(throws: UInputError.moduleMissing(path: "/dev/uinput")) { try UInputDevice(VirtualMouse.layout, calls: .failingOpen(code)) }
        }
        let line = UInputError.moduleMissing(path: "/dev/uinput").description
        #expect(line.hasPrefix("/dev/uinput does not exist") && line.contains("sudo modprobe uinput") && !line.contains("\n"))
    }

    @Test("permission denied: one line naming the udev rule to install and where")
    func denied() {
        #expect(throws: UInputError.permissionDenied(path: "/dev/uinput")) { try UInputDevice(VirtualGamepad.layout, calls: .failingOpen(EACCES)) }
        let line = UInputError.permissionDenied(path: "/dev/uinput").description
        #expect(line.contains("sudo cp Assets/udev/71-tiltkit-uinput.rules /etc/udev/rules.d/") && !line.contains("\n"))
        #expect(FileManager.default.fileExists(atPath: TestDataPath.repository + "/" + UInputError.udevRulePath))
    }

    @Test("setup: event types and codes, each axis's range, the ids and name, then UI_DEV_CREATE; UI_DEV_DESTROY at the end")
    func setup() throws {
        let log = UInputCallLog()
        let device = try UInputDevice(VirtualGamepad.layout, calls: log.calls)
        let requests = log.values.map(\.request)
        #expect(log.values.filter { $0.request == clinux_ui_set_evbit() }.map(\.value) == [Int(EV_KEY), Int(EV_ABS)])
        #expect(log.values.filter { $0.request == clinux_ui_set_keybit() }.map { Int32($0.value) } == VirtualGamepad.layout.keys)
        #expect(requests.last == clinux_ui_dev_create())
        let setup = try #require(log.setups.first)
        #expect([setup.id.bustype, setup.id.vendor, setup.id.product, setup.id.version] == [UInt16(BUS_USB), 0x045E, 0x028E, 0x0110])
        let name = withUnsafeBytes(of: setup.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #expect(name == "Tiltkit Virtual Gamepad")
        #expect(log.axes.map { [Int32($0.code), $0.absinfo.minimum, $0.absinfo.maximum] }
            == VirtualGamepad.layout.absoluteAxes.map { [$0.code, $0.minimum, $0.maximum] })

        try device.write([InputEvent(time: 0, type: UInt16(EV_KEY), code: UInt16(BTN_A), value: 1), .synReport])
        #expect(log.written.count == 48)
        #expect(InputEvent(bytes: log.written, at: 0) == InputEvent(time: 0, type: UInt16(EV_KEY), code: UInt16(BTN_A), value: 1))
        device.destroy()
        #expect(log.values.last?.request == clinux_ui_dev_destroy())
        device.destroy()
        #expect(log.values.filter { $0.request == clinux_ui_dev_destroy() }.count == 1)
    }
}

enum TestDataPath {
    /// The repository root, from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}

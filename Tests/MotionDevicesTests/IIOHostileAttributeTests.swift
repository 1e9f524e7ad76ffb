import Foundation
import Synchronization
import Motion
@testable import MotionDevices
import Testing

/// A hostile tester's sysfs: every attribute a device is described by, made wrong in each way
/// found (out of range, not a number, a FIFO, a folder, missing, duplicated). Each is refused
/// with one line naming the attribute's path and its value; none crashes, none waits.
@Suite("IIO attributes that cannot be trusted")
struct IIOHostileAttributeTests {
    /// `body`'s result, or a recorded failure when it has not returned after `seconds` (a FIFO
    /// opened for reading waits for a writer: the test must fail, not hang).
    static func within<T: Sendable>(_ seconds: Double = 5, _ body: @escaping @Sendable () -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        Thread.detachNewThread {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else {
            Issue.record("still waiting after \(seconds) s")
            return nil
        }
        return result.withLock { $0 }
    }

    /// The one-line message opening `directory` as a polled IMU gives; nil if it opened.
    static func refusal(_ directory: String) -> String? {
        within { () -> String? in
            do {
                _ = try IIOPollingSource(directory: directory, clock: ManualClock(now: 0))
                return nil
            } catch { return "\(error)" }
        } ?? "hung"
    }

    static func expectRefused(_ fake: FakeIIODevice, _ file: String, value: String?, sourceLocation: SourceLocation = #_sourceLocation) {
        let message = refusal(fake.directory)
        #expect(message?.contains("\(fake.directory)/\(file)") == true, "\(message ?? "opened")", sourceLocation: sourceLocation)
        if let value { #expect(message?.contains("'\(value)'") == true, "\(message ?? "opened")", sourceLocation: sourceLocation) }
        #expect(message?.contains("\n") == false, sourceLocation: sourceLocation)
    }

    @Test("a rate that is negative, tiny, huge, NaN, infinite or not a number is refused, naming sampling_frequency and the value",
          arguments: ["-5", "1e-300", "1e300", "nan", "inf", "-inf", "garbage", "", "50 Hz"])
    func badRates(value: String) throws {
        let fake = try FakeIIODevice()
        try fake.write("sampling_frequency", value)
        Self.expectRefused(fake, "sampling_frequency", value: value)
    }

    @Test("a rate of 0 (a sensor hub at rest) is asked for 100 Hz, and the note says so")
    func restingHub() throws {
        let fake = try FakeIIODevice()
        try fake.write("sampling_frequency", "0.000000")
        let source = try IIOPollingSource(directory: fake.directory, clock: ManualClock(now: 0))
        #expect(source.info.nominalRate == 100)
        #expect(try String(contentsOfFile: fake.directory + "/sampling_frequency", encoding: .utf8) == "100")
        #expect(source.notes == ["\(fake.directory): sampling_frequency reads 0 (a sensor hub at rest); asked it for 100 Hz, it took 100 Hz"])
        let asked = try IIOPollingSource(directories: [fake.directory], requestedRate: 25, clock: ManualClock(now: 0))
        #expect(asked.info.nominalRate == 25 && asked.notes.isEmpty)
    }

    @Test("a scale that does not parse, is NaN, 0 or below the kernel's 1e-9 is refused, not read as 1",
          arguments: ["garbage", "nan", "0", "0.000000000", "1e-12", "inf", "1e300"])
    func badScales(value: String) throws {
        let fake = try FakeIIODevice()
        try fake.write("in_accel_scale", value)
        Self.expectRefused(fake, "in_accel_scale", value: value)
    }

    @Test("an offset or a per-axis scale that does not parse is refused too", arguments: [
        ("in_accel_offset", "x"), ("in_magn_y_scale", "0.003574.1"), ("in_anglvel_offset", "nan"),
    ])
    func badOffsets(file: String, value: String) throws {
        let fake = try FakeIIODevice()
        try fake.write(file, value)
        Self.expectRefused(fake, file, value: value)
    }

    @Test("a mount matrix with a missing, non-numeric or infinite entry, or a singular one, is refused", arguments: [
        "1, 0, 0; 0, 1, 0", "1, 0, 0; 0, 1, 0; 0, 0, x", "1, 0, 0; 0, inf, 0; 0, 0, 1", "0, 0, 0; 0, 0, 0; 0, 0, 0",
        "1, 0, 0, 0; 0, 1, 0; 0, 0, 1",
    ])
    func badMountMatrices(value: String) throws {
        let fake = try FakeIIODevice()
        try fake.write("in_accel_mount_matrix", value)
        Self.expectRefused(fake, "in_accel_mount_matrix", value: value)
    }

    @Test("an attribute that is a FIFO is refused at once, not waited on; a folder too",
          arguments: ["sampling_frequency", "in_accel_scale", "in_accel_x_raw", "name", "in_magn_mount_matrix"])
    func notRegularFiles(file: String) throws {
        for kind in ["FIFO", "folder"] {
            let fake = try FakeIIODevice()
            let path = fake.directory + "/" + file
            try FileManager.default.removeItem(atPath: path)
            if kind == "FIFO" { #expect(mkfifo(path, 0o644) == 0) } else { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
            let message = Self.refusal(fake.directory)
            #expect(message == "\(path): a \(kind), not a sysfs attribute")
        }
    }

    @Test("an unreadable attribute is refused naming it", .disabled(if: getuid() == 0, "root reads every file"))
    func unreadable() throws {
        let fake = try FakeIIODevice()
        #expect(chmod(fake.directory + "/in_accel_scale", 0) == 0)
        let message = Self.refusal(fake.directory)
        #expect(message?.hasPrefix("permission denied opening \(fake.directory)/in_accel_scale") == true, "\(message ?? "opened")")
    }

    @Test("an _available list that holds something other than rates is refused, naming it")
    func badAvailable() throws {
        #expect(throws: DeviceError.self) { try IIOSamplingFrequency.choose(requested: 50, available: "12.5 nan 52") }
        #expect(throws: DeviceError.self) { try IIOSamplingFrequency.choose(requested: 50, available: "[200 5 10]") }
        #expect(throws: DeviceError.self) { try IIOSamplingFrequency.choose(requested: 50, available: "[10 inf 200]") }
        let fake = try FakeIIODevice()
        try fake.write("sampling_frequency_available", "10 twenty 50")
        let directory = fake.directory
        let message = Self.within { () -> String? in
            do { _ = try IIOPollingSource(directories: [directory], requestedRate: 50); return nil } catch { return "\(error)" }
        } ?? nil
        #expect(message == "\(fake.directory)/sampling_frequency_available: reads '10 twenty 50', expected rates in Hz (0.000001 to 1000000) separated by spaces")
    }

    @Test("a pause of NaN, infinite or 1e300 s does not trap: the thread still stops")
    func pauses() {
        for seconds in [Double.nan, .infinity, 1e300, -1] {
            let thread = SourceThread(name: "pause") { thread in _ = thread.pause(seconds) }
            Thread.sleep(forTimeInterval: 0.05)
            let stopped = Self.within { thread.stop(); return true }
            #expect(stopped == true)
        }
    }
}

@Suite("IIO buffer scan elements that cannot be trusted")
struct IIOScanElementTests {
    static let folder = "/sys/bus/iio/devices/iio:device0/scan_elements"

    static func layout(_ attributes: [String: String]) throws(DeviceError) -> IIOScanLayout {
        let files = attributes.keys.map { String($0.dropFirst(folder.count + 1)) }
        return try IIOScanElements.layout(folder: folder, files: files) { path in attributes[path] }
    }

    static func accel(_ changes: [String: String?] = [:]) -> [String: String] {
        var attributes: [String: String] = [:]
        for (i, axis) in ["x", "y", "z"].enumerated() {
            attributes["\(folder)/in_accel_\(axis)_en"] = "1"
            attributes["\(folder)/in_accel_\(axis)_index"] = "\(i)"
            attributes["\(folder)/in_accel_\(axis)_type"] = "le:s16/16>>0"
        }
        attributes["\(folder)/in_timestamp_en"] = "1"
        attributes["\(folder)/in_timestamp_index"] = "3"
        attributes["\(folder)/in_timestamp_type"] = "le:s64/64>>0"
        for (file, value) in changes { attributes["\(folder)/\(file)"] = value }
        return attributes
    }

    @Test("the whole layout when every enabled element is described")
    func whole() throws {
        let layout = try Self.layout(Self.accel())
        #expect(layout.elements.map(\.offset) == [0, 2, 4, 8] && layout.scanBytes == 16)
        // a disabled element's index and type are not read: they take no bytes
        let disabled = try Self.layout(Self.accel(["in_accel_y_en": "0", "in_accel_y_type": "garbage"]))
        #expect(disabled.elements.map(\.name) == ["in_accel_x", "in_accel_z", "in_timestamp"])
    }

    @Test("an enabled element with a bad type, no index, no type, a duplicate or bad index, or a bad _en is refused", arguments: [
        ("in_accel_y_type", "garbage", "reads 'garbage', expected a scan type"),
        ("in_accel_y_type", "le:s16/16X300", "reads 'le:s16/16X300', expected a scan type"),
        ("in_accel_y_index", nil, "missing: the enabled element in_accel_y needs its place in the scan"),
        ("in_accel_y_type", nil, "missing: the enabled element in_accel_y needs its storage format"),
        ("in_accel_y_index", "0", "reads '0', expected an index of its own (in_accel_x is at 0 too, so their bytes would overlap)"),
        ("in_accel_y_index", "-1", "reads '-1', expected a scan index"),
        ("in_accel_y_index", "one", "reads 'one', expected a scan index"),
        ("in_accel_y_en", "yes", "reads 'yes', expected 0 or 1"),
    ] as [(String, String?, String)])
    func refused(file: String, value: String?, expected: String) {
        do {
            let layout = try Self.layout(Self.accel([file: value]))
            Issue.record("accepted: \(layout)")
        } catch {
            #expect("\(error)".hasPrefix("\(Self.folder)/\(file): \(expected)"), "\(error)")
        }
    }
}

@Suite("Discovery of devices that cannot be used")
struct UnusableDeviceTests {
    @Test("a device refused for an attribute is listed with the reason, never chosen; closed devices are named with the udev rule")
    func notes() throws {
        let fake = try FakeIIODevice()
        try fake.write("in_accel_scale", "garbage")
        var discovery = MotionDeviceDiscovery(sysfsRoot: fake.root.path + "/sys", devRoot: fake.root.path + "/dev")
        let devices = fake.root.path + "/sys/bus/iio/devices"
        try FileManager.default.createDirectory(atPath: devices, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: devices + "/iio:device0", withDestinationPath: fake.directory)
        discovery.isAccessible = { _, _ in true }
        let found = discovery.iio()
        let refused = try #require(found.first)
        #expect(refused.refusal == "\(devices)/iio:device0/in_accel_scale: reads 'garbage', expected a scale: a finite number, 1e-9 to 9.2e18 in size")
        #expect(refused.sensors.contains(.accelerometer) && MotionDeviceDiscovery.best(of: found) == nil)
        #expect(MotionDeviceDiscovery.unusableNotes(found) == ["iio:\(devices)/iio:device0 (mpu9250) is here but refused: \(refused.refusal!)"])

        let closed = DiscoveredMotionDevice(kind: "hidraw", path: "/dev/hidraw3", name: "DualSense [ds5-usb]",
                                            sensors: [.accelerometer, .gyroscope], rate: 250, accessible: false)
        #expect(MotionDeviceDiscovery.best(of: [closed]) == nil)
        let note = try #require(MotionDeviceDiscovery.unusableNotes([closed]).first)
        #expect(note.hasPrefix("hidraw:/dev/hidraw3 (DualSense [ds5-usb]) is here but this user may not open it: install the udev rule"))
        #expect(note.contains(TiltkitUdevRules.padRulesFile))
    }
}

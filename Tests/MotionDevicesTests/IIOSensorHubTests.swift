import Foundation
import Motion
@testable import MotionDevices
import Testing
import TestSupport

/// A fake sysfs tree of a HID sensor hub as Linux 6.1 builds it: one IIO device per sensor
/// (`accel_3d`, `gyro_3d`, `magn_3d`), each under its own `HID-SENSOR-2000xx` platform device of
/// one HID device, linked from `bus/iio/devices`. Values and layout as seen from the kernel's own
/// hid-sensor drivers in the VM (scripts/kernel-test/test_iio.py): shared `in_<type>_scale`,
/// 16-bit data in 32-bit storage, no timestamp on the magnetometer. `withBarometer` adds the
/// hub's pressure device (`press`, hid-sensor-press: one axis-less `in_pressure` channel).
final class FakeSensorHub {
    let root: URL
    var sysfs: String { root.path + "/sys" }
    var devices: String { sysfs + "/bus/iio/devices" }
    var deviceNodes: String { root.path + "/dev" }

    init(withBarometer: Bool = false) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-hub-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(atPath: devices, withIntermediateDirectories: true)
        try fm.createDirectory(atPath: deviceNodes, withIntermediateDirectories: true)
        let hid = sysfs + "/devices/virtual/misc/uhid/0003:8086:22D8.0001"
        var sensors: [(String, String, String, String, [String: String])] = [
            ("iio:device0", "HID-SENSOR-200073.1.auto", "accel_3d", "accel",
             ["in_accel_scale": "0.009806650", "in_accel_x_raw": "981", "in_accel_y_raw": "-250", "in_accel_z_raw": "-1000"]),
            ("iio:device1", "HID-SENSOR-200076.2.auto", "gyro_3d", "anglvel",
             ["in_anglvel_scale": "0.000017453", "in_anglvel_x_raw": "123456", "in_anglvel_y_raw": "-654321", "in_anglvel_z_raw": "7"]),
            ("iio:device2", "HID-SENSOR-200083.3.auto", "magn_3d", "magn",
             ["in_magn_scale": "0.001000000", "in_magn_x_raw": "250", "in_magn_y_raw": "-410", "in_magn_z_raw": "30"]),
        ]
        if withBarometer {
            sensors.append(("iio:device3", "HID-SENSOR-200031.4.auto", "press", "pressure",
                            ["in_pressure_scale": "0.010000000", "in_pressure_raw": "10012"]))
        }
        for (node, platform, name, type, values) in sensors {
            let dir = "\(hid)/\(platform)/\(node)"
            try fm.createDirectory(atPath: dir + "/scan_elements", withIntermediateDirectories: true)
            try fm.createDirectory(atPath: dir + "/buffer", withIntermediateDirectories: true)
            var files = values
            files["name"] = name
            files["in_\(type)_offset"] = "0"
            files["in_\(type)_sampling_frequency"] = "100.000000"
            let axes: [String] = type == "pressure" ? [""] : ["x", "y", "z"]
            for (i, axis) in axes.enumerated() {
                let element = axis.isEmpty ? "in_\(type)" : "in_\(type)_\(axis)"
                files["scan_elements/\(element)_en"] = "0"
                files["scan_elements/\(element)_index"] = "\(i)"
                files["scan_elements/\(element)_type"] = type == "anglvel" || type == "pressure" ? "le:s32/32>>0" : "le:s16/32>>0"
            }
            if type != "magn" {
                files["scan_elements/in_timestamp_en"] = "0"
                files["scan_elements/in_timestamp_index"] = "3"
                files["scan_elements/in_timestamp_type"] = "le:s64/64>>0"
            }
            for (file, value) in files { try (value + "\n").write(toFile: "\(dir)/\(file)", atomically: true, encoding: .utf8) }
            try fm.createSymbolicLink(atPath: "\(devices)/\(node)", withDestinationPath: dir)
        }
    }

    func directory(_ n: Int) -> String { "\(devices)/iio:device\(n)" }

    deinit { try? FileManager.default.removeItem(at: root) }
}

@Suite("IIO sensor hub")
struct IIOSensorHubTests {
    @Test("a hub's accel, gyro and magn devices read as one polled IMU, the accelerometer's first, in the gravity sign")
    func polledTogether() throws {
        let hub = try FakeSensorHub()
        let source = try IIOPollingSource(directories: [hub.directory(2), hub.directory(1), hub.directory(0)],
                                          clock: ManualClock(now: 7))
        #expect(source.devices.map(\.name) == ["accel_3d", "magn_3d", "gyro_3d"])
        #expect(source.info.sensors == [.accelerometer, .gyroscope, .magnetometer])
        #expect(source.info.nominalRate == 100)
        let s = try #require(try source.read())
        // hid-sensor-accel-3d passes the hub's gravity-direction values through: -1000 mg on z is
        // Core Motion's -1 g lying face up, no negation
        #expect(abs(s.acceleration.z + 1.0) < 1e-9 && abs(s.acceleration.x - 0.981) < 1e-9)
        let w = try #require(s.rotationRate)
        #expect(abs(w.y + 654321 * 0.000017453) < 1e-12)
        let m = try #require(s.magneticField)
        #expect(abs(m.x - 25) < 1e-9 && abs(m.y + 41) < 1e-9)  // 250 mG = 25 µT
    }

    @Test("a hub's pressure device rides along as the barometer, in kPa; discovery groups it with the IMU, never alone")
    func barometer() throws {
        let hub = try FakeSensorHub(withBarometer: true)
        let all = [hub.directory(0), hub.directory(1), hub.directory(2), hub.directory(3)]
        let source = try IIOPollingSource(directories: all, clock: ManualClock(now: 1))
        #expect(source.info.sensors == [.accelerometer, .gyroscope, .magnetometer, .barometer])
        let s = try #require(try source.read())
        #expect(abs(try #require(s.pressure) - 100.12) < 1e-9)  // raw × scale, kPa as the IIO ABI defines in_pressure
        var discovery = MotionDeviceDiscovery(sysfsRoot: hub.sysfs, devRoot: hub.deviceNodes)
        discovery.isAccessible = { _, _ in true }
        let found = discovery.iio()
        #expect(found.first?.sourceSpec == "iio:\(IIODeviceGroup.spec(all))")
        #expect(found.first?.sensors.contains(.barometer) == true)
        #expect(!found.contains { $0.path == hub.directory(3) })
        #expect(throws: DeviceError.self) { try IIOPollingSource(directory: hub.directory(3)) }
    }

    @Test("discovery offers a hub's devices together (and as the best source); a magnetometer alone is not a source")
    func discovered() throws {
        let hub = try FakeSensorHub()
        var discovery = MotionDeviceDiscovery(sysfsRoot: hub.sysfs, devRoot: hub.deviceNodes)
        discovery.isAccessible = { _, _ in true }
        let found = discovery.iio()
        let together = IIODeviceGroup.spec([hub.directory(0), hub.directory(1), hub.directory(2)])
        #expect(found.map(\.sourceSpec).prefix(2) == ["iio:\(together)", "iio-buffer:\(together)"])
        #expect(found.first?.sensors == [.accelerometer, .gyroscope, .magnetometer])
        #expect(!found.contains { $0.path == hub.directory(2) })
        #expect(found.contains { $0.sourceSpec == "iio:\(hub.directory(1))" })
        #expect(MotionDeviceDiscovery.best(of: found)?.sourceSpec == "iio-buffer:\(together)")
        #expect(IIODeviceGroup.directories(together) == [hub.directory(0), hub.directory(1), hub.directory(2)])
    }

    @Test("buffered: gyro scans ride along with the next accelerometer scan; the magnetometer has no timestamp")
    func bufferedTogether() throws {
        let hub = try FakeSensorHub()
        func fifo(_ n: Int) throws -> Int32 {
            let path = "\(hub.deviceNodes)/iio:device\(n)"
            try #require(mkfifo(path, 0o600) == 0)
            return open(path, O_RDWR)
        }
        let accel = try fifo(0), gyro = try fifo(1), magn = try fifo(2)
        defer { close(accel); close(gyro); close(magn) }
        let source = try IIOBufferSource(directories: [hub.directory(0), hub.directory(1), hub.directory(2)],
                                         deviceNodes: hub.deviceNodes)
        #expect(source.decoders.map(\.layout.scanBytes) == [24, 24, 12])
        #expect(!source.decoders[2].hasTimestamps)
        let box = EventBox()
        try source.start { event in box.append(event, finished: false) }
        defer { source.stop() }
        func le32(_ v: Int32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        func le64(_ v: Int64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        func send(_ fd: Int32, _ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
        func samples() -> [MotionSample] { box.events.samples }
        // a realtime-clock stamp (the driver's default): 1.7e9 s
        send(accel, le32(0) + le32(0) + le32(-1000) + [0, 0, 0, 0] + le64(1_700_000_000_000_000_000))
        Thread.sleep(forTimeInterval: 0.3)
        #expect(samples().isEmpty, "no sample before the gyro and magnetometer were read")
        send(gyro, le32(1000) + le32(-2000) + le32(3) + [0, 0, 0, 0] + le64(1_700_000_000_005_000_000))
        send(magn, le32(250) + le32(-410) + le32(0x7FFF_0000 | 30))  // 16 real bits of 32: the upper half is not data
        Thread.sleep(forTimeInterval: 0.3)
        send(accel, le32(981) + le32(0) + le32(-1000) + [0, 0, 0, 0] + le64(1_700_000_000_010_000_000))
        try #require(box.wait(timeout: 5) { _ in samples().count == 1 })
        let s = samples()[0]
        #expect(abs(s.acceleration.x - 0.981) < 1e-9 && abs(s.acceleration.z + 1) < 1e-9)
        #expect(abs((s.rotationRate?.y ?? 0) + 2000 * 0.000017453) < 1e-12)
        #expect(abs((s.magneticField?.z ?? 0) - 3) < 1e-9)
        // on the host's monotonic clock, not 1.7e9 s
        #expect(abs(s.timestamp - MonotonicClock().now()) < 1, "\(s.timestamp)")
    }

    @Test("merger: one sample per accelerometer reading with the latest gyro and magnetometer held")
    func merger() {
        var merger = IIOSampleMerger(accelerationSign: .reaction)
        #expect(merger.add([.anglvel: Vector3(1, 2, 3)], timestamp: 1) == nil)
        let s = merger.add([.accel: Vector3(0, 0, 9.80665)], timestamp: 2)
        #expect(s?.acceleration == Vector3(0, 0, -1) && s?.rotationRate == Vector3(1, 2, 3) && s?.magneticField == nil)
        _ = merger.add([.magn: Vector3(0.5, 0, 0)], timestamp: 3)
        #expect(merger.add([.accel: Vector3(0, 0, 0)], timestamp: 4)?.magneticField == Vector3(50, 0, 0))
        // a group with a gyro makes no sample before the gyro's first reading
        var waiting = IIOSampleMerger(accelerationSign: .gravity, awaiting: [.accel, .anglvel])
        #expect(waiting.add([.accel: Vector3(0, 0, 0)], timestamp: 1) == nil)
        _ = waiting.add([.anglvel: Vector3(0, 0, 1)], timestamp: 2)
        #expect(waiting.add([.accel: Vector3(0, 0, 0)], timestamp: 3)?.rotationRate == Vector3(0, 0, 1))
        merger.reset()
        #expect(merger.add([.accel: Vector3(0, 0, 0)], timestamp: 5)?.rotationRate == nil)
    }

    @Test("buffer stamps: converted from the device's clock to monotonic; missing, frozen or implausible ones give arrival times")
    func converter() {
        var c = IIOTimestampConverter(clockName: "realtime")
        // realtime is 1.7e9 s ahead of monotonic; a backlog of 2 s old scans keeps its own times
        #expect(c.time(deviceSeconds: 1.7e9 + 98, hostTime: 100, offset: 1.7e9) == 98)
        #expect(abs(c.time(deviceSeconds: 1.7e9 + 98.01, hostTime: 100, offset: 1.7e9) - 98.01) < 1e-6)  // ns at 1.7e9 s
        // frozen: arrival time (strictly after the last)
        #expect(c.time(deviceSeconds: 1.7e9 + 98.01, hostTime: 100.5, offset: 1.7e9) == 100.5)
        // none: arrival time
        var magn = IIOTimestampConverter(clockName: "monotonic")
        #expect(magn.time(deviceSeconds: nil, hostTime: 7, offset: 0) == 7)
        #expect(magn.time(deviceSeconds: nil, hostTime: 7, offset: 0) > 7)
        // a stamp on no clock we know of (a minute in the future): arrival-anchored, increasing
        var odd = IIOTimestampConverter(clockName: "monotonic")
        let a = odd.time(deviceSeconds: 160, hostTime: 100, offset: 0)
        let b = odd.time(deviceSeconds: 160.01, hostTime: 100.01, offset: 0)
        #expect(a == 100 && abs(b - 100.01) < 1e-5)
        // the host's own clock offsets are small for monotonic, large for realtime
        #expect(abs(IIOTimestampConverter.offset(ofClockNamed: "monotonic") ?? 1) < 0.01)
        #expect((IIOTimestampConverter.offset(ofClockNamed: nil) ?? 0) > 1e8)
        #expect(IIOTimestampConverter.offset(ofClockNamed: "sundial") == nil)
    }

    @Test("device seconds: a realtime clock is moved onto the host's; a stuck one gives arrival times")
    func timestamperSeconds() {
        var t = SensorTimestamper(clock: nil)
        let a = t.timestamp(deviceSeconds: 1.7e9, hostTime: 100)
        let b = t.timestamp(deviceSeconds: 1.7e9 + 0.01, hostTime: 100.012)
        #expect(a == 100 && abs(b - 100.01) < 1e-5, "\(b)")
        var stuck = SensorTimestamper(clock: nil)
        _ = stuck.timestamp(deviceSeconds: 5, hostTime: 10)
        #expect(stuck.timestamp(deviceSeconds: 5, hostTime: 10.02) == 10.02)
        #expect(stuck.statistics.clockStalled)
    }
}

@Suite("IIO sampling frequency")
struct IIOSamplingFrequencyTests {
    @Test("the nearest listed rate at or above the one asked for; the fastest when none is fast enough; ranges stepped")
    func choose() throws {
        #expect(try IIOSamplingFrequency.choose(requested: 100, available: "12.5 26 52 104 208 416\n") == 104)
        #expect(try IIOSamplingFrequency.choose(requested: 104, available: "12.5 26 52 104 208") == 104)
        #expect(try IIOSamplingFrequency.choose(requested: 1000, available: "12.5 26 52") == 52)
        #expect(try IIOSamplingFrequency.choose(requested: 60, available: nil) == 60)
        #expect(try IIOSamplingFrequency.choose(requested: 33, available: "[10 5 200]") == 35)
        #expect(try IIOSamplingFrequency.choose(requested: 5, available: "[10 5 200]") == 10)
        #expect(try IIOSamplingFrequency.choose(requested: 500, available: "[10 5 200]") == 200)
    }

    @Test("a requested rate reaches a hub's in_<type>_sampling_frequency before polling starts")
    func written() throws {
        let hub = try FakeSensorHub()
        let source = try IIOPollingSource(directories: [hub.directory(0), hub.directory(1)], requestedRate: 50)
        #expect(try String(contentsOfFile: hub.directory(0) + "/in_accel_sampling_frequency", encoding: .utf8) == "50")
        #expect(try String(contentsOfFile: hub.directory(1) + "/in_anglvel_sampling_frequency", encoding: .utf8) == "50")
        #expect(source.info.nominalRate == 50)
    }
}

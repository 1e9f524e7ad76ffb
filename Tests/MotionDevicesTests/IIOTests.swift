import Foundation
import Synchronization
import Motion
@testable import MotionDevices
import Testing
import TestSupport

/// A fake `/sys/bus/iio/devices/iio:deviceN` in a temp directory, laid out as the ABI documents.
final class FakeIIODevice {
    let root: URL
    let directory: String

    /// The real MPU-9250 (inv_mpu6050) snapshot of INPUT_FACTS §11.4, with its magnetometer
    /// mount matrix; magn raw values added (the snapshot lists only magn_x_scale).
    init(name: String = "iio:device0") throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-iio-\(UUID().uuidString)")
        directory = root.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: directory + "/scan_elements", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/buffer", withIntermediateDirectories: true)
        let attributes = [
            "name": "mpu9250",
            "sampling_frequency": "50",
            "in_accel_scale": "0.000598",
            "in_accel_scale_available": "0.000598 0.001196 0.002392 0.004785",
            "in_accel_x_raw": "320", "in_accel_y_raw": "-200", "in_accel_z_raw": "17212",
            "in_accel_mount_matrix": "1, 0, 0; 0, 1, 0; 0, 0, 1",
            "in_anglvel_scale": "0.001064724",
            "in_anglvel_x_raw": "78", "in_anglvel_y_raw": "-65", "in_anglvel_z_raw": "-13",
            "in_magn_x_scale": "0.003574", "in_magn_y_scale": "0.003574", "in_magn_z_scale": "0.003574",
            "in_magn_x_raw": "100", "in_magn_y_raw": "-50", "in_magn_z_raw": "10",
            "in_magn_mount_matrix": "0, 1, 0; 1, 0, 0; 0, 0, -1",
            "in_temp_offset": "12420", "in_temp_scale": "2.941176", "in_temp_raw": "1493",
        ]
        for (file, value) in attributes { try write(file, value) }
    }

    func write(_ file: String, _ value: String) throws {
        try (value + "\n").write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
    }

    /// Scan elements: accel x,y,z le:s16/16>>0 at indices 0–2, timestamp le:s64/64>>0 at 3.
    func addScanElements(accelType: String = "le:s16/16>>0") throws {
        for (i, axis) in ["x", "y", "z"].enumerated() {
            try write("scan_elements/in_accel_\(axis)_en", "1")
            try write("scan_elements/in_accel_\(axis)_index", "\(i)")
            try write("scan_elements/in_accel_\(axis)_type", accelType)
        }
        try write("scan_elements/in_anglvel_x_en", "0")
        try write("scan_elements/in_anglvel_x_index", "4")
        try write("scan_elements/in_anglvel_x_type", "le:s16/16>>0")
        try write("scan_elements/in_timestamp_en", "1")
        try write("scan_elements/in_timestamp_index", "3")
        try write("scan_elements/in_timestamp_type", "le:s64/64>>0")
    }

    /// The fake `/dev`, and the path of `name`'s character device in it (the folder made).
    var deviceNodes: String { root.appendingPathComponent("dev").path }
    func deviceNode(_ name: String = "iio:device0") throws -> String {
        try FileManager.default.createDirectory(atPath: deviceNodes, withIntermediateDirectories: true)
        return deviceNodes + "/" + name
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}

@Suite("IIO")
struct IIOTests {
    @Test("scan types parse every documented form and decode with byte order, shift and sign")
    func scanTypes() throws {
        let t = try #require(IIOScanType("le:s16/16>>0"))
        #expect(t == IIOScanType(bigEndian: false, signed: true, realBits: 16, storageBits: 16))
        let b = try #require(IIOScanType("be:s12/16>>4"))
        #expect(b.bigEndian && b.realBits == 12 && b.shift == 4)
        // −5 as a 12-bit value shifted left by 4, big-endian: 0xFFB0.
        #expect(b.value(in: [0xFF, 0xB0], at: 0) == -5)
        #expect(IIOScanType("le:u12/16>>4")!.value(in: [0xB0, 0xFF], at: 0) == 0xFFB)
        let r = try #require(IIOScanType("le:s16/16X3>>0"))
        #expect(r.repeatCount == 3 && r.storageBytes == 6)
        #expect(IIOScanType("le:s64/64>>0")!.value(in: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], at: 0) == -1)
        for bad in ["", "xe:s16/16>>0", "le:q16/16", "le:s16/12>>0", "le:s16/16>>x", "le:s20/16>>0",
                    // These used to trap (overflow in storageBytes, a negative shift in value).
                    "le:s16/16X9223372036854775807", "le:s16/16X256", "le:s16/16>>-4", "le:s16/16>>9223372036854775807",
                    "le:s9223372036854775807/16", "le:s16/0", "le:s0/8", "le:s8/72"] {
            #expect(IIOScanType(bad) == nil, "\(bad)")
        }
    }

    @Test("scan layout aligns each element to its size and pads to the largest (iio_compute_scan_bytes)")
    func layout() throws {
        let s16 = IIOScanType("le:s16/16>>0")!, s64 = IIOScanType("le:s64/64>>0")!, u8 = IIOScanType("le:u8/8>>0")!
        let l = IIOScanLayout(channels: [("in_timestamp", 3, s64), ("in_accel_z", 2, s16), ("in_accel_x", 0, s16), ("in_accel_y", 1, s16)])
        #expect(l.elements.map(\.offset) == [0, 2, 4, 8] && l.scanBytes == 16)
        let odd = IIOScanLayout(channels: [("a", 0, u8), ("b", 1, s16), ("c", 2, u8)])
        #expect(odd.elements.map(\.offset) == [0, 2, 4] && odd.scanBytes == 6)
    }

    @Test("sysfs: (raw + offset) × scale, mount matrices, units (real MPU-9250 values)")
    func sysfs() throws {
        let fake = try FakeIIODevice()
        let clock = ManualClock(now: 42)
        let source = try IIOPollingSource(directory: fake.directory, clock: clock)
        #expect(source.device.sensors == [.accelerometer, .gyroscope, .magnetometer])
        #expect(source.info.nominalRate == 50)
        let s = try #require(try source.read())
        #expect(s.timestamp == 42)
        // Lying flat: accel z = 17212 × 0.000598 m/s² = 1.0496 g up → Core Motion −1.0496 g.
        #expect(abs(s.acceleration.z + 17212 * 0.000598 / 9.80665) < 1e-12)
        #expect(abs(s.acceleration.x + 320 * 0.000598 / 9.80665) < 1e-12)
        let w = try #require(s.rotationRate)
        #expect(abs(w.x - 78 * 0.001064724) < 1e-12 && abs(w.y + 65 * 0.001064724) < 1e-12)
        // Magnetometer: matrix swaps x/y and negates z; Gauss × 100 = µT.
        let m = try #require(s.magneticField)
        #expect(abs(m.x - (-50 * 0.003574 * 100)) < 1e-9 && abs(m.y - 100 * 0.003574 * 100) < 1e-9)
        #expect(abs(m.z - (-10 * 0.003574 * 100)) < 1e-9)
    }

    @Test("unplugged mid-read: disconnected with the kernel's reason; back under a new number: reconnected, samples resume")
    func pollingReconnects() throws {
        let fake = try FakeIIODevice()
        // the kernel's view: while unplugged, reads of open attributes fail with ENODEV and the
        // old directory is gone; the hub comes back as iio:device1
        let unplugged = Atomic<Bool>(false)
        var calls = SystemCalls.live
        calls.pread = { fd, buffer, offset in
            if unplugged.load(ordering: .relaxed) { return (-1, ENODEV) }
            return SystemCalls.live.pread(fd, buffer, offset)
        }
        let source = try IIOPollingSource(directory: fake.directory, rate: 200, calls: calls)
        source.reconnectInterval = 0.02
        let box = EventBox()
        try source.start { event in box.append(event, finished: false) }
        defer { source.stop() }
        func samples(_ events: [MotionSourceEvent]) -> Int { events.samples.count }
        try #require(box.wait(timeout: 5) { samples($0) >= 5 }, "waiting for samples")

        unplugged.store(true, ordering: .relaxed)
        try FileManager.default.moveItem(atPath: fake.directory, toPath: fake.root.appendingPathComponent("unplugged").path)
        try #require(box.wait(timeout: 5) { $0.contains { if case .disconnected = $0 { true } else { false } } }, "waiting for the disconnect")
        let reason = box.events.compactMap { if case .disconnected(let r) = $0 { r } else { nil } }.first ?? ""
        #expect(reason.contains("No such device"), "\(reason)")

        unplugged.store(false, ordering: .relaxed)
        try FileManager.default.moveItem(atPath: fake.root.appendingPathComponent("unplugged").path,
                                         toPath: fake.root.appendingPathComponent("iio:device1").path)
        try #require(box.wait(timeout: 5) { $0.contains(.reconnected) }, "waiting for the reconnect")
        let afterReconnect = box.events.count
        try #require(box.wait(timeout: 5) { samples(Array($0[afterReconnect...])) >= 5 }, "waiting for samples after the reconnect")
        let events = box.events
        let disconnect = try #require(events.firstIndex { if case .disconnected = $0 { true } else { false } })
        let reconnect = try #require(events.firstIndex(of: .reconnected))
        #expect(disconnect < reconnect)
        #expect(samples(Array(events[disconnect..<reconnect])) == 0, "nothing is delivered while unplugged")
    }

    @Test("per-axis offsets and the other mount-matrix attribute names are honoured")
    func offsetsAndMatrixNames() throws {
        let fake = try FakeIIODevice()
        try FileManager.default.removeItem(atPath: fake.directory + "/in_accel_mount_matrix")
        try fake.write("mount_matrix", "0, -1, 0; -1, 0, 0; 0, 0, 1")
        try fake.write("in_accel_x_offset", "-20")
        let device = try IIODevice(directory: fake.directory)
        let s = try #require(device.sample(timestamp: 0, raw: [.accel: SIMD3(320, -200, 17212)], sign: .gravity))
        // (320 − 20) on x, then the matrix: x' = −y, y' = −x.
        #expect(abs(s.acceleration.x - 200 * 0.000598 / 9.80665) < 1e-12)
        #expect(abs(s.acceleration.y + 300 * 0.000598 / 9.80665) < 1e-12)
    }

    @Test("buffer: scans from the character device decode with kernel timestamps, then end")
    func buffer() throws {
        let fake = try FakeIIODevice()
        try fake.addScanElements()
        // configure() enables every motion element, so anglvel_x (index 4) joins the scan:
        // accel x,y,z s16 LE at 0,2,4, padding, s64 ns timestamp at 8, anglvel x at 16; 24 bytes.
        var stream: [UInt8] = []
        let scans: [(SIMD3<Int16>, Int64, Int16)] = [(SIMD3(320, -200, 17212), 1_000_000_000, 78),
                                                     (SIMD3(0, 16384, 0), 1_010_000_000, -65),
                                                     (SIMD3(-1, 2, -3), 1_020_000_000, 0)]
        func le16(_ v: Int16) -> [UInt8] { [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
        for (a, t, w) in scans {
            stream += le16(a.x) + le16(a.y) + le16(a.z) + [0, 0]
            stream += (0..<8).map { UInt8(truncatingIfNeeded: t >> ($0 * 8)) }
            stream += le16(w) + [0, 0, 0, 0, 0, 0]
        }
        let chardev = try fake.deviceNode()
        try Data(stream).write(to: URL(fileURLWithPath: chardev))
        let source = try IIOBufferSource(directory: fake.directory, deviceNodes: fake.deviceNodes)
        #expect(source.decoder.layout.scanBytes == 24 && source.decoder.hasTimestamps)
        #expect(source.decoder.layout.element("in_anglvel_x")?.offset == 16)
        // configure() wrote the ABI setup into the tree.
        #expect(try String(contentsOfFile: fake.directory + "/buffer/enable", encoding: .utf8) == "1")
        #expect(try String(contentsOfFile: fake.directory + "/current_timestamp_clock", encoding: .utf8) == "monotonic")
        let events = try collect(source, until: { $0 == .ended })
        let samples = events.samples
        try #require(samples.count == 3)
        // read at once, so handed over as one batch
        #expect(events.filter { if case .samples = $0 { true } else { false } } == [.samples(samples)])
        // the kernel's stamps (1.0 s: not the host's clock) keep their 10 ms spacing, moved onto
        // the host's monotonic clock
        let times = samples.map(\.timestamp)
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.01) < 1e-9 }, "\(times)")
        #expect(abs(times[2] - MonotonicClock().now()) < 1, "\(times)")
        #expect(abs(samples[1].acceleration.y + 16384 * 0.000598 / 9.80665) < 1e-12)
        #expect(abs(samples[0].rotationRate!.x - 78 * 0.001064724) < 1e-12)
        #expect(abs(samples[1].rotationRate!.x + 65 * 0.001064724) < 1e-12)
        #expect(events.last == .ended)
        // stopping hands the buffer back
        #expect(try String(contentsOfFile: fake.directory + "/buffer/enable", encoding: .utf8) == "0")
    }

    @Test("buffer: unplugged mid-read, disconnected; back as a new iio:deviceN, set up again and reconnected")
    func bufferReconnects() throws {
        let fake = try FakeIIODevice()
        try fake.addScanElements()
        // the character devices are FIFOs the test writes scans into (opened read-write, so no EOF)
        let unplugged = Atomic<Bool>(false)
        var calls = SystemCalls.live
        calls.read = { fd, buffer in
            if unplugged.load(ordering: .relaxed) { return (-1, ENODEV) }
            return SystemCalls.live.read(fd, buffer)
        }
        func fifo(_ name: String) throws -> Int32 {
            let path = try fake.deviceNode(name)
            try #require(mkfifo(path, 0o600) == 0)
            return open(path, O_RDWR)
        }
        let first = try fifo("iio:device0")
        defer { close(first) }
        let source = try IIOBufferSource(directory: fake.directory, deviceNodes: fake.deviceNodes, calls: calls)
        source.reconnectInterval = 0.02
        // accel x,y,z s16 at 0–5, timestamp s64 at 8, anglvel x s16 at 16: 24 bytes (as in `buffer`)
        #expect(source.decoder.layout.scanBytes == 24)
        func scan(_ t: Int64) -> [UInt8] {
            [0, 0, 0, 0, 0, 0x40, 0, 0] + (0..<8).map { UInt8(truncatingIfNeeded: t >> ($0 * 8)) } + [UInt8](repeating: 0, count: 8)
        }
        let box = EventBox()
        try source.start { event in box.append(event, finished: false) }
        defer { source.stop() }
        func timestamps(_ events: [MotionSourceEvent]) -> [Double] { events.samples.map(\.timestamp) }
        let before = (1...3).flatMap { scan(Int64($0) * 10_000_000) }
        _ = before.withUnsafeBytes { write(first, $0.baseAddress, $0.count) }
        try #require(box.wait(timeout: 5) { timestamps($0).count == 3 }, "waiting for the first scans")

        // nothing wakes the reader: a removed IIO device's buffer never polls readable, only a
        // read says ENODEV
        unplugged.store(true, ordering: .relaxed)
        try #require(box.wait(timeout: 5) { $0.contains { if case .disconnected = $0 { true } else { false } } }, "waiting for the disconnect")
        try FileManager.default.moveItem(atPath: fake.directory, toPath: fake.root.appendingPathComponent("iio:device1").path)
        try "0".write(to: fake.root.appendingPathComponent("iio:device1/buffer/enable"), atomically: true, encoding: .utf8)
        let second = try fifo("iio:device1")
        defer { close(second) }
        unplugged.store(false, ordering: .relaxed)
        try #require(box.wait(timeout: 5) { $0.contains(.reconnected) }, "waiting for the reconnect")
        #expect(source.characterDevice == fake.deviceNodes + "/iio:device1")
        // set up again: the new directory's buffer is enabled
        #expect(try String(contentsOfFile: fake.root.appendingPathComponent("iio:device1/buffer/enable").path, encoding: .utf8) == "1")
        let after = (4...5).flatMap { scan(Int64($0) * 10_000_000) }
        _ = after.withUnsafeBytes { write(second, $0.baseAddress, $0.count) }
        try #require(box.wait(timeout: 5) { timestamps($0).count == 5 }, "waiting for scans after the reconnect")
        // every scan once, none lost after the replug, each batch at its own 10 ms spacing
        let seen = timestamps(box.events)
        #expect(seen.count == 5 && zip(seen, seen.dropFirst()).allSatisfy { $1 > $0 }, "\(seen)")
        #expect(abs(seen[1] - seen[0] - 0.01) < 1e-9 && abs(seen[4] - seen[3] - 0.01) < 1e-9, "\(seen)")
    }

    @Test("an empty current_trigger gets the driver's own '<name>-dev<N>' trigger; a set one is kept")
    func triggers() throws {
        let fake = try FakeIIODevice()
        try fake.addScanElements()
        try FileManager.default.createDirectory(atPath: fake.directory + "/trigger", withIntermediateDirectories: true)
        try fake.write("trigger/current_trigger", "")
        // triggers live beside the devices: /sys/bus/iio/devices/triggerN/name
        for (index, name) in ["mpu9250-dev1", "mpu9250-dev0-any-motion", "mpu9250-dev0"].enumerated() {
            let trigger = fake.root.appendingPathComponent("trigger\(index)").path
            try FileManager.default.createDirectory(atPath: trigger, withIntermediateDirectories: true)
            try (name + "\n").write(toFile: trigger + "/name", atomically: true, encoding: .utf8)
        }
        try Data().write(to: URL(fileURLWithPath: try fake.deviceNode()))
        _ = try IIOBufferSource(directory: fake.directory, deviceNodes: fake.deviceNodes)
        #expect(try String(contentsOfFile: fake.directory + "/trigger/current_trigger", encoding: .utf8) == "mpu9250-dev0")

        try fake.write("trigger/current_trigger", "hrtimer-game")
        #expect(IIOBufferSource.triggerSetup(directory: fake.directory, deviceName: "mpu9250") == .alreadySet("hrtimer-game"))
        try FileManager.default.removeItem(atPath: fake.directory + "/trigger")
        #expect(IIOBufferSource.triggerSetup(directory: fake.directory, deviceName: "mpu9250") == .notNeeded)
    }

    @Test("a buffer that cannot be enabled is an error that says why, not a silent wait")
    func bufferStaysDisabled() throws {
        let fake = try FakeIIODevice()
        try fake.addScanElements()
        try FileManager.default.createDirectory(atPath: fake.directory + "/trigger", withIntermediateDirectories: true)
        try fake.write("trigger/current_trigger", "")
        // a directory where buffer/enable should be: every write to it fails, as the kernel's
        // EINVAL for a triggered buffer without a trigger
        try FileManager.default.createDirectory(atPath: fake.directory + "/buffer/enable", withIntermediateDirectories: true)
        do {
            _ = try IIOBufferSource(directory: fake.directory, deviceNodes: fake.deviceNodes)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("needs a trigger"), "\(error.description)")
            #expect(error.description.contains("'mpu9250-dev0'"))
            #expect(error.description.contains("use iio:\(fake.directory)"))
        }
    }

    @Test("a device without accelerometer channels or buffer gets a clear error")
    func errors() throws {
        let fake = try FakeIIODevice()
        #expect(throws: DeviceError.self) { try IIOBufferSource(directory: fake.directory + "-missing") }
        try FileManager.default.removeItem(atPath: fake.directory + "/scan_elements")
        do {
            _ = try IIOBufferSource(directory: fake.directory)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("no scan_elements"))
        }
    }
}

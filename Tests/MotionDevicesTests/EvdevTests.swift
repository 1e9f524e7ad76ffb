import Foundation
import Motion
@testable import MotionDevices
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// input_event records as the kernel lays them out (24 bytes each on 64-bit), for a
/// hid-playstation "Motion Sensors" node: accel ABS_X..Z at 8192/g, gyro ABS_RX..RZ at 1024 per deg/s.
enum EvdevStream {
    static func frame(time: Double, accel: SIMD3<Int32>? = nil, gyro: SIMD3<Int32>? = nil, timestamp: UInt32? = nil) -> [InputEvent] {
        var events: [InputEvent] = []
        if let gyro { for (i, v) in [gyro.x, gyro.y, gyro.z].enumerated() { events.append(InputEvent(time: time, type: InputEvent.EV_ABS, code: UInt16(3 + i), value: v)) } }
        if let accel { for (i, v) in [accel.x, accel.y, accel.z].enumerated() { events.append(InputEvent(time: time, type: InputEvent.EV_ABS, code: UInt16(i), value: v)) } }
        if let timestamp { events.append(InputEvent(time: time, type: InputEvent.EV_MSC, code: InputEvent.MSC_TIMESTAMP, value: Int32(bitPattern: timestamp))) }
        events.append(InputEvent(time: time, type: InputEvent.EV_SYN, code: InputEvent.SYN_REPORT, value: 0))
        return events
    }

    static func bytes(_ events: [InputEvent]) -> [UInt8] { events.flatMap(\.bytes) }
}

@Suite("evdev motion sensors")
struct EvdevTests {
    @Test("input_event bytes round-trip in the kernel's 24-byte layout")
    func layout() {
        let e = InputEvent(time: 1_700_000_000.25, type: InputEvent.EV_ABS, code: 4, value: -1024)
        let bytes = e.bytes
        #expect(bytes.count == 24)
        #expect(Array(bytes[16..<24]) == [0x03, 0x00, 0x04, 0x00, 0x00, 0xFC, 0xFF, 0xFF])
        #expect(InputEvent(bytes: bytes, at: 0) == e)
    }

    @Test("frames end at SYN_REPORT; unchanged axes keep their value; units from resolution")
    func framing() throws {
        var decoder = EvdevMotionDecoder(driver: .playStation)
        let events = EvdevStream.frame(time: 1, accel: SIMD3(0, 8192, 0), gyro: SIMD3(1024 * 90, 0, 0), timestamp: 1000)
            + EvdevStream.frame(time: 1.004, gyro: SIMD3(0, 0, -1024), timestamp: 5000)
        let samples = events.flatMap { decoder.feed($0) }
        try #require(samples.count == 2)
        // Lying face up (+1 g on the pad's +y) → Core Motion (0, 0, −1).
        #expect(samples[0].acceleration == Vector3(0, 0, -1))
        #expect(abs(samples[0].rotationRate!.x - .pi / 2) < 1e-12)
        // Second frame only changed the gyro: accel held; pad −z (away from player) roll → Core Motion +y.
        #expect(samples[1].acceleration == Vector3(0, 0, -1))
        #expect(abs(samples[1].rotationRate!.y - .pi / 180) < 1e-12)
        #expect(abs((samples[1].timestamp - samples[0].timestamp) - 0.004) < 1e-9)
    }

    @Test("MSC_TIMESTAMP unwraps as u32 µs across the wrap")
    func timestampWrap() {
        var decoder = EvdevMotionDecoder(driver: .playStation)
        let a = EvdevStream.frame(time: 10, accel: SIMD3(0, 8192, 0), timestamp: UInt32.max - 1999)
        let b = EvdevStream.frame(time: 10.004, accel: SIMD3(0, 8192, 0), timestamp: 2000)
        let samples = (a + b).flatMap { decoder.feed($0) }
        #expect(samples.count == 2)
        #expect(abs((samples[1].timestamp - samples[0].timestamp) - 0.004) < 1e-9)
    }

    @Test("SYN_DROPPED discards the partial frame until the source resyncs")
    func dropped() {
        var decoder = EvdevMotionDecoder(driver: .playStation)
        var events = EvdevStream.frame(time: 1, accel: SIMD3(0, 8192, 0), timestamp: 0)
        events.append(InputEvent(time: 1.001, type: InputEvent.EV_SYN, code: InputEvent.SYN_DROPPED, value: 0))
        events += EvdevStream.frame(time: 1.002, accel: SIMD3(8192, 0, 0), timestamp: 2000)
        let samples = events.flatMap { decoder.feed($0) }
        #expect(samples.count == 1 && decoder.needsResync && decoder.droppedFrames == 1)
        decoder.resync(values: [0, 0, 8192, 0, 0, 0])
        let next = EvdevStream.frame(time: 1.004, timestamp: 4000).flatMap { decoder.feed($0) }
        // +1 g on the pad's +z (standing on its grips) → Core Motion +y, like a phone upside down.
        #expect(next.first?.acceleration == Vector3(0, 1, 0))
    }

    @Test("hid-nintendo nodes use the Nintendo frame and resolutions")
    func nintendo() throws {
        #expect(EvdevMotionDecoder.Driver(nodeName: "Nintendo Switch Pro Controller IMU") == .nintendo)
        #expect(EvdevMotionDecoder.Driver(nodeName: "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors") == .playStation)
        #expect(EvdevMotionDecoder.Driver(nodeName: "Steam Deck Motion Sensors") == .steamDeck)
        #expect(EvdevMotionDecoder.Driver(nodeName: "AT Translated Set 2 keyboard") == nil)
        var decoder = EvdevMotionDecoder(driver: .nintendo)
        let s = try #require(EvdevStream.frame(time: 0, accel: SIMD3(0, 0, 4096), gyro: SIMD3(14247 * 10, 0, 0)).flatMap { decoder.feed($0) }.first)
        #expect(s.acceleration == Vector3(0, 0, -1))
        // Nintendo +X (toward the triggers) = Core Motion +y.
        #expect(abs(s.rotationRate!.y - 10 * .pi / 180) < 1e-12)
    }

    @Test("the source reads recorded input_event bytes from a file and ends")
    func sourceOnRecording() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-evdev-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        var events: [InputEvent] = []
        for i in 0..<50 { events += EvdevStream.frame(time: Double(i) * 0.004, accel: SIMD3(0, 8192, Int32(i)), timestamp: UInt32(i * 4000)) }
        try Data(EvdevStream.bytes(events)).write(to: url)
        #expect(throws: DeviceError.self) { try EvdevMotionSource(path: url.path) }  // no name: driver required
        let source = try EvdevMotionSource(path: url.path, options: .init(driver: .playStation))
        let got = try collect(source) { $0 == .ended }
        #expect(got.samples.count == 50)
        #expect(got.last == .ended)
    }
}

@Suite("evdev and IIO sources: vanishing and permissions", .serialized)
struct EvdevLifecycleTests {
    @Test("a FIFO of input events: writer closing → disconnected; a new writer → reconnected, samples resume")
    func reconnect() throws {
        let path = HIDRawSourceTests.temporaryPath("evdev-fifo")
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        var frames: [InputEvent] = []
        for i in 0..<10 { frames += EvdevStream.frame(time: Double(i) * 0.004, accel: SIMD3(0, 8192, Int32(i)), timestamp: UInt32(i * 4000)) }
        let bytes = EvdevStream.bytes(frames)
        var options = EvdevMotionSource.Options(driver: .playStation)
        options.reconnectInterval = 0.05
        let source = try EvdevMotionSource(path: path, options: options)
        let box = EventBox()
        try source.start { box.append($0, finished: false) }
        defer { source.stop() }
        HIDRawSourceTests.feed(path, [bytes])
        #expect(box.wait(timeout: 5) { $0.contains { if case .disconnected = $0 { true } else { false } } })
        HIDRawSourceTests.feed(path, [bytes])
        #expect(box.wait(timeout: 5) { HIDRawSourceTests.samples($0).count == 20 })
        #expect(box.events.contains(.reconnected))
    }

    @Test("permission errors on evdev and IIO nodes name the node and the fix")
    func permissions() throws {
        let path = HIDRawSourceTests.temporaryPath("evdev-denied")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { unlink(path) }
        var options = EvdevMotionSource.Options(driver: .playStation)
        options.calls = .failingOpen(EACCES)
        #expect(throws: DeviceError.permissionDenied(path: path, fix: DeviceError.inputFix)) { try EvdevMotionSource(path: path, options: options) }
        let fake = try FakeIIODevice()
        do {
            _ = try IIOPollingSource(directory: fake.directory, calls: .failingOpen(EACCES))
            Issue.record("expected permission denied")
        } catch {
            #expect(error.description.contains("permission denied opening \(fake.directory)/in_accel_x_raw"))
            #expect(error.description.contains("70-tiltkit.rules"))
        }
    }

    @Test("an IIO device whose attributes vanish mid-stream reports the disconnect")
    func iioVanishes() throws {
        let fake = try FakeIIODevice()
        let source = try IIOPollingSource(directory: fake.directory, rate: 200)
        let box = EventBox()
        try source.start { box.append($0, finished: false) }
        defer { source.stop() }
        #expect(box.wait(timeout: 5) { HIDRawSourceTests.samples($0).count >= 3 })
        // A really unbound device answers ENODEV; a plain file cannot, so its value stops being a
        // number, which ends the stream the same way.
        // Rewritten in place (same inode), as sysfs would change under an open descriptor.
        try "gone\n".write(toFile: fake.directory + "/in_accel_y_raw", atomically: false, encoding: .utf8)
        #expect(box.wait(timeout: 5) { $0.contains { if case .disconnected = $0 { true } else { false } } })
    }
}

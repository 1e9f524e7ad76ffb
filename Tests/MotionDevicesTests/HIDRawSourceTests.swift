import Foundation
import Motion
@testable import MotionDevices
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// There is no hidraw node on this machine: the source is driven through a FIFO (what
/// `tiltkit record --source hidraw:FIFO` reads) and files of captured reports, and kernel errors
/// are injected through `SystemCalls`.
@Suite("hidraw source", .serialized)
struct HIDRawSourceTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-\(name)-\(UUID().uuidString)").path
    }

    /// Writes `reports` into the FIFO from another thread, then closes it (the "pad" goes away).
    static func feed(_ path: String, _ reports: [[UInt8]], chunked: Bool = false) {
        Thread.detachNewThread {
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { return }
            let bytes = reports.flatMap { $0 }
            // Odd-sized writes: the reader must frame reports itself.
            let step = chunked ? 37 : bytes.count
            var offset = 0
            while offset < bytes.count {
                let n = min(step, bytes.count - offset)
                _ = bytes[offset..<offset + n].withUnsafeBytes { write(fd, $0.baseAddress, n) }
                offset += n
            }
            close(fd)
        }
    }

    static func samples(_ events: [MotionSourceEvent]) -> [MotionSample] {
        events.samples
    }

    @Test("a FIFO of captured DualShock 4 reports: pad guessed, framed, decoded; writer closing → disconnected")
    func fifo() throws {
        let path = Self.temporaryPath("fifo")
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let reports = try #require(Fixtures.ds4dump().reports["clone1"])
        let source = try HIDRawSource(path: path)
        Self.feed(path, reports + [[0x42, 0x00]] + reports, chunked: true)
        let events = try collect(source) { if case .disconnected = $0 { true } else { false } }
        let samples = Self.samples(events)
        #expect(samples.count == 16)
        #expect(samples.allSatisfy { $0.acceleration.z < -0.9 })
        guard case .disconnected(let reason) = events.last else { Issue.record("no disconnect: \(events.suffix(2))"); return }
        #expect(reason.contains(path) && reason.contains("writer closed"))
        #expect(source.info.name.contains("identified from its reports"))
        // 0x42 is not a report ID: the stream resynchronised on the next 0x01.
        #expect(source.statistics.decodedReports == 16)
    }

    @Test("after the writer closes, a new writer on the same FIFO reconnects the source")
    func reconnect() throws {
        let path = Self.temporaryPath("fifo-re")
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let reports = try #require(Fixtures.ds4dump().reports["clone1"])
        var options = HIDRawSource.Options(device: GamepadDevice(hint: "ds4-usb"))
        options.reconnectInterval = 0.05
        let source = try HIDRawSource(path: path, options: options)
        let box = EventBox()
        try source.start { box.append($0, finished: false) }
        defer { source.stop() }
        Self.feed(path, reports)
        #expect(box.wait(timeout: 5) { $0.contains { if case .disconnected = $0 { true } else { false } } })
        Self.feed(path, reports)
        #expect(box.wait(timeout: 5) { Self.samples($0).count == 16 })
        let events = box.events
        let reconnectIndex = try #require(events.firstIndex(of: .reconnected))
        let disconnectIndex = try #require(events.firstIndex { if case .disconnected = $0 { true } else { false } })
        #expect(disconnectIndex < reconnectIndex)
        #expect(Self.samples(Array(events[reconnectIndex...])).count == 8)
    }

    @Test("a regular file of reports (no ioctls) with a device hint plays and ends; stop is prompt")
    func file() throws {
        let path = Self.temporaryPath("reports")
        defer { unlink(path) }
        let fixture = try Fixtures.generated("dualsense-bt")
        try Data(fixture.reports.flatMap(\.bytes) + [0x31, 0x00, 0x01]).write(to: URL(fileURLWithPath: path))
        let source = try HIDRawSource(path: path, options: .init(device: GamepadDevice(hint: "dualsense-bt")))
        let events = try collect(source) { $0 == .ended }
        #expect(Self.samples(events).count == 5)
        #expect(events.last == .ended)
        #expect(source.statistics.truncated == 1)  // the 3 trailing bytes
        // hid-tools' DualSense model leaves its sensor clock at 0: every sample after the first is
        // stamped on arrival, and the line says why.
        #expect(source.diagnostics == "5 reports decoded, 5 samples, 1 truncated, 4 stamped on arrival (the pad's clock stands still) (last: report 0x31 truncated: 3 bytes, expected 78)",
                "\(source.diagnostics)")
    }

    @Test("permission denied names the device and the udev rule to install")
    func permissionDenied() throws {
        let path = Self.temporaryPath("denied")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { unlink(path) }
        var options = HIDRawSource.Options()
        options.calls = .failingOpen(EACCES)
        do {
            _ = try HIDRawSource(path: path, options: options)
            Issue.record("expected permission denied")
        } catch {
            #expect(error == .permissionDenied(path: path, fix: DeviceError.hidrawFix))
            #expect(error.description.contains(path))
            #expect(error.description.contains("Assets/udev/70-tiltkit.rules"))
            #expect(error.description.contains("udevadm"))
        }
    }

    @Test("missing and vanished nodes get clear errors")
    func missing() {
        #expect(throws: DeviceError.notFound(path: "/dev/hidraw-none")) { try HIDRawSource(path: "/dev/hidraw-none") }
        let path = Self.temporaryPath("gone")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        defer { unlink(path) }
        var options = HIDRawSource.Options()
        options.calls = .failingOpen(ENODEV)
        #expect(throws: DeviceError.disconnected(path: path, reason: "no such device")) { try HIDRawSource(path: path, options: options) }
    }

    @Test("a deleted capture file: the source reports the end, never crashes")
    func deletedWhileOpen() throws {
        let path = Self.temporaryPath("deleted")
        try Data(Fixtures.ds4dump().reports["clone1"]!.flatMap { $0 }).write(to: URL(fileURLWithPath: path))
        let source = try HIDRawSource(path: path, options: .init(device: GamepadDevice(hint: "ds4-usb")))
        unlink(path)
        let events = try collect(source) { $0 == .ended }
        #expect(Self.samples(events).count == 8 && events.last == .ended)
    }

    @Test("hidraw nodes are found and matched in a fake sysfs tree")
    func sysfsNodes() throws {
        let root = Self.temporaryPath("sys")
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (name, uevent) in [("hidraw0", "HID_ID=0003:0000046D:0000C077\nHID_NAME=Logitech Mouse\n"),
                               ("hidraw3", "HID_ID=0005:0000054C:000009CC\nHID_NAME=Wireless Controller\nHID_UNIQ=a4:ae:12:00:00:01\nHID_PHYS=00:1a:7d:da:71:13\n")] {
            try FileManager.default.createDirectory(atPath: "\(root)/class/hidraw/\(name)/device", withIntermediateDirectories: true)
            try uevent.write(toFile: "\(root)/class/hidraw/\(name)/device/uevent", atomically: true, encoding: .utf8)
        }
        let nodes = HIDRawNode.scan(sysfsRoot: root, devRoot: "/dev")
        #expect(nodes.map(\.name) == ["hidraw0", "hidraw3"])
        let pad = nodes[1]
        #expect(pad.model == .dualShock4 && pad.bus == .bluetooth && pad.devicePath == "/dev/hidraw3")
        #expect(pad.uniq == "a4:ae:12:00:00:01")
        var replugged = pad
        replugged.name = "hidraw5"
        #expect(pad.isSameDevice(as: replugged))
        replugged.uniq = "a4:ae:12:00:00:02"
        #expect(!pad.isSameDevice(as: replugged))
        #expect(nodes[0].model == nil)
    }
}

/// A hidraw node as the kernel would answer: identity and feature reports from ioctls, input
/// reports from read(2). Records the output reports written to it.
final class RecordedHIDReader: ReportReader, @unchecked Sendable {
    let identityValue: HIDRawIdentity?
    var features: [UInt8: [UInt8]]
    var reports: [[UInt8]]
    /// Answers an output report with input reports (Nintendo subcommands).
    var reply: ([UInt8]) -> [[UInt8]] = { _ in [] }
    private(set) var written: [[UInt8]] = []
    private(set) var featureRequests: [UInt8] = []
    /// Feature reports sent to the pad (HIDIOCSFEATURE).
    private(set) var sentFeatures: [[UInt8]] = []
    /// A live pad (true) waits for more input when the queue is empty; a capture ends.
    var isLive = false

    init(identity: HIDRawIdentity?, features: [UInt8: [UInt8]] = [:], reports: [[UInt8]]) {
        identityValue = identity
        self.features = features
        self.reports = reports
    }

    func identity() -> HIDRawIdentity? { identityValue }
    func featureReport(id: UInt8, length: Int) throws(DeviceError) -> [UInt8]? {
        featureRequests.append(id)
        return features[id]
    }
    func writeReport(_ report: [UInt8]) -> Bool { written.append(report); reports.insert(contentsOf: reply(report), at: 0); return true }
    func sendFeatureReport(_ report: [UInt8]) -> Bool { sentFeatures.append(report); return true }
    /// Read results in order, before `reports` (a pad whose queue empties and fills again).
    var script: [ReportReadResult] = []
    func nextReport(timeout: Double) throws(DeviceError) -> ReportReadResult {
        if !script.isEmpty { return script.removeFirst() }
        if reports.isEmpty { return isLive ? .timeout : .endOfStream }
        return .report(reports.removeFirst())
    }
    func close() {}
}

@Suite("hidraw source over a report reader")
struct HIDRawReaderTests {
    @Test("identity from HIDIOCGRAWINFO picks the decoder; the calibration feature report is read and applied")
    func identityAndCalibration() throws {
        let fixture = try Fixtures.generated("ds4-bt")
        let reader = RecordedHIDReader(
            identity: HIDRawIdentity(bus: .bluetooth, vendorID: 0x054C, productID: 0x09CC, name: "Wireless Controller", uniq: "a4:ae:12:00:00:01"),
            features: [0x05: fixture.feature], reports: fixture.reports.map(\.bytes))
        let source = try HIDRawSource(reader: reader, path: "/dev/hidraw3")
        #expect(reader.featureRequests == [0x05])
        #expect(source.info.name == "Wireless Controller (hidraw3), factory calibration")
        #expect(source.info.nominalRate == 250)
        let events = try collect(source) { $0 == .ended }
        let samples = events.samples
        #expect(samples.count == 5)
        // Case 0: lying flat and still.
        #expect(abs(samples[0].acceleration.z + 1) < 3e-4 && samples[0].rotationRate!.length < 1e-3)
    }

    /// A USB DualSense node (hid-tools' report and calibration) whose reports carry a running sensor clock.
    struct DualSenseNode {
        let fixture: Fixtures.Generated
        init() throws { fixture = try Fixtures.generated("dualsense-usb") }

        /// The report with its sensor clock at `seconds` (u32 of 1/3 µs at byte 28).
        func report(at seconds: Double) -> [UInt8] {
            var bytes = fixture.reports[0].bytes
            withUnsafeBytes(of: UInt32((seconds * 3e6).rounded()).littleEndian) { bytes.replaceSubrange(28..<32, with: $0) }
            return bytes
        }

        func reader(reports: [[UInt8]] = []) -> RecordedHIDReader {
            RecordedHIDReader(
                identity: HIDRawIdentity(bus: .usb, vendorID: 0x054C, productID: 0x0CE6, name: "DualSense Wireless Controller", uniq: ""),
                features: [0x05: fixture.feature], reports: reports)
        }
    }

    @Test("reports queued while the pad was opened are drained together and keep the pad's spacing")
    func backlogAtOpen() throws {
        let node = try DualSenseNode()
        // 40 reports 4 ms apart, all queued by the time the reader starts: what a node holds after
        // the calibration is read.
        let reader = node.reader(reports: (0..<40).map { node.report(at: 0.001 + Double($0) * 0.004) })
        let source = try HIDRawSource(reader: reader, path: "/dev/hidraw2")
        let started = MonotonicClock().now()
        let samples = try collect(source) { $0 == .ended }.samples
        let steps = zip(samples.dropFirst(), samples).map { $0.timestamp - $1.timestamp }
        #expect(samples.count == 40)
        // One by one at the read, all but the first would be stamped microseconds apart.
        #expect(steps.allSatisfy { abs($0 - 0.004) < 1e-6 }, "steps \(steps.min() ?? 0)…\(steps.max() ?? 0)")
        #expect(samples.last!.timestamp >= started && samples.last!.timestamp <= MonotonicClock().now())
    }

    @Test("a backlog that waited in the node for an unknown time is stamped back from the next report, read as it arrives",
          arguments: [3, HIDRawSource.hidrawQueueLength])
    func staleBacklog(queued: Int) throws {
        let node = try DualSenseNode()
        // Queued 4 ms apart long ago (opened and not read, or a full queue that dropped the reports
        // after them); the pad's next report comes 2 s after the last of them and is read as it arrives.
        let reader = node.reader()
        let backlog: [ReportReadResult] = (0..<queued).map { .report(node.report(at: 1 + Double($0) * 0.004)) }
        // A queue that is not full reads empty once drained; a full one goes straight on to the next report.
        let drained: [ReportReadResult] = queued < HIDRawSource.hidrawQueueLength ? [.timeout] : []
        reader.script = backlog + drained + [.report(node.report(at: 3 + Double(queued - 1) * 0.004)), .timeout, .endOfStream]
        var options = HIDRawSource.Options()
        options.clock = ManualClock(now: 500)
        let source = try HIDRawSource(reader: reader, path: "/dev/hidraw2", options: options)
        let samples = try collect(source) { $0 == .ended }.samples
        try #require(samples.count == queued + 1)
        let steps = zip(samples.dropFirst(), samples).map { $0.timestamp - $1.timestamp }
        // Stamped from its own read, the backlog would end at 500 s and the fresh report come 1 µs after.
        #expect(samples.last!.timestamp == 500)
        #expect(abs(steps.last! - 2) < 1e-6, "the fresh report \(steps.last!) s after the backlog")
        #expect(steps.dropLast().allSatisfy { abs($0 - 0.004) < 1e-6 })
        #expect(source.statistics.clock.resynchronised == 0)
    }

    @Test("a calibration report with a bad CRC leaves nominal scale and says so")
    func badCalibration() throws {
        var feature = try Fixtures.generated("ds4-bt").feature
        feature[3] ^= 0x10
        let reader = RecordedHIDReader(identity: HIDRawIdentity(bus: .bluetooth, vendorID: 0x054C, productID: 0x05C4, name: "Wireless Controller", uniq: ""),
                                       features: [0x05: feature], reports: [])
        let source = try HIDRawSource(reader: reader, path: "/dev/hidraw1")
        #expect(source.info.name.contains("nominal scale: calibration report failed its CRC-32 check"))
    }

    @Test("an unsupported HID device is refused with its name and ids")
    func unknownDevice() {
        let reader = RecordedHIDReader(identity: HIDRawIdentity(bus: .usb, vendorID: 0x046D, productID: 0xC077, name: "Logitech Mouse", uniq: ""), reports: [])
        #expect { try HIDRawSource(reader: reader, path: "/dev/hidraw0") } throws: { error in
            "\(error)".contains("Logitech Mouse (046d:c077) is not a supported gyro pad")
        }
    }

    @Test("Switch Pro: SPI calibration is read with subcommand 0x10 among streaming 0x30 reports")
    func switchCalibration() throws {
        let report = SwitchReportTests.report(samples: Array(repeating: (SIMD3(0, 0, 4096), SIMD3(14, -4, -32)), count: 3))
        let reader = RecordedHIDReader(identity: HIDRawIdentity(bus: .usb, vendorID: 0x057E, productID: 0x2009, name: "Pro Controller", uniq: ""),
                                       reports: [report, report])
        reader.reply = { request in
            let address = request.uint32LE(at: 11)
            var reply = [UInt8](repeating: 0, count: 64)
            reply[0] = 0x21; reply[13] = 0x90; reply[14] = 0x10
            for i in 0..<4 { reply[15 + i] = request[11 + i] }
            let data = address == SwitchCalibration.userAddress ? SwitchReportTests.dekuUserCalibration : [UInt8](repeating: 0xFF, count: 24)
            for (i, b) in data.enumerated() { reply[20 + i] = b }
            return [report, reply]
        }
        let source = try HIDRawSource(reader: reader, path: "/dev/hidraw9")
        #expect(reader.written.count == 2 && reader.written.allSatisfy { $0[10] == 0x10 })
        #expect(source.info.name.hasSuffix("user calibration"))
        let events = try collect(source) { $0 == .ended }
        let samples = events.samples
        // Gyro counts equal to the user origin → zero rate once calibrated.
        #expect(samples.count >= 3 && samples.allSatisfy { $0.rotationRate!.length < 1e-12 })
        // a report's three IMU readings are handed over together (with those of reports read with it), oldest first
        let batches = events.compactMap { if case .samples(let batch) = $0 { batch } else { nil } }
        #expect(batches.allSatisfy { batch in batch.count % 3 == 0 && zip(batch.dropFirst(), batch).allSatisfy { $0.timestamp > $1.timestamp } })
    }
}

@Suite("hidraw source: unidentifiable streams")
struct HIDRawUnknownStreamTests {
    @Test("a stream no pad layout explains is reported once, by name, and never decoded as motion")
    func unknownStream() throws {
        let path = HIDRawSourceTests.temporaryPath("unknown")
        // 64-byte 0x01 reports whose accelerometer fields read 0 g in both layouts: not a pad at rest.
        var report = [UInt8](repeating: 0, count: 64)
        report[0] = 0x01
        try Data(Array(repeating: report, count: 100).flatMap { $0 }).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let source = try HIDRawSource(path: path)
        let events = try collect(source) { $0 == .ended }
        let notices = events.compactMap { if case .disconnected(let reason) = $0 { reason } else { nil } }
        #expect(notices.count == 1)
        #expect(notices.first?.contains("cannot tell which pad") == true && notices.first?.contains("device=ds4-usb") == true)
        #expect(HIDRawSourceTests.samples(events).isEmpty)
    }
}

@Suite("hidraw device framing")
struct HIDRawDeviceFramingTests {
    @Test("a byte stream is cut into reports by ID and length, skipping bytes no report starts with")
    func framing() throws {
        let path = HIDRawSourceTests.temporaryPath("framing")
        let reports = try #require(Fixtures.ds4dump().reports["clone1"])
        try Data([0x00, 0x99, 0x42] + reports[0] + reports[1]).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let device = try HIDRawDevice(path: path)
        #expect(device.identity() == nil)
        #expect(try device.featureReport(id: 0x02, length: 37) == nil)
        #expect(!device.writeReport([0x01]))
        #expect(try device.nextReport(timeout: 0.1) == .report(reports[0]))
        #expect(device.skippedBytes == 3)
        #expect(try device.nextReport(timeout: 0.1) == .report(reports[1]))
        #expect(try device.nextReport(timeout: 0.1) == .endOfStream)
    }

    @Test("a character device that is not hidraw is refused by name (/dev/null used to record nothing and exit 0)")
    func notHidraw() throws {
        let error = try #require(throws: DeviceError.self) { try HIDRawDevice(path: "/dev/null") }
        guard case .unsupported(path: "/dev/null", let reason) = error else { Issue.record("\(error)"); return }
        #expect(reason.contains("not a hidraw node"))
    }
}

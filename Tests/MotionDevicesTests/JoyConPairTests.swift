import Foundation
import Motion
@testable import MotionDevices
import Testing

@Suite("Joy-Con pair")
struct JoyConPairTests {
    static let sample = MotionSample(timestamp: 1, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0.1, 0, 0))

    @Test("the motion side's samples pass; the other side's are counted and dropped")
    func samplesFromTheMotionSide() {
        var relay = JoyConPairRelay(motionSide: .right)
        #expect(relay.handle(.samples([Self.sample]), from: .right) == [.event(.samples([Self.sample]))])
        #expect(relay.handle(.samples([Self.sample, Self.sample]), from: .left).isEmpty)
        #expect(relay.otherSideSamples == 2)
        var left = JoyConPairRelay(motionSide: .left)
        #expect(left.handle(.samples([Self.sample]), from: .right).isEmpty)
        #expect(left.handle(.samples([Self.sample]), from: .left) == [.event(.samples([Self.sample]))])
    }

    @Test("the other side going and coming back is said, and motion goes on; the motion side going pauses the pair")
    func unplugAndReplug() throws {
        var relay = JoyConPairRelay(motionSide: .right)
        let gone = relay.handle(.disconnected(reason: "/dev/hidraw4: no such device"), from: .left)
        guard case .notice(let text) = try #require(gone.first), gone.count == 1 else { Issue.record("\(gone)"); return }
        #expect(text.contains("Joy-Con (L) went away") && text.contains("motion goes on from Joy-Con (R)"))
        #expect(relay.connected[.left] == false)
        #expect(relay.handle(.samples([Self.sample]), from: .right) == [.event(.samples([Self.sample]))])
        #expect(relay.handle(.reconnected, from: .left) == [.notice("Joy-Con (L) is back: the pair is whole again")])
        let paused = relay.handle(.disconnected(reason: "read error"), from: .right)
        guard case .event(.disconnected(let reason)) = try #require(paused.first) else { Issue.record("\(paused)"); return }
        #expect(reason.contains("Joy-Con (R), the pair's motion side, went away (read error)") && reason.contains("motion pauses"))
        #expect(relay.handle(.reconnected, from: .right) == [.event(.reconnected)])
        #expect(relay.handle(.ended, from: .left).isEmpty)
        #expect(relay.handle(.ended, from: .right) == [.event(.ended)])
    }

    @Test("sides from the pad model and from hid-nintendo's node names")
    func sides() {
        #expect(JoyConSide(model: .joyConLeft) == .left && JoyConSide(model: .joyConRight) == .right)
        #expect(JoyConSide(model: .switchPro) == nil)
        #expect(JoyConSide(evdevNodeName: "Nintendo Switch Left Joy-Con IMU") == .left)
        #expect(JoyConSide(evdevNodeName: "Nintendo Switch Right Joy-Con") == .right)
        #expect(JoyConSide(evdevNodeName: "Nintendo Switch Pro Controller IMU") == nil)
    }

    /// A Joy-Con's 0x30 report with three equal samples of these raw counts.
    static func report(_ accel: SIMD3<Int16>, _ gyro: SIMD3<Int16>) -> [UInt8] {
        SwitchReportTests.report(samples: Array(repeating: (accel, gyro), count: 3))
    }

    @Test("one motion told to either half comes out the same: the right's mirrored Y and Z are undone")
    func oneDeviceFrame() throws {
        var left = GamepadReportDecoder(device: GamepadDevice(model: .joyConLeft, bus: .bluetooth))
        var right = GamepadReportDecoder(device: GamepadDevice(model: .joyConRight, bus: .bluetooth))
        // The same motion in hid-nintendo's frame; the right Joy-Con's IMU reads it with Y and Z negated.
        let l = try #require(left.decode(Self.report(SIMD3(1000, -2000, 3000), SIMD3(400, -500, 600)), hostTime: 0).first)
        let r = try #require(right.decode(Self.report(SIMD3(1000, 2000, -3000), SIMD3(400, 500, -600)), hostTime: 0).first)
        #expect(l.acceleration == r.acceleration && l.rotationRate == r.rotationRate)
        #expect(l.acceleration != Vector3(0, 0, 0))
    }

    /// Two hidraw halves over recorded reports: the left's accel x 1000, the right's 3000.
    static func halves() throws -> (left: HIDRawSource, right: HIDRawSource) {
        func half(_ productID: UInt16, _ x: Int16) throws -> HIDRawSource {
            let reader = RecordedHIDReader(
                identity: HIDRawIdentity(bus: .bluetooth, vendorID: 0x057E, productID: productID, name: "Joy-Con", uniq: ""),
                reports: Array(repeating: report(SIMD3(x, 0, 4096), SIMD3(0, 0, 0)), count: 5))
            // SPI reads answered from erased flash (nominal calibration), among the streaming reports
            reader.reply = { request in
                var reply = [UInt8](repeating: 0xFF, count: 49)
                reply[0] = 0x21; reply[13] = 0x90; reply[14] = 0x10
                for i in 0..<4 { reply[15 + i] = request[11 + i] }
                return [report(SIMD3(x, 0, 4096), SIMD3(0, 0, 0)), reply]
            }
            return try HIDRawSource(reader: reader, path: "/dev/hidraw\(productID & 0xF)")
        }
        return (try half(0x2006, 1000), try half(0x2007, 3000))
    }

    @Test("a pair over two hidraw halves delivers the chosen side's motion, and ends with it", arguments: [JoyConSide.right, .left])
    func pairSource(side: JoyConSide) throws {
        let (left, right) = try Self.halves()
        let pair = JoyConPairSource(left: left, right: right, motionSide: side)
        #expect(pair.info.name.contains("motion from the \(side.rawValue)") && pair.info.nominalRate == 200)
        let events = LockedEvents()
        let ended = DispatchSemaphore(value: 0)
        try pair.start { event in
            events.append(event)
            if event == .ended { ended.signal() }
        }
        #expect(ended.wait(timeout: .now() + 5) == .success)
        pair.stop()
        let samples = events.all.flatMap { event -> [MotionSample] in
            if case .samples(let s) = event { return s } else { return [] }
        }
        // 5 reports, one read while checking the pad streams: 4 reports of 3 samples from each half
        #expect(samples.count == 12)
        // x 1000 counts = 0.244 g toward the triggers, which Core Motion's frame has as −y (reaction sign flipped).
        let expectedX = side == .left ? 1000.0 : 3000.0
        #expect(samples.allSatisfy { abs(abs($0.acceleration.y) - expectedX * 4 / 16384) < 1e-9 })
        #expect(pair.diagnostics.contains("samples of the \(side.other.rawValue) side not used for motion"))
    }

    @Test("a pair is two paths")
    func twoPaths() {
        #expect(throws: DeviceError.self) { try JoyConPairSource(paths: ["/dev/null"]) }
    }
}

final class LockedEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [MotionSourceEvent] = []
    func append(_ e: MotionSourceEvent) { lock.lock(); events.append(e); lock.unlock() }
    var all: [MotionSourceEvent] { lock.lock(); defer { lock.unlock() }; return events }
}

@Suite("Joy-Con pair discovery")
struct JoyConPairDiscoveryTests {
    @Test("a left and a right Joy-Con are listed as one pair, chosen by auto, one device for serve dsu")
    func pairListed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-jc-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        func file(_ path: String, _ text: String) throws {
            try FileManager.default.createDirectory(atPath: (root + "/" + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: root + "/" + path, atomically: true, encoding: .utf8)
        }
        try file("class/hidraw/hidraw4/device/uevent", "HID_ID=0005:0000057E:00002006\nHID_NAME=Joy-Con (L)\nHID_UNIQ=aa\n")
        try file("class/hidraw/hidraw5/device/uevent", "HID_ID=0005:0000057E:00002007\nHID_NAME=Joy-Con (R)\nHID_UNIQ=bb\n")
        try file("class/hidraw/hidraw2/device/uevent", "HID_ID=0003:0000054C:00000CE6\nHID_NAME=DualSense Wireless Controller\n")
        for (event, name) in [("event20", "Nintendo Switch Left Joy-Con IMU"), ("event22", "Nintendo Switch Right Joy-Con IMU")] {
            try file("class/input/\(event)/device/name", name + "\n")
            try file("class/input/\(event)/device/properties", "40\n")
            try file("class/input/\(event)/device/capabilities/abs", "3f\n")
        }
        var discovery = MotionDeviceDiscovery(sysfsRoot: root, devRoot: "/dev")
        discovery.isAccessible = { _, _ in true }
        let found = discovery.scan()
        let pair = try #require(found.first)
        #expect(pair.sourceSpec == "joycon-pair:/dev/hidraw4+/dev/hidraw5" && pair.rate == 200 && pair.isFusionCapable)
        #expect(found.contains { $0.sourceSpec == "hidraw:/dev/hidraw4" })   // each half is still there alone
        #expect(MotionDeviceDiscovery.best(of: found) == pair)
        #expect(MotionDeviceDiscovery.distinct(found).map(\.sourceSpec) == ["joycon-pair:/dev/hidraw4+/dev/hidraw5", "hidraw:/dev/hidraw2"])
        // One half alone is no pair.
        try FileManager.default.removeItem(atPath: root + "/class/hidraw/hidraw5")
        #expect(!discovery.scan().contains { $0.kind == "joycon-pair" })
    }
}

import Foundation
import Motion
@testable import MotionDevices
import Testing
import TestSupport

/// Reports built from SDL's steam/controller_structs.h layout: a Deck state (type 9) or Steam
/// Controller state (type 1) message with the IMU fields given in raw counts.
enum SteamReports {
    static func state(_ layout: SteamReport.Layout, packet: UInt32 = 1, accel: SIMD3<Int16>, gyro: SIMD3<Int16>) -> [UInt8] {
        var r = [UInt8](repeating: 0, count: SteamReport.length)
        r[0] = 0x01; r[1] = 0x00
        r[2] = layout == .deck ? 0x09 : 0x01
        r[3] = layout == .deck ? 0x40 : 0x3C
        put(packet, at: 4, in: &r)
        let (a, g) = layout == .deck ? (24, 30) : (28, 34)
        for i in 0..<3 {
            put(UInt16(bitPattern: accel[i]), at: a + 2 * i, in: &r)
            put(UInt16(bitPattern: gyro[i]), at: g + 2 * i, in: &r)
        }
        return r
    }

    static func put<T: FixedWidthInteger>(_ value: T, at offset: Int, in report: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { report.replaceSubrange(offset..<(offset + MemoryLayout<T>.size), with: $0) }
    }

    static let deckIdentity = HIDRawIdentity(bus: .usb, vendorID: 0x28DE, productID: 0x1205, name: "Valve Software Steam Deck Controller", uniq: "")
    static let controllerIdentity = HIDRawIdentity(bus: .usb, vendorID: 0x28DE, productID: 0x1102, name: "Valve Software Steam Controller", uniq: "")
}

final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}

@Suite("Steam Deck and Steam Controller reports")
struct SteamReportTests {
    let degree = Double.pi / 180

    @Test("the Deck's IMU: PlayStation (x, z, −y) as hid-steam and SDL map it, 16384 counts per g, 16.384 per °/s")
    func deckValues() {
        var decoder = GamepadReportDecoder(device: GamepadDevice(model: .steamDeck, bus: .usb))
        // Lying face-up: the reaction to gravity along the Deck's +z.
        let flat = decoder.decode(SteamReports.state(.deck, accel: [0, 0, 16384], gyro: [16384, 0, 0]), hostTime: 1)
        #expect(flat.count == 1)
        #expect((flat[0].acceleration - Vector3(0, 0, -1)).length < 1e-12)
        #expect((flat[0].rotationRate! - Vector3(1000 * degree, 0, 0)).length < 1e-9)
        let turning = decoder.decode(SteamReports.state(.deck, packet: 2, accel: [8192, -16384, 0], gyro: [0, 16384, -8192]), hostTime: 1.004)
        // accel PlayStation (0.5, 0, 1) → Core Motion −(0.5, −1, 0); gyro PlayStation (0, −500, −1000) → (0, 1000, −500) °/s
        #expect((turning[0].acceleration - Vector3(-0.5, 1, 0)).length < 1e-12)
        #expect((turning[0].rotationRate! - Vector3(0, 1000, -500) * degree).length < 1e-9)
        #expect(decoder.statistics.decodedReports == 2 && decoder.statistics.rejected == 0)
    }

    @Test("the Steam Controller's IMU: the gyro as (x, z, y), the accelerometer as (x, z, −y), as SDL maps them")
    func controllerValues() {
        for model in [GamepadModel.steamController, .steamControllerDongle] {
            var decoder = GamepadReportDecoder(device: GamepadDevice(model: model, bus: .usb))
            let s = decoder.decode(SteamReports.state(.controller, accel: [0, 16384, 0], gyro: [0, 16384, 0]), hostTime: 1)
            #expect((s[0].acceleration - Vector3(0, -1, 0)).length < 1e-12)
            #expect((s[0].rotationRate! - Vector3(0, -1000 * degree, 0)).length < 1e-9)
        }
    }

    @Test("other messages, short reads, foreign headers and zeroed IMU fields give no samples, each counted")
    func rejections() {
        let deck = SteamReport.Layout.deck
        let good = SteamReports.state(deck, accel: [0, 0, 16384], gyro: [1, 2, 3])
        #expect(SteamReport.parse([], layout: deck) == .failure(.empty))
        #expect(SteamReport.parse([0x01, 0x00], layout: deck) == .failure(.truncated(reportID: 0x01, length: 2, expected: 64)))
        #expect(SteamReport.parse(Array(good.prefix(30)), layout: deck) == .failure(.truncated(reportID: 0x09, length: 30, expected: 64)))
        var foreign = good; foreign[1] = 0x02
        #expect(SteamReport.parse(foreign, layout: deck) == .failure(.unknownReportID(0x01)))
        // A wireless connect event (type 3) and a Controller state read as a Deck's.
        var wireless = [UInt8](repeating: 0, count: 64); wireless[0] = 1; wireless[2] = 3; wireless[3] = 1; wireless[4] = 2
        #expect(SteamReport.parse(wireless, layout: .controller) == .failure(.noMotionData(reportID: 0x03)))
        #expect(SteamReport.parse(SteamReports.state(.controller, accel: [1, 1, 1], gyro: [0, 0, 0]), layout: deck) == .failure(.noMotionData(reportID: 0x01)))
        #expect(SteamReport.parse(SteamReports.state(deck, accel: .zero, gyro: .zero), layout: deck) == .failure(.motionSensorsOff))
        // Truncated at every length: refused, never a crash.
        for n in 0..<good.count { _ = SteamReport.parse(Array(good.prefix(n)), layout: deck) }
        #expect(SteamReport.parse(good, layout: deck) == .success(RawIMUReading(gyro: [1, 2, 3], accel: [0, 0, 16384])))
        var decoder = GamepadReportDecoder(device: GamepadDevice(model: .steamDeck, bus: .usb))
        _ = decoder.decode(SteamReports.state(deck, accel: .zero, gyro: .zero), hostTime: 1)
        #expect(decoder.statistics.motionSensorsOff == 1)
        #expect(decoder.statistics.description.contains("1 with the motion sensors off"))
    }

    @Test("the Steam Controller's commands: IMU mode 0x30 = raw accelerometer + gyro; the interval from its attributes")
    func controllerCommands() {
        let command = SteamControllerSettings.enableMotionCommand
        #expect(command.count == 65 && Array(command.prefix(6)) == [0x00, 0x87, 0x03, 0x30, 0x18, 0x00])
        #expect(command.dropFirst(6).allSatisfy { $0 == 0 })
        #expect(Array(SteamControllerSettings.attributesRequest.prefix(3)) == [0x00, 0x83, 0x00])
        // Attributes: product id 0x1102, then the connection interval 4000 µs.
        var reply: [UInt8] = [0x00, 0x83, 10, 1, 0x02, 0x11, 0, 0, 11, 0xA0, 0x0F, 0, 0]
        reply += [UInt8](repeating: 0, count: 65 - reply.count)
        #expect(SteamControllerSettings.reportInterval(fromAttributes: reply) == 4000)
        var short = reply; short[2] = 7   // the interval's value cut off
        #expect(SteamControllerSettings.reportInterval(fromAttributes: short) == nil)
        var other = reply; other[1] = 0x87
        #expect(SteamControllerSettings.reportInterval(fromAttributes: other) == nil)
        #expect(SteamControllerSettings.reportInterval(fromAttributes: [0x00, 0x83]) == nil)
    }

    @Test("opening a Steam Controller asks its interval and turns its motion reports on")
    func controllerOpen() throws {
        var attributes: [UInt8] = [0x00, 0x83, 5, 11, 0xA0, 0x0F, 0, 0]
        attributes += [UInt8](repeating: 0, count: 65 - attributes.count)
        let reports = (0..<5).map { SteamReports.state(.controller, packet: UInt32($0), accel: [0, 0, 16384], gyro: [16, 0, 0]) }
        let reader = RecordedHIDReader(identity: SteamReports.controllerIdentity, features: [0x00: attributes], reports: reports)
        let source = try HIDRawSource(reader: reader, path: "/dev/hidraw5")
        #expect(reader.sentFeatures == [SteamControllerSettings.attributesRequest, SteamControllerSettings.enableMotionCommand])
        #expect(source.info.nominalRate == 250)
        #expect(source.info.name.hasSuffix("nominal scale (no calibration in the reports), motion reports turned on"))
        #expect(!source.stampsFromPadClock)
        let samples = try collect(source) { $0 == .ended }.samples
        #expect(samples.count == 5)
        #expect(abs(samples[0].rotationRate!.x - 16 / 16.384 * degree) < 1e-12)
    }

    @Test("the report observer sees every report, the ones without motion too, before the samples read with it")
    func reportObserver() throws {
        let off = SteamReports.state(.deck, packet: 1, accel: .zero, gyro: .zero)
        let on = (2..<5).map { SteamReports.state(.deck, packet: UInt32($0), accel: [0, 0, 16384], gyro: .zero) }
        let source = try HIDRawSource(reader: RecordedHIDReader(identity: SteamReports.deckIdentity, reports: [off] + on), path: "/dev/hidraw4")
        let log = LockedLines()
        source.reportObserver = { report in log.append("report \(report[4])") }
        let events = try collect(source) { event in
            if case .samples(let samples) = event { log.append("samples \(samples.count)") }
            return event == .ended
        }
        let seen = log.all
        #expect(seen.filter { $0.hasPrefix("report") } == ["report 1", "report 2", "report 3", "report 4"])
        // Each batch's reports come before its samples.
        let lastReport = try #require(seen.lastIndex { $0.hasPrefix("report") })
        #expect(seen[lastReport + 1..<seen.count].allSatisfy { $0.hasPrefix("samples") } && !seen.last!.hasPrefix("report"))
        #expect(events.samples.count == 3)
    }

    @Test("a controller leaving the wireless adapter is said once, and is back with its first samples; its motion turned on again")
    func dongleConnect() throws {
        let identity = HIDRawIdentity(bus: .usb, vendorID: 0x28DE, productID: 0x1142, name: "Valve Software Steam Controller", uniq: "")
        var connect = [UInt8](repeating: 0, count: SteamReport.length)
        connect[0] = 0x01; connect[2] = 0x03; connect[3] = 0x01; connect[4] = 0x02
        var disconnect = connect
        disconnect[4] = 0x01
        let state = SteamReports.state(.controller, accel: [0, 0, 16384], gyro: .zero)
        let reader = RecordedHIDReader(identity: identity, reports: [state, disconnect, disconnect, connect, state])
        let source = try HIDRawSource(reader: reader, path: "/dev/hidraw6")
        let opened = reader.sentFeatures.filter { $0 == SteamControllerSettings.enableMotionCommand }.count
        let events = try collect(source) { $0 == .ended }
        let all = reader.sentFeatures.filter { $0 == SteamControllerSettings.enableMotionCommand }.count
        #expect(opened == 1 && all == 2, "once at opening, once when the controller connected; not at the disconnect")
        let notices = events.compactMap { event -> String? in if case .disconnected(let reason) = event { return reason }; return nil }
        #expect(notices == ["/dev/hidraw6: the Steam Controller left its wireless adapter (switched off or out of range)"])
        let left = try #require(events.firstIndex(of: .disconnected(reason: notices[0])))
        let back = try #require(events.firstIndex(of: .reconnected))
        #expect(left < back && back < events.count - 1, "back before the samples after the reconnect")
        #expect(events.samples.count == 2)
        // Motion read with the leaving, from before it, is not the controller back.
        let gone = try HIDRawSource(reader: RecordedHIDReader(identity: identity, reports: [state, state, disconnect]), path: "/dev/hidraw6")
        let goneEvents = try collect(gone) { $0 == .ended }
        #expect(goneEvents.contains { if case .disconnected = $0 { return true }; return false } && !goneEvents.contains(.reconnected))
    }

    @Test("a Deck whose reports read zero: no zeros served, one notice saying what to change, 'back' when motion returns")
    func deckMotionOff() throws {
        let off = (0..<130).map { SteamReports.state(.deck, packet: UInt32($0), accel: .zero, gyro: .zero) }
        let on = (0..<4).map { SteamReports.state(.deck, packet: UInt32(200 + $0), accel: [0, 0, 16384], gyro: .zero) }
        let reader = RecordedHIDReader(identity: SteamReports.deckIdentity, reports: off + on)
        let source = try HIDRawSource(reader: reader, path: "/dev/hidraw4")
        #expect(reader.sentFeatures.isEmpty, "the Deck's settings are Steam's: nothing is sent to it")
        let events = try collect(source) { $0 == .ended }
        let notices = events.compactMap { event -> String? in if case .disconnected(let reason) = event { return reason }; return nil }
        #expect(notices.count == 1)
        #expect(notices.first?.contains("Gyro Behavior is None") == true)
        let back = try #require(events.firstIndex(of: .reconnected))
        let firstSamples = try #require(events.firstIndex { if case .samples = $0 { return true }; return false })
        #expect(back < firstSamples)
        #expect(events.samples.count == 4 && events.samples.allSatisfy { abs($0.acceleration.z + 1) < 1e-12 })
        #expect(source.statistics.motionSensorsOff == 130)
    }

    @Test("the Deck's and Controller's keyboard and mouse interfaces are not motion sources")
    func interfaces() {
        func node(_ product: String, _ phys: String) -> HIDRawNode {
            HIDRawNode(name: "hidraw1", devicePath: "/dev/hidraw1",
                       uevent: "HID_ID=0003:000028DE:0000\(product)\nHID_NAME=Valve Software\nHID_PHYS=\(phys)\n")!
        }
        #expect(node("1205", "usb-0000:04:00.3-3/input2").isMotionInterface)
        #expect(!node("1205", "usb-0000:04:00.3-3/input0").isMotionInterface)
        #expect(node("1205", "usb-0000:04:00.3-3/input2").interfaceNumber == 2)
        #expect(!node("1102", "usb-0000:00:14.0-1/input1").isMotionInterface)
        #expect(node("1142", "usb-0000:00:14.0-1/input3").isMotionInterface)
        #expect(!node("1142", "usb-0000:00:14.0-1/input0").isMotionInterface)
        #expect(node("1205", "").isMotionInterface, "no interface number: kept")
        #expect(GamepadModel(vendorID: 0x28DE, productID: 0x1205) == .steamDeck)
        #expect(GamepadDevice(hint: "steam-controller") == GamepadDevice(model: .steamController, bus: .usb))
        #expect(GamepadModel.steamDeck.calibrationSource.contains("--gyro-calibration"))
    }
}

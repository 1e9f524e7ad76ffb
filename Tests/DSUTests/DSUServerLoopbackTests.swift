import DSU
import DSUServer
import Foundation
import Motion
import TestSupport
import XCTest

/// The server over real UDP on 127.0.0.1 (a free port), spoken to by `DSUTestClient`, which checks
/// the CRC, magic and length of every packet it receives.
final class DSUServerLoopbackTests: XCTestCase {
    private var server: DSUServer!

    private func startServer(timeout: Double = DSU.subscriptionTimeout, _ sources: [any MotionSource]) throws {
        var settings = DSUServer.Settings()
        settings.port = 0
        settings.state.subscriptionTimeout = timeout
        server = try DSUServer(settings: settings)
        for (slot, source) in sources.enumerated() { try server.attach(source, slot: slot) }
        server.start()
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func client() throws -> DSUTestClient { try DSUTestClient(server: server.local) }

    func testEveryMessageType() throws {
        let pad = ScriptedSource()
        try startServer([pad])
        let c = try client()
        Thread.sleep(forTimeInterval: 0.05)  // the first sample marks the slot connected

        c.send(.version)
        XCTAssertEqual(c.receive(for: 1) { $0.count == 1 }.map(\.response), [.version(maxProtocolVersion: 1001)])

        c.send(.portInfo(slots: [0, 1, 2, 3]))
        let ports = c.receive(for: 1) { $0.count == 4 }.compactMap(\.response.portInfo)
        XCTAssertEqual(ports.map(\.slot), [0, 1, 2, 3])
        XCTAssertEqual(ports.map(\.state), [.connected, .disconnected, .disconnected, .disconnected])
        XCTAssertEqual(ports[0].model, .fullGyro)

        c.send(.padData(DSUSubscription(slot: 0)))
        let stream = c.receive(for: 0.3).compactMap(\.response.padData)
        XCTAssertGreaterThan(stream.count, 20)
        XCTAssertEqual(stream.map(\.counter), (0..<UInt32(stream.count)).map { $0 }, "one packet per sample, none lost")
        XCTAssertTrue(zip(stream, stream.dropFirst()).allSatisfy { $0.motion.timestamp < $1.motion.timestamp })
        let m = stream[0].motion
        XCTAssertEqual([m.acceleration.x, m.acceleration.y, m.acceleration.z], [0, -1, 0])
        XCTAssertEqual(Double(m.gyroscope.yaw), -0.5 * 180 / .pi, accuracy: 1e-4)
        XCTAssertEqual(c.rejected, [])
    }

    /// A pad's controls set from another thread (as its evdev reader does) ride the next samples;
    /// the battery reaches port info and pad data.
    func testInputAndBatteryReachTheClient() throws {
        let pad = ScriptedSource()
        try startServer([pad])
        let c = try client()
        c.send(.padData(DSUSubscription(slot: 0)))
        XCTAssertFalse(c.receive(for: 1) { !$0.isEmpty }.isEmpty)
        let input = DSUPadInput(buttons: [.cross, .dpadLeft], leftStick: DSUStick(x: 255, y: 0), rightTrigger: 90,
                                firstTouch: DSUTouch(id: 4, x: 1000, y: 500))
        DispatchQueue.global().sync { server.updateInput(slot: 0) { $0 = input } }
        server.setBattery(0x04, slot: 0)
        let later = c.receive(for: 1) { $0.contains { $0.padData?.input == input && $0.padData?.info.battery == 0x04 } }
        XCTAssertTrue(later.contains { $0.response.padData?.input == input }, "the controls arrive with the next samples")
        c.send(.portInfo(slots: [0]))
        XCTAssertEqual(c.receive(for: 1) { !$0.compactMap(\.portInfo).isEmpty }.compactMap(\.response.portInfo).first?.battery, 0x04)
        XCTAssertEqual(c.rejected, [])
    }

    func testSeveralClientsEachWithTheirOwnStream() throws {
        let pad = ScriptedSource()
        try startServer([pad])
        Thread.sleep(forTimeInterval: 0.05)
        let clients = try (0..<3).map { _ in try client() }
        clients[0].send(.padData(DSUSubscription(slot: 0)))
        clients[1].send(.padData(DSUSubscription(mac: DSUMAC.local(slot: 0))))
        Thread.sleep(forTimeInterval: 0.1)
        clients[2].send(.padData(.allSlots))
        for (i, c) in clients.enumerated() {
            let stream = c.receive(for: 0.25).compactMap(\.response.padData)
            XCTAssertGreaterThan(stream.count, 10, "client \(i)")
            XCTAssertEqual(stream.first?.counter, 0, "client \(i) counts its own packets")
            XCTAssertTrue(zip(stream, stream.dropFirst()).allSatisfy { $1.counter == $0.counter + 1 }, "client \(i)")
            XCTAssertEqual(c.rejected, [])
        }
        XCTAssertEqual(server.status.clients.count, 3)
    }

    func testStreamStopsWhenTheClientStopsAsking() throws {
        try startServer(timeout: 0.3, [ScriptedSource()])
        let c = try client()
        c.send(.padData(.allSlots))
        let received = c.receive(for: 0.9)
        let arrivals = received.map(\.arrival)
        XCTAssertGreaterThan(received.count, 20)
        XCTAssertLessThan(arrivals.last! - arrivals.first!, 0.45, "nothing after the 0.3 s subscription ran out")
        XCTAssertGreaterThanOrEqual(server.status.counters.expired, 1)
        c.send(.padData(.allSlots))
        XCTAssertGreaterThan(c.receive(for: 0.2).count, 10, "asking again streams again")
    }

    func testBadPacketsAreCountedAndIgnored() throws {
        try startServer([ScriptedSource()])
        let c = try client()
        let good = DSUCodec.encode(.version, from: c.id)
        var wrongMagic = good; wrongMagic[3] = UInt8(ascii: "S"); DSUCodecTests.refreshCRC(&wrongMagic)
        var wrongVersion = good; wrongVersion[4] = 0xE8; DSUCodecTests.refreshCRC(&wrongVersion)
        var wrongLength = good; wrongLength[6] = 9; DSUCodecTests.refreshCRC(&wrongLength)
        var badCRC = good; badCRC[9] ^= 0x40
        var unknownType = good; unknownType[18] = 0x20; DSUCodecTests.refreshCRC(&unknownType)
        var badPayload = DSUCodec.encode(.portInfo(slots: [0]), from: c.id); badPayload[20] = 200; DSUCodecTests.refreshCRC(&badPayload)
        let bad: [[UInt8]] = [[0x44], Array(good[0..<19]), [UInt8](repeating: 0x55, count: 3000), wrongMagic, wrongVersion,
                              wrongLength, badCRC, unknownType, badPayload]
        for b in bad { c.sendRaw(b) }
        XCTAssertEqual(c.receive(for: 0.2).count, 0, "no answer to a bad packet")
        c.send(.version)
        XCTAssertEqual(c.receive(for: 1) { $0.count == 1 }.map(\.response), [.version(maxProtocolVersion: 1001)], "still serving")
        let dropped = server.status.counters.dropped
        XCTAssertEqual(dropped, [.short: 2, .oversized: 1, .badMagic: 1, .badVersion: 1, .badLength: 1, .badCRC: 1,
                                 .unknownType: 1, .badPayload: 1])
    }

    static func hasPortInfo(_ responses: [DSUResponse]) -> Bool { responses.contains { $0.portInfo != nil } }

    func testUnplugReadsDisconnectedAndReplugStreamsAgain() throws {
        let pad = ScriptedSource()
        try startServer([pad])
        let c = try client()
        c.send(.padData(.allSlots))
        XCTAssertGreaterThan(c.receive(for: 0.1).count, 5)
        pad.unplug()
        let told = c.receive(for: 0.2).compactMap(\.response.padData)
        XCTAssertEqual(told.last?.info.state, .disconnected, "a streaming client hears the unplug")
        c.send(.portInfo(slots: [0]))
        XCTAssertEqual(c.receive(for: 1, until: Self.hasPortInfo).compactMap(\.response.portInfo).first?.state, .disconnected)
        XCTAssertNotNil(server.status.slots[0].disconnectReason)

        pad.replug()  // its clock restarts at 0
        let again = c.receive(for: 0.2).compactMap(\.response.padData)
        XCTAssertGreaterThan(again.count, 10)
        XCTAssertEqual(again.last?.info.state, .connected)
        // The unplug's notice repeats the last motion, its timestamp included (no new sample), and
        // comes after whatever samples the pad sent before it.
        let streamed = (told + again).filter { $0.info.state == .connected }
        XCTAssertTrue(zip(streamed, streamed.dropFirst()).allSatisfy { $0.motion.timestamp < $1.motion.timestamp },
                      "timestamps keep increasing over the replug")
        if let notice = told.last, let before = told.dropLast().last {
            XCTAssertEqual(notice.motion.timestamp, before.motion.timestamp, "the unplug's notice repeats the last sample")
        }
        c.send(.portInfo(slots: [0]))
        // the pad streams again, so pad data may arrive before the answer: wait for the answer itself
        XCTAssertEqual(c.receive(for: 1, until: Self.hasPortInfo).compactMap(\.response.portInfo).first?.state, .connected)
        XCTAssertEqual(c.rejected, [])
    }

    /// x-io's recording in four slots at once, one phase each, replayed in real time and looped:
    /// what a client decodes, and the rate it gets.
    func testXIOPhasesAsAClientReceivesThem() throws {
        let trace = try Recordings.xio()
        let phases: [(name: String, from: Double, to: Double)] = [("flat", 2, 3.5), ("pitch up", 14.8, 16.3),
                                                                  ("roll right", 29.8, 31.3), ("yaw left", 66, 67.5)]
        try startServer(phases.map { ReplaySource(trace: try! trace.cut(from: $0.from, to: $0.to), pacing: .realTime(speed: 1), loop: true) })
        let c = try client()
        c.send(.padData(.allSlots))
        let received = c.receive(for: 1.6)
        XCTAssertEqual(c.rejected, [])
        for (slot, phase) in phases.enumerated() {
            let packets = received.filter { $0.response.padData?.info.slot == UInt8(slot) }
            let data = packets.compactMap(\.response.padData)
            guard data.count > 10 else { return XCTFail("slot \(slot): \(data.count) packets") }
            XCTAssertTrue(zip(data, data.dropFirst()).allSatisfy { $1.counter == $0.counter + 1 }, "slot \(slot): none lost")
            XCTAssertTrue(zip(data, data.dropFirst()).allSatisfy { $0.motion.timestamp < $1.motion.timestamp })
            let rate = Double(data.count - 1) / (packets.last!.arrival - packets.first!.arrival)
            let stampRate = Double(data.count - 1) * 1e6 / Double(data.last!.motion.timestamp - data.first!.motion.timestamp)
            let n = Float(data.count)
            func mean(_ f: (DSUMotion) -> Float) -> Float { data.map { f($0.motion) }.reduce(0, +) / n }
            func peak(_ f: (DSUMotion) -> Float) -> Float { data.map { f($0.motion) }.max { abs($0) < abs($1) }! }
            let accel = (mean(\.acceleration.x), mean(\.acceleration.y), mean(\.acceleration.z))
            let gyro = (mean(\.gyroscope.pitch), mean(\.gyroscope.yaw), mean(\.gyroscope.roll))
            print(String(format: "DSU slot %d %@ (%.1f–%.1f s): %d packets, %.1f Hz by arrival, %.1f Hz by stamps; mean accel (%.3f, %.3f, %.3f) g; mean gyro pitch %.1f yaw %.1f roll %.1f °/s; peak pitch %.0f yaw %.0f roll %.0f °/s",
                         slot, phase.name, phase.from, phase.to, data.count, rate, stampRate, accel.0, accel.1, accel.2,
                         gyro.0, gyro.1, gyro.2, peak(\.gyroscope.pitch), peak(\.gyroscope.yaw), peak(\.gyroscope.roll)))
            XCTAssertEqual(rate, 100, accuracy: 15, "slot \(slot) Hz")
            XCTAssertEqual(stampRate, 100, accuracy: 2, "slot \(slot) Hz")
            switch slot {
            case 0:
                XCTAssertEqual(accel.1, -1, accuracy: 0.03)
                XCTAssertEqual(accel.0, 0, accuracy: 0.03)
                XCTAssertEqual(accel.2, 0, accuracy: 0.03)
            case 1: XCTAssertGreaterThan(gyro.0, 20)
            case 2: XCTAssertGreaterThan(gyro.2, 20)
            default: XCTAssertLessThan(gyro.1, -150)
            }
        }
    }
}

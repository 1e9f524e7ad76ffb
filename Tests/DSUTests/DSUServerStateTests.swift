import DSU
import Motion
import XCTest

/// The server's rules on a hand-driven clock: subscriptions by slot, MAC and all, per-client
/// counters, the 5 s timeout, unplug, and the client limit.
final class DSUServerStateTests: XCTestCase {
    private var state = DSUServerState<Peer>(serverID: 42)
    private let flat = MotionSample(timestamp: 0, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0, 0, 0))

    override func setUp() {
        state = DSUServerState<Peer>(serverID: 42)
        for slot in 0..<2 {
            state.setSlot(slot, DSUSlotInfo(slot: UInt8(slot), state: .connected, model: .fullGyro, connection: .usb))
        }
    }

    private func request(_ r: DSURequest, from client: Peer, at t: Double) -> [DSUDatagram<Peer>] {
        state.receive(DSUCodec.encode(r, from: 1), from: client, at: t)
    }

    private func sample(slot: Int, at t: Double) -> [DSUDatagram<Peer>] {
        var s = flat
        s.timestamp = t
        return state.sample(s, slot: slot, at: t)
    }

    func testVersionAndPortInfo() throws {
        let version = request(.version, from: "a", at: 0)
        XCTAssertEqual(try version.map { try DSUCodec.decodeResponse($0.bytes).get().message }, [.version(maxProtocolVersion: 1001)])
        let ports = try request(.portInfo(slots: [3, 0, 2]), from: "a", at: 0).map { try DSUCodec.decodeResponse($0.bytes).get().message } + request(.portInfo(slots: [1]), from: "a", at: 0).map { try DSUCodec.decodeResponse($0.bytes).get().message }
        XCTAssertEqual(ports.compactMap(\.portInfo?.slot), [3, 0, 2, 1], "one reply per asked slot, in the order asked")
        XCTAssertEqual(ports[1].portInfo?.state, .connected)
        XCTAssertEqual(ports[2].portInfo, .absent(slot: 2))
        XCTAssertEqual(state.counters.replies, 5)
    }

    func testSubscriptionsBySlotMACAndAllWithTheirOwnCounters() throws {
        _ = request(.padData(DSUSubscription(slot: 1)), from: "by slot", at: 0)
        _ = request(.padData(DSUSubscription(mac: state.slots[0].mac)), from: "by MAC", at: 0)
        _ = request(.padData(.allSlots), from: "all", at: 0)
        _ = request(.padData(DSUSubscription(slot: 9)), from: "nothing", at: 0)
        let zero = sample(slot: 0, at: 0.01)
        XCTAssertEqual(zero.map(\.endpoint), ["by MAC", "all"])
        let one = sample(slot: 1, at: 0.01) + sample(slot: 1, at: 0.02)
        XCTAssertEqual(one.map(\.endpoint), ["by slot", "all", "by slot", "all"])
        let counters = try one.map { try DSUCodec.decodeResponse($0.bytes).get().message.padData!.counter }
        XCTAssertEqual(counters, [0, 0, 1, 1])
        XCTAssertEqual(try DSUCodec.decodeResponse(zero[1].bytes).get().message.padData!.counter, 0)
    }

    func testSubscriptionEndsFiveSecondsAfterTheLastRequest() {
        _ = request(.padData(.allSlots), from: "a", at: 0)
        _ = request(.padData(.allSlots), from: "a", at: 3)
        XCTAssertEqual(sample(slot: 0, at: 7.99).count, 1)
        XCTAssertEqual(sample(slot: 0, at: 8.0).count, 0)
        state.expire(at: 8)
        XCTAssertTrue(state.clients.isEmpty)
        XCTAssertEqual(state.counters.expired, DSU.slotCount)
        _ = request(.padData(.allSlots), from: "a", at: 9)
        XCTAssertEqual(sample(slot: 0, at: 9.01).count, 1, "asking again streams again")
    }

    func testUnplugTellsSubscribersOnceAndPortInfoSaysDisconnected() throws {
        _ = request(.padData(.allSlots), from: "a", at: 0)
        _ = sample(slot: 0, at: 0.01)
        let told = state.setConnected(false, slot: 0, at: 0.02)
        XCTAssertEqual(try told.map { try DSUCodec.decodeResponse($0.bytes).get().message.padData!.info.state }, [.disconnected])
        XCTAssertEqual(state.setConnected(false, slot: 0, at: 0.03), [])
        let port = try DSUCodec.decodeResponse(request(.portInfo(slots: [0]), from: "a", at: 0.04)[0].bytes).get()
        XCTAssertEqual(port.message.portInfo?.state, .disconnected)
        XCTAssertEqual(sample(slot: 0, at: 0.05).count, 1, "a sample means the slot is back")
        XCTAssertEqual(state.slots[0].state, .connected)
    }

    func testBadPacketsAreCountedByReasonAndAnsweredWithNothing() {
        XCTAssertEqual(state.receive([1, 2, 3], from: "x", at: 0), [])
        var bad = DSUCodec.encode(.version, from: 1)
        bad[10] ^= 0xFF
        XCTAssertEqual(state.receive(bad, from: "x", at: 0), [])
        XCTAssertEqual(state.counters.dropped, [.short: 1, .badCRC: 1])
        XCTAssertEqual(state.counters.received, 2)
    }

    /// 16 idle clients from distinct ports that keep re-subscribing fill the table; a 17th still
    /// gets served (the least recently asking one makes room), and the one that made room is back
    /// at its next request.
    func testIdleSubscribersCannotLockOutANewClient() throws {
        state.settings.maxClientsPerHost = 16
        let idle = (0..<16).map { Peer("127.0.0.1:\(40000 + $0)") }
        for round in 0..<3 {
            for (i, peer) in idle.enumerated() { _ = request(.padData(.allSlots), from: peer, at: Double(round) + Double(i) * 0.01) }
        }
        XCTAssertEqual(state.clients.count, 16)
        let newcomer = Peer("127.0.0.1:50000")
        _ = request(.padData(DSUSubscription(slot: 0)), from: newcomer, at: 3)
        let out = sample(slot: 0, at: 3.01)
        XCTAssertTrue(out.contains { $0.endpoint == newcomer }, "the 17th client receives pad data")
        XCTAssertFalse(out.contains { $0.endpoint == idle[0] }, "the least recently asking client made room")
        XCTAssertEqual(state.counters.evicted, 1)
        _ = request(.padData(.allSlots), from: idle[0], at: 3.02)
        let next = sample(slot: 0, at: 3.03)
        XCTAssertTrue(next.contains { $0.endpoint == idle[0] }, "the evicted client is served again when it asks")
        XCTAssertTrue(next.contains { $0.endpoint == newcomer })
        XCTAssertEqual(state.clients.count, 16)
    }

    /// A flood of ports from one address holds at most its cap; another host's clients keep their
    /// places and their data.
    func testAFloodFromOneAddressStaysWithinItsCap() {
        let player = Peer("192.168.1.5:26800")
        _ = request(.padData(.allSlots), from: player, at: 0)
        for port in 0..<1000 { _ = request(.padData(.allSlots), from: Peer("10.0.0.9:\(port)"), at: 0.001 * Double(port + 1)) }
        let flood = state.clients.filter { $0.endpoint.host == "10.0.0.9" }
        XCTAssertEqual(flood.count, state.settings.maxClientsPerHost)
        XCTAssertEqual(flood.map(\.endpoint.port), (992..<1000).map(String.init), "the flood keeps only its most recent ports")
        XCTAssertTrue(sample(slot: 0, at: 1.1).contains { $0.endpoint == player }, "the other host is still served")
        XCTAssertEqual(state.counters.evicted, 1000 - state.settings.maxClientsPerHost)
    }

    func testClientLimit() {
        state.settings.maxClients = 2
        for (name, t) in [("a", 0.0), ("b", 1.0), ("c", 2.0)] { _ = request(.padData(.allSlots), from: Peer(name), at: t) }
        XCTAssertEqual(state.clients.map(\.endpoint), [Peer("b"), Peer("c")], "the least recently asking made room")
        XCTAssertEqual(state.counters.evicted, 1)
        XCTAssertEqual(state.counters.clientsSeen, 3)
    }
}

/// A test client as "host:port" (a bare name is a host of its own).
struct Peer: DSUEndpoint, ExpressibleByStringLiteral, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
    init(stringLiteral text: String) { description = text }
    var host: String { String(description.split(separator: ":").first ?? "") }
    var port: String { String(description.split(separator: ":").last ?? "") }
}

import DSU
import Motion
import XCTest

/// The server's rules on a hand-driven clock: subscriptions by slot, MAC and all, per-client
/// counters, the 5 s timeout, unplug, and the client limit.
final class DSUServerStateTests: XCTestCase {
    private var state = DSUServerState<String>(serverID: 42)
    private let flat = MotionSample(timestamp: 0, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0, 0, 0))

    override func setUp() {
        state = DSUServerState<String>(serverID: 42)
        for slot in 0..<2 {
            state.setSlot(slot, DSUSlotInfo(slot: UInt8(slot), state: .connected, model: .fullGyro, connection: .usb))
        }
    }

    private func request(_ r: DSURequest, from client: String, at t: Double) -> [DSUDatagram<String>] {
        state.receive(DSUCodec.encode(r, from: 1), from: client, at: t)
    }

    private func sample(slot: Int, at t: Double) -> [DSUDatagram<String>] {
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

    func testClientLimit() {
        state.settings.maxClients = 2
        for name in ["a", "b", "c"] { _ = request(.padData(.allSlots), from: name, at: 0) }
        XCTAssertEqual(state.clients.map(\.endpoint), ["a", "b"])
        XCTAssertEqual(state.counters.tooManyClients, 1)
        XCTAssertEqual(state.counters.clientsSeen, 2)
    }
}

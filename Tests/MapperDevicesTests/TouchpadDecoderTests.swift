import CLinuxInput
import Foundation
import MapperDevices
import MotionDevices
import Testing

/// A touchpad node's multi-touch events (protocol B, two slots) as hid-playstation writes them,
/// decoded from their recorded bytes; the reader on a file of the same bytes.
@Suite("a pad's touchpad node into contacts and its click")
struct TouchpadDecoderTests {
    typealias E = PadEventStream
    typealias Contact = TouchpadDecoder.Contact

    func decode(_ events: [InputEvent]) -> [TouchpadDecoder.State] {
        let bytes = E.bytes(events)
        var decoder = TouchpadDecoder()
        return stride(from: 0, to: bytes.count, by: InputEvent.size).compactMap { decoder.feed(InputEvent(bytes: bytes, at: $0)) }
    }

    @Test("a finger down, a second in slot 1, the first moving, the click, both lifted")
    func twoFingers() {
        let states = decode([
            E.abs(ABS_MT_SLOT, 0), E.abs(ABS_MT_TRACKING_ID, 7), E.abs(ABS_MT_POSITION_X, 100), E.abs(ABS_MT_POSITION_Y, 200),
            E.key(BTN_TOUCH, 1), E.abs(ABS_X, 100), E.abs(ABS_Y, 200), E.syn(),
            E.abs(ABS_MT_SLOT, 1), E.abs(ABS_MT_TRACKING_ID, 8), E.abs(ABS_MT_POSITION_X, 1919), E.abs(ABS_MT_POSITION_Y, 941), E.syn(),
            E.abs(ABS_MT_SLOT, 0), E.abs(ABS_MT_POSITION_X, 150), E.syn(),
            E.key(BTN_LEFT, 1), E.syn(),
            E.syn(),  // nothing changed: no state
            E.key(BTN_LEFT, 0), E.abs(ABS_MT_TRACKING_ID, -1), E.abs(ABS_MT_SLOT, 1), E.abs(ABS_MT_TRACKING_ID, -1), E.syn(),
        ])
        #expect(states == [
            .init(contacts: [Contact(id: 7, x: 100, y: 200)]),
            .init(contacts: [Contact(id: 7, x: 100, y: 200), Contact(id: 8, x: 1919, y: 941)]),
            .init(contacts: [Contact(id: 7, x: 150, y: 200), Contact(id: 8, x: 1919, y: 941)]),
            .init(contacts: [Contact(id: 7, x: 150, y: 200), Contact(id: 8, x: 1919, y: 941)], clicked: true),
            .init(),
        ])
    }

    @Test("after SYN_DROPPED the contacts are forgotten; a slot past the two is ignored")
    func dropped() {
        let states = decode([
            E.abs(ABS_MT_TRACKING_ID, 3), E.abs(ABS_MT_POSITION_X, 5), E.abs(ABS_MT_POSITION_Y, 6), E.syn(),
            E.syn(SYN_DROPPED), E.abs(ABS_MT_POSITION_X, 9), E.syn(),
            E.abs(ABS_MT_SLOT, 5), E.abs(ABS_MT_TRACKING_ID, 4), E.syn(),
        ])
        #expect(states == [.init(contacts: [Contact(id: 3, x: 5, y: 6)]), .init()])
    }

    @Test("the reader delivers each change from a file of recorded events, then no contacts at its end")
    func reader() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("touchpad-\(getpid()).events")
        try Data(E.bytes([E.abs(ABS_MT_TRACKING_ID, 1), E.abs(ABS_MT_POSITION_X, 10), E.abs(ABS_MT_POSITION_Y, 20), E.syn()])).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let reader = try TouchpadReader(path: url.path)
        let seen = Seen()
        reader.start { seen.add($0) }
        let deadline = Date(timeIntervalSinceNow: 5)
        while seen.all.count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        reader.stop()
        #expect(seen.all == [.init(contacts: [Contact(id: 1, x: 10, y: 20)]), .init()])
    }

    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var states: [TouchpadDecoder.State] = []
        func add(_ s: TouchpadDecoder.State) { lock.lock(); states.append(s); lock.unlock() }
        var all: [TouchpadDecoder.State] { lock.lock(); defer { lock.unlock() }; return states }
    }
}

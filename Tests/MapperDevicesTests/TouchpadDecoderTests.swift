import CLinuxInput
import Foundation
#if canImport(Glibc)
import Glibc
#endif
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

    @Test("the touches down when the node opens come from its ioctls: the node sends only changes")
    func touchesHeldAtOpen() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("touchpad-open-\(getpid()).events")
        try Data().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        // A node with two fingers down (ids 4 and 5) and the pad clicked, answering as the kernel does.
        let slots: [Int32: [Int32]] = [ABS_MT_TRACKING_ID: [4, 5], ABS_MT_POSITION_X: [300, 1500], ABS_MT_POSITION_Y: [400, 900]]
        let calls = SystemCalls(open: { path, flags in
            let fd = Glibc.open(path, flags)
            return (fd, fd < 0 ? errno : 0)
        }, ioctl: { _, request, argument in
            if request == clinux_eviocgabs(UInt32(ABS_MT_SLOT)) {
                argument.assumingMemoryBound(to: input_absinfo.self).pointee.value = 1
                return (0, 0)
            }
            if request == clinux_eviocgmtslots(UInt32(3 * MemoryLayout<Int32>.size)) {
                let values = argument.assumingMemoryBound(to: Int32.self)
                guard let column = slots[values[0]] else { return (-1, EINVAL) }
                values[1] = column[0]
                values[2] = column[1]
                return (0, 0)
            }
            if request == clinux_eviocgkey(UInt32((Int(KEY_MAX) + 7) / 8 + 1)) {
                argument.assumingMemoryBound(to: UInt8.self)[Int(BTN_LEFT) / 8] |= 1 << UInt8(BTN_LEFT % 8)
                return (0, 0)
            }
            return (-1, ENOTTY)
        })
        let reader = try TouchpadReader(path: url.path, calls: calls)
        let seen = Seen()
        reader.start { seen.add($0) }
        let deadline = Date(timeIntervalSinceNow: 5)
        while seen.all.count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        reader.stop()
        #expect(seen.all == [.init(contacts: [Contact(id: 4, x: 300, y: 400), Contact(id: 5, x: 1500, y: 900)], clicked: true), .init()])
    }

    @Test("a snapshot's later events refer to its slot")
    func snapshotSlot() {
        var decoder = TouchpadDecoder()
        let loaded = decoder.load(.init(slot: 1, tracking: [-1, 9], x: [0, 50], y: [0, 60], clicked: false))
        #expect(loaded == .init(contacts: [Contact(id: 9, x: 50, y: 60)]))
        let bytes = E.bytes([E.abs(ABS_MT_POSITION_X, 70), E.syn()])
        #expect(decoder.feed(InputEvent(bytes: bytes, at: 0)) == nil)
        #expect(decoder.feed(InputEvent(bytes: bytes, at: InputEvent.size)) == .init(contacts: [Contact(id: 9, x: 70, y: 60)]))
    }

    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var states: [TouchpadDecoder.State] = []
        func add(_ s: TouchpadDecoder.State) { lock.lock(); states.append(s); lock.unlock() }
        var all: [TouchpadDecoder.State] { lock.lock(); defer { lock.unlock() }; return states }
    }
}

import CLinuxInput
import Foundation
import Mapper
import MapperDevices
import MotionDevices
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("the pad controls reader on recorded bytes")
struct PadControlsReaderTests {
    @Test("a file of recorded input_events is read on the reader's thread: each change once, then the end")
    func recording() throws {
        typealias E = PadEventStream
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-pad-\(UUID().uuidString).events")
        defer { try? FileManager.default.removeItem(at: file) }
        let events = [E.key(BTN_EAST, 1, at: 1), E.abs(ABS_RX, 255, at: 1), E.syn(at: 1),
                      E.abs(ABS_RX, 255, at: 2), E.syn(at: 2),
                      E.key(BTN_EAST, 0, at: 3), E.abs(ABS_RX, 0, at: 3), E.syn(at: 3)]
        try Data(E.bytes(events)).write(to: file)
        let reader = try PadControlsReader(path: file.path, options: .init(ranges: PadControlsDecoder.playStationRanges))
        #expect(!reader.isGrabbed)
        let received = Received()
        reader.start { received.append($0) }
        let deadline = Date().addingTimeInterval(5)
        while !received.hasEnded && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        reader.stop()
        #expect(received.events == [
            .controls(PadControls(buttons: PadButtons(.east), rightStick: StickPosition(x: 1, y: 0)), time: 1),
            .controls(PadControls(rightStick: StickPosition(x: -1, y: 0)), time: 3),
            .ended,
        ])
    }

    @Test("a node: its own axis ranges and held keys read at opening and delivered first, grabbed while open and released on stop")
    func node() throws {
        let grabs = GrabLog()
        var calls = SystemCalls(open: { _, flags in
            let fd = Glibc.open("/dev/null", flags)   // reads end at once: the node "goes away" after the first state
            return (fd, fd < 0 ? errno : 0)
        }, ioctl: { _, request, argument in
            if request == clinux_eviocgname(256) {
                let name = Array("Fake Pad".utf8) + [0]
                argument.copyMemory(from: name, byteCount: name.count)
                return (Int32(name.count), 0)
            }
            if request == clinux_eviocgkey(UInt32((Int(KEY_MAX) + 7) / 8 + 1)) {
                let keys = argument.assumingMemoryBound(to: UInt8.self)
                keys[Int(BTN_SOUTH) / 8] |= 1 << UInt8(Int(BTN_SOUTH) % 8)
                return (0, 0)
            }
            for code in [ABS_X, ABS_Y] where request == clinux_eviocgabs(UInt32(code)) {
                var info = input_absinfo()
                info.minimum = -100
                info.maximum = 100
                info.value = code == ABS_X ? 100 : -50
                argument.storeBytes(of: info, as: input_absinfo.self)
                return (0, 0)
            }
            return (0, 0)   // other axes: all zero, as evdev answers for axes the node lacks
        })
        calls.ioctlValue = { _, request, value in
            if request == clinux_eviocgrab() { grabs.append(value) }
            return (0, 0)
        }
        var options = PadControlsReader.Options(grab: true)
        options.calls = calls
        let reader = try PadControlsReader(path: "/dev/input/event21", options: options)
        #expect(reader.nodeName == "Fake Pad" && reader.isGrabbed)
        let received = Received()
        reader.start { received.append($0) }
        let deadline = Date().addingTimeInterval(5)
        while received.events.count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        reader.stop()
        let events = received.events
        #expect(events.first == .controls(PadControls(buttons: PadButtons(.south), leftStick: StickPosition(x: 1, y: 0.5)), time: 0))
        if case .disconnected(let reason)? = events.last { #expect(reason.contains("/dev/input/event21")) } else { Issue.record("\(events)") }
        #expect(grabs.values == [1, 0])
    }

    @Test("a node that is no gamepad (no stick axes) is refused with its path")
    func notAGamepad() throws {
        #expect(throws: DeviceError.self) { try PadControlsReader(path: "/dev/null") }
        #expect(throws: DeviceError.notFound(path: "/nonexistent/event9")) { try PadControlsReader(path: "/nonexistent/event9") }
    }
}

final class GrabLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Int] = []
    func append(_ value: Int) { lock.lock(); list.append(value); lock.unlock() }
    var values: [Int] { lock.lock(); defer { lock.unlock() }; return list }
}

final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [PadControlsReader.Event] = []
    func append(_ event: PadControlsReader.Event) { lock.lock(); list.append(event); lock.unlock() }
    var events: [PadControlsReader.Event] { lock.lock(); defer { lock.unlock() }; return list }
    var hasEnded: Bool { events.last == .ended }
}

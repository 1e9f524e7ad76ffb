import CLinuxInput
import Foundation
import Mapper
import MapperDevices
import MotionDevices
import Testing

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

    @Test("a node that is no gamepad (no stick axes) is refused with its path")
    func notAGamepad() throws {
        #expect(throws: DeviceError.self) { try PadControlsReader(path: "/dev/null") }
        #expect(throws: DeviceError.notFound(path: "/nonexistent/event9")) { try PadControlsReader(path: "/nonexistent/event9") }
    }
}

final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [PadControlsReader.Event] = []
    func append(_ event: PadControlsReader.Event) { lock.lock(); list.append(event); lock.unlock() }
    var events: [PadControlsReader.Event] { lock.lock(); defer { lock.unlock() }; return list }
    var hasEnded: Bool { events.last == .ended }
}

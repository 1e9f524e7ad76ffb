import CLinuxInput
import Mapper
@testable import MapperDevices
import MotionDevices
import Testing

/// input_event records as hid-playstation writes them for a DualShock 4's gamepad node: sticks
/// and triggers 0…255 (y down), the d-pad a hat, face buttons by position.
enum PadEventStream {
    static func key(_ code: Int32, _ value: Int32, at time: Double = 1) -> InputEvent {
        InputEvent(time: time, type: UInt16(EV_KEY), code: UInt16(code), value: value)
    }
    static func abs(_ code: Int32, _ value: Int32, at time: Double = 1) -> InputEvent {
        InputEvent(time: time, type: UInt16(EV_ABS), code: UInt16(code), value: value)
    }
    static func syn(_ code: Int32 = SYN_REPORT, at time: Double = 1) -> InputEvent {
        InputEvent(time: time, type: UInt16(EV_SYN), code: UInt16(code), value: 0)
    }
    /// The recorded bytes of `events`, 24 per event, as read(2) returns them.
    static func bytes(_ events: [InputEvent]) -> [UInt8] { events.flatMap(\.bytes) }
}

@Suite("the physical pad's gamepad node into PadControls")
struct PadControlsDecoderTests {
    typealias E = PadEventStream

    /// Feeds the recorded bytes, decoded back from the kernel's layout, and keeps what each SYN_REPORT gave.
    func decode(_ events: [InputEvent], ranges: [Int32: PadControlsDecoder.AxisRange] = PadControlsDecoder.playStationRanges) -> [PadControls] {
        let bytes = E.bytes(events)
        var decoder = PadControlsDecoder(ranges: ranges)
        return stride(from: 0, to: bytes.count, by: InputEvent.size).compactMap { decoder.feed(InputEvent(bytes: bytes, at: $0)) }
    }

    @Test("buttons by position, sticks scaled by the node's range with y up, triggers 0…1, the hat as d-pad buttons")
    func frame() throws {
        let frames = decode([
            E.key(BTN_SOUTH, 1), E.key(BTN_NORTH, 1), E.key(BTN_TL2, 1), E.key(BTN_MODE, 1),
            E.abs(ABS_X, 255), E.abs(ABS_Y, 0), E.abs(ABS_RX, 0), E.abs(ABS_RY, 255), E.abs(ABS_Z, 255), E.abs(ABS_RZ, 51),
            E.abs(ABS_HAT0X, 1), E.abs(ABS_HAT0Y, -1), E.syn(),
        ])
        let c = try #require(frames.first)
        #expect(c.buttons.buttons == [.south, .north, .leftTrigger, .home, .dpadUp, .dpadRight])
        #expect(c.leftStick == StickPosition(x: 1, y: 1))       // full right, full up (y 0 is the top)
        #expect(c.rightStick == StickPosition(x: -1, y: -1))
        #expect(c.leftTrigger == 1)
        #expect(abs(c.rightTrigger - 0.2) < 1e-12)
    }

    @Test("nothing until SYN_REPORT, nothing for a report that changes nothing, releases undo presses")
    func changesOnly() {
        let frames = decode([
            E.key(BTN_WEST, 1), E.syn(), E.abs(ABS_HAT0Y, 0), E.syn(), E.key(BTN_WEST, 0), E.abs(ABS_HAT0X, -1), E.syn(),
            E.abs(ABS_HAT0X, 0), E.syn(),
        ])
        #expect(frames.map(\.buttons) == [PadButtons(.west), PadButtons(.dpadLeft), []])
    }

    @Test("a stick at rest (128 of 0…255) reads about centre; hid-nintendo's ±32767 and its d-pad buttons read the same way")
    func otherRanges() throws {
        let rest = try #require(decode([E.abs(ABS_X, 128), E.abs(ABS_Y, 128), E.syn()]).first)
        #expect(Swift.abs(rest.leftStick.x) < 0.01 && Swift.abs(rest.leftStick.y) < 0.01)
        let nintendo: [Int32: PadControlsDecoder.AxisRange] = [ABS_X: .init(-32767, 32767), ABS_Y: .init(-32767, 32767)]
        let frames = decode([E.abs(ABS_X, -32767), E.abs(ABS_Y, 16384), E.key(BTN_DPAD_DOWN, 1), E.key(BTN_Z, 1), E.syn()], ranges: nintendo)
        let c = try #require(frames.first)
        #expect(c.leftStick.x == -1 && Swift.abs(c.leftStick.y + 0.5) < 1e-4)
        #expect(c.buttons.buttons == [.capture, .dpadDown])
    }

    @Test("after SYN_DROPPED the partial report is skipped until the node's state is read again")
    func dropped() throws {
        var decoder = PadControlsDecoder(ranges: PadControlsDecoder.playStationRanges)
        for event in [E.key(BTN_EAST, 1), E.syn(SYN_DROPPED), E.abs(ABS_X, 0), E.syn()] {
            let fed = decoder.feed(event)
            #expect(fed == nil)
        }
        #expect(decoder.needsResync)
        let state = decoder.resync(keysHeld: [BTN_EAST, BTN_THUMBR], axisValues: [ABS_X: 0, ABS_Y: 128])
        let resynced = try #require(state)
        #expect(resynced.buttons.buttons == [.east, .rightStick])
        #expect(resynced.leftStick.x == -1)
        #expect(!decoder.needsResync)
    }
}

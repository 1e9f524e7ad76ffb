import CLinuxInput
import Mapper
@testable import MapperDevices
import Motion
import MotionDevices
import Testing

@Suite("one mapper stepped by the motion and the controls")
struct MapperSessionTests {
    /// A session writing to recording sinks, on a clock the test moves.
    struct Rig {
        let mouse = RecordingSink()
        let pad = RecordingSink()
        let clock = ManualClock(now: 100)
        let session: MapperSession

        init(profile: MapperProfile = .default) {
            session = MapperSession(mapper: Mapper(profile: profile),
                                    writer: VirtualDevices(mouse: VirtualMouse(sink: mouse), pad: VirtualGamepad(sink: pad)), clock: clock)
        }
    }

    static func sample(_ t: Double, yaw: Double = 0) -> MotionSample {
        MotionSample(timestamp: t, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0, 0, yaw))
    }

    @Test("a controls change is written at once, without waiting for a motion sample; the same controls again write nothing")
    func controlsAtOnce() {
        let rig = Rig()
        rig.session.feed(controls: PadControls(buttons: PadButtons(.south)))
        #expect(rig.pad.take().map(\.code) == [UInt16(BTN_A), UInt16(SYN_REPORT)])
        rig.session.feed(controls: PadControls(buttons: PadButtons(.south)))
        #expect(rig.pad.batches.isEmpty)
        #expect(rig.session.totals.controlChanges == 1 && rig.session.totals.padEvents == 1)
    }

    @Test("motion samples turn the view with the controls held; a turn moves the mouse, held buttons stay held")
    func samplesWithControls() {
        let rig = Rig()
        rig.session.feed(controls: PadControls(buttons: PadButtons(.east)))
        _ = rig.pad.take()
        rig.session.feed(samples: (0..<100).map { Self.sample(Double($0) * 0.01, yaw: 1) })   // 1 rad/s for 1 s, left
        let totals = rig.session.totals
        #expect(totals.samples == 100)
        let x = rig.mouse.take().filter { $0.code == UInt16(REL_X) && $0.type == UInt16(EV_REL) }.reduce(0) { $0 + Int($1.value) }
        // Default: 1:1 at 40 counts a degree, so 0.99 s at 1 rad/s (the first sample only starts the clock) is
        // about 0.99 × 57.3° × 40 ≈ 2269 counts to the left, less what smoothing still holds.
        #expect(x < -2000 && x > -2300, "REL_X \(x)")
        #expect(totals.mouseCounts >= 2000)
        #expect(rig.pad.batches.isEmpty)
    }

    @Test("unplugged: every virtual button released and the sticks centred")
    func releaseAll() {
        let rig = Rig()
        rig.session.feed(samples: [Self.sample(5)])
        rig.clock.advance(by: 0.25)
        rig.session.feed(controls: PadControls(buttons: PadButtons([.south, .leftShoulder]), leftStick: StickPosition(x: 1, y: 0), leftTrigger: 1))
        _ = rig.pad.take()
        rig.session.releaseAll()
        let released = rig.pad.take().map { [Int32($0.type), Int32($0.code), $0.value] }
        #expect(released == [[EV_KEY, BTN_A, 0], [EV_KEY, BTN_TL, 0], [EV_ABS, ABS_X, 0], [EV_ABS, ABS_Z, 0], [EV_SYN, SYN_REPORT, 0]])
    }

    @Test("a controls change between samples is stepped on the samples' clock: the last sample's time plus what has passed since")
    func controlsTime() {
        var lines: [String] = []
        let clock = ManualClock(now: 100)
        let session = MapperSession(mapper: Mapper(profile: .default), writer: DryRunWriter { lines.append($0) }, clock: clock)
        session.feed(samples: [Self.sample(5)])
        clock.advance(by: 0.25)
        session.feed(controls: PadControls(buttons: PadButtons(.north)))
        #expect(lines == ["5.2500 pad BTN_Y 1"])
    }
}

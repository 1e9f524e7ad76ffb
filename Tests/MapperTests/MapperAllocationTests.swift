import CAllocationCounter
import Foundation
import Mapper
import Motion
import Testing

/// The per-sample path runs at the pad's rate (up to 1 kHz) beside a game: it allocates nothing.
@Suite struct MapperAllocationTests {
    @Test("a step allocates nothing (counted by the malloc hook)",
          .enabled(if: tk_allocation_counter_enabled() != 0, "built without TILTKIT_ALLOCATION_COUNTER=1"))
    func stepDoesNotAllocate() throws {
        // Everything on at once: smoothing, acceleration, flick and aim sticks, remapped buttons.
        let profile = try MapperProfile(toml: """
            min_gyro_sens = 1
            max_gyro_sens = 3
            max_gyro_threshold = 100
            gyro_toggle = "N"
            right_stick_mode = "flick"
            left_stick_mode = "aim"
            [buttons]
            ZR = "mouse_left"
            UP = "wheel_up"
            """, file: "all.toml")
        var mapper = Mapper(profile: profile)
        var pad = PadMotion()
        let samples = pad.rest(0.2) + pad.turn(degreesPerSecond: -3, seconds: 1) + pad.turn(degreesPerSecond: 120, seconds: 1)
        let pressed = PadButtons([.rightTrigger, .dpadUp])
        var controls: [PadControls] = []
        for i in 0..<samples.count {
            let angle = Double(i) / 30
            controls.append(PadControls(buttons: i % 50 < 10 ? pressed : [], leftStick: StickPosition(x: 0.5, y: 0.2),
                                        rightStick: StickPosition(x: sin(angle), y: cos(angle))))
        }
        // Warm up on a copy over the same run: type metadata and one-time statics are made lazily,
        // on whichever thread first needs them (another test's, when tests run in parallel).
        var warm = mapper
        for i in samples.indices {
            _ = warm.step(sample: samples[i], controls: controls[i])
            _ = warm.step(controls: controls[i], time: samples[i].timestamp + 0.001)
        }
        _ = mapper.step(sample: samples[0], controls: controls[0])
        var moved: Int64 = 0
        let before = tk_allocation_count()
        for i in 1..<samples.count {
            let out = mapper.step(sample: samples[i], controls: controls[i])
            moved += Int64(out.mouseX) + Int64(out.wheel)
            moved += Int64(mapper.step(controls: controls[i], time: samples[i].timestamp + 0.001).mouseX)
        }
        let allocations = tk_allocation_count() - before
        #expect(allocations == 0, "\(allocations) allocations in \(2 * samples.count) steps")
        #expect(moved != 0)
    }
}

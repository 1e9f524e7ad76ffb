import Foundation
import Mapper
import Motion
import Testing

/// Broken readings move nothing and do not poison what follows.
@Suite struct BadInputTests {
    @Test func nonFiniteSamplesAndSticksMoveNothing() {
        var profile = MapperProfile.exact(space: .local)
        profile.rightStick.mode = .aim
        var mapper = Mapper(profile: profile)
        var pad = PadMotion()
        _ = mapper.run(pad.rest(0.1))
        let nanRate = MotionSample(timestamp: pad.time + 0.004, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(.nan, 0, 0))
        let nanTime = MotionSample(timestamp: .nan, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0, 0, -1))
        let huge = MotionSample(timestamp: pad.time + 0.008, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0, 0, -1e300))
        for sample in [nanRate, nanTime, huge] {
            let out = mapper.step(sample: sample, controls: PadControls(rightStick: StickPosition(x: .nan, y: .infinity)))
            #expect(out.mouseX == 0 || sample.timestamp == huge.timestamp)
            #expect(out.pad.rightStick == .centre)
        }
        #expect(mapper.step(controls: PadControls(leftStick: StickPosition(x: .nan, y: 0)), time: .nan).pad.leftStick == .centre)
        // Afterwards a real turn still comes out right.
        pad.time += 0.01
        _ = mapper.run(pad.rest(0.1))
        let right = mapper.run(pad.turn(degreesPerSecond: -100, seconds: 0.9))
        #expect(abs(Double(right.x) - 90 * 16_364 / 360) < 0.01 * 90 * 16_364 / 360, "\(right.x)")
    }

    /// A clock that steps back neither undoes a flick nor turns the aim stick backwards.
    @Test func aClockSteppingBackTurnsNothingBack() {
        var profile = MapperProfile.exact()
        profile.rightStick.mode = .flick
        var mapper = Mapper(profile: profile)
        let right = PadControls(rightStick: StickPosition(x: 1, y: 0))
        var total = 0
        for time in [0.0, 0.03, 0.01, 0.05, 0.2, 0.1, 0.3] { total += Int(mapper.step(controls: right, time: time).mouseX) }
        #expect(abs(Double(total) - 90 * 16_364 / 360) <= 1)
    }
}

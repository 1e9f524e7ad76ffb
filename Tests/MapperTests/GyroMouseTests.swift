import Foundation
import Mapper
import Motion
import Testing

/// Gyro to mouse on exact synthetic turns: counts = sensitivity × pad degrees × counts_per_360 / 360,
/// the sub-count remainders, the off/on/toggle buttons, cutoff, acceleration, smoothing, inversion.
@Suite struct GyroMouseTests {
    /// Within 1 % (and a count, the carried remainder).
    func near(_ counts: Int, _ expected: Double) -> Bool {
        abs(Double(counts) - expected) <= max(1, 0.01 * abs(expected))
    }

    @Test(arguments: [(0.5, 16_364.0), (1, 14_400), (2.5, 16_364), (4, 3_600)])
    func countsAreSensitivityTimesTheTurn(sensitivity: Double, countsPer360: Double) {
        for space in [GyroSpace.local, .player, .world] {
            var mapper = Mapper(profile: .exact(sensitivity: sensitivity, countsPer360: countsPer360, space: space))
            var pad = PadMotion()
            _ = mapper.run(pad.rest(0.2))
            // 90° right (clockwise seen from above: negative about world up) at 100 °/s.
            let right = mapper.run(pad.turn(degreesPerSecond: -100, seconds: 0.9))
            let expectedX = sensitivity * 90 * countsPer360 / 360
            #expect(near(right.x, expectedX), "\(space): \(right.x) counts for \(expectedX)")
            #expect(abs(right.y) <= 1)
            // 30° up (top edge raised: positive about the pad's own x): mouse y negative.
            let up = mapper.run(pad.turn(about: pad.attitude.rotate(Vector3(1, 0, 0)), degreesPerSecond: 60, seconds: 0.5))
            #expect(near(-up.y, sensitivity * 30 * countsPer360 / 360), "\(space): \(up.y)")
        }
    }

    /// JoyShockMapper's spelling: counts per degree = REAL_WORLD_CALIBRATION / IN_GAME_SENS.
    @Test func realWorldCalibrationSpelling() throws {
        var profile = try MapperProfile(toml: "real_world_calibration = 40\nin_game_sens = 2\ngyro_sens = 1.5\ngyro_smooth_threshold = 0", file: "jsm.toml")
        #expect(profile.countsPerDegree == 20)
        profile.gyroSpace = .local
        var mapper = Mapper(profile: profile)
        var pad = PadMotion()
        _ = mapper.run(pad.rest(0.1))
        #expect(near(mapper.run(pad.turn(degreesPerSecond: -90, seconds: 1)).x, 1.5 * 90 * 20))
    }

    /// 0.3 count a sample still moves: 2 s at 1 °/s, 250 Hz, 75 counts a degree → 150 counts.
    @Test func subCountRemaindersAreCarried() {
        var mapper = Mapper(profile: .exact(countsPer360: 75 * 360, space: .local))
        var pad = PadMotion()
        _ = mapper.run(pad.rest(0.1))
        var total = 0
        var largest: Int32 = 0
        for sample in pad.turn(degreesPerSecond: -1, seconds: 2) {
            let out = mapper.step(sample: sample, controls: .idle)
            total += Int(out.mouseX)
            largest = max(largest, abs(out.mouseX))
        }
        #expect(abs(total - 150) <= 1)
        #expect(largest == 1)
    }

    @Test func gyroOffHeldMovesNothing() throws {
        var profile = MapperProfile.exact()
        profile.gyroOffButtons = PadButtons(.leftStick)
        var mapper = Mapper(profile: profile)
        var pad = PadMotion()
        _ = mapper.run(pad.rest(0.1))
        let held = PadControls(buttons: PadButtons(.leftStick))
        #expect(mapper.run(pad.turn(degreesPerSecond: -200, seconds: 0.5), controls: held) == MouseTotal())
        #expect(!mapper.gyroEnabled)
        #expect(near(mapper.run(pad.turn(degreesPerSecond: -200, seconds: 0.5)).x, 100 * 16_364 / 360))
        #expect(mapper.gyroEnabled)
    }

    @Test func gyroOnOnlyWhileHeld() {
        var profile = MapperProfile.exact()
        profile.gyroOnButtons = PadButtons(.leftShoulder)
        var mapper = Mapper(profile: profile)
        var pad = PadMotion()
        _ = mapper.run(pad.rest(0.1))
        #expect(mapper.run(pad.turn(degreesPerSecond: -200, seconds: 0.5)) == MouseTotal())
        #expect(!mapper.gyroEnabled)
        let held = PadControls(buttons: PadButtons(.leftShoulder))
        #expect(near(mapper.run(pad.turn(degreesPerSecond: -200, seconds: 0.5), controls: held).x, 100 * 16_364 / 360))
    }

    /// Each press flips; holding the button is one press.
    @Test func toggleFlipsOnEachPress() {
        var profile = MapperProfile.exact()
        profile.gyroToggleButtons = PadButtons(.north)
        var mapper = Mapper(profile: profile)
        let pressed = PadControls(buttons: PadButtons(.north))
        #expect(mapper.gyroEnabled)
        _ = mapper.step(controls: pressed, time: 0)
        _ = mapper.step(controls: pressed, time: 0.1)
        #expect(!mapper.gyroEnabled)
        var pad = PadMotion()
        pad.time = 0.1
        #expect(mapper.run(pad.turn(degreesPerSecond: -200, seconds: 0.5)) == MouseTotal())
        _ = mapper.step(controls: pressed, time: pad.time)
        _ = mapper.step(controls: .idle, time: pad.time)
        #expect(mapper.gyroEnabled)
        #expect(mapper.run(pad.turn(degreesPerSecond: -200, seconds: 0.5)).x > 0)
    }

    /// Below GYRO_CUTOFF_SPEED nothing; well above GYRO_CUTOFF_RECOVERY all of it.
    @Test func cutoffDropsTheSmallestMotions() {
        var profile = MapperProfile.exact(space: .local)
        profile.gyroCutoffSpeed = 1
        profile.gyroCutoffRecovery = 2
        var mapper = Mapper(profile: profile)
        var pad = PadMotion()
        _ = mapper.run(pad.rest(0.1))
        #expect(mapper.run(pad.turn(degreesPerSecond: -0.8, seconds: 2)).x == 0)
        #expect(near(mapper.run(pad.turn(degreesPerSecond: -50, seconds: 1)).x, 50 * 16_364 / 360))
        // Halfway between the two speeds: half of the motion.
        #expect(near(mapper.run(pad.turn(degreesPerSecond: -1.5, seconds: 4)).x, 0.5 * 6 * 16_364 / 360))
    }

    /// MIN_GYRO_SENS below MIN_GYRO_THRESHOLD, MAX_GYRO_SENS above MAX_GYRO_THRESHOLD.
    @Test func accelerationBetweenTwoSpeeds() {
        var profile = MapperProfile.exact(space: .local)
        profile.gyroAcceleration = GyroAcceleration(lowerSensitivity: 1, upperSensitivity: 3, lowerSpeed: 20, upperSpeed: 100)
        var mapper = Mapper(profile: profile)
        var pad = PadMotion()
        _ = mapper.run(pad.rest(0.1))
        #expect(near(mapper.run(pad.turn(degreesPerSecond: -10, seconds: 3)).x, 1 * 30 * 16_364 / 360))
        #expect(near(mapper.run(pad.turn(degreesPerSecond: -200, seconds: 0.45)).x, 3 * 90 * 16_364 / 360))
        #expect(near(mapper.run(pad.turn(degreesPerSecond: -60, seconds: 1)).x, 2 * 60 * 16_364 / 360))
    }

    /// Smoothing (GYRO_SMOOTH_THRESHOLD 5 °/s, the default) leaves a fast turn sample-for-sample as
    /// an unsmoothed mapper gives it, and steadies a slow jitter.
    @Test func smoothingLeavesFastTurnsUntouched() {
        var smoothed = Mapper(profile: { var p = MapperProfile.default; p.gyroSpace = .local; return p }())
        var plain = Mapper(profile: .exact(countsPer360: MapperProfile.defaultCountsPer360, space: .local))
        #expect(smoothed.profile.gyroSmoothThreshold == 5)
        var pad = PadMotion()
        var samples = pad.rest(0.1)
        for i in 0..<20 { samples += pad.turn(degreesPerSecond: i % 2 == 0 ? -40 : -80, seconds: 0.05) }
        for s in samples {
            #expect(smoothed.step(sample: s, controls: .idle) == plain.step(sample: s, controls: .idle))
        }
        // A slow jitter, ±2 °/s about zero at 50 Hz: smoothed, the output barely moves.
        var jitterSmoothed = 0, jitterPlain = 0
        for i in 0..<100 {
            let turn = pad.turn(degreesPerSecond: i % 2 == 0 ? 2 : -2, seconds: 0.02)
            jitterSmoothed += abs(smoothed.run(turn).x)
            jitterPlain += abs(plain.run(turn).x)
        }
        #expect(jitterSmoothed * 3 < jitterPlain, "smoothed \(jitterSmoothed), plain \(jitterPlain)")
    }

    @Test func inversionFlipsEachAxis() {
        var profile = MapperProfile.exact()
        profile.gyroInvertX = true
        profile.gyroInvertY = true
        var mapper = Mapper(profile: profile)
        var pad = PadMotion()
        _ = mapper.run(pad.rest(0.1))
        #expect(mapper.run(pad.turn(degreesPerSecond: -100, seconds: 0.5)).x < -2000)
        #expect(mapper.run(pad.turn(about: pad.attitude.rotate(Vector3(1, 0, 0)), degreesPerSecond: 50, seconds: 0.5)).y > 1000)
    }

    @Test func outputNoneAndStickOutputMoveNoMouse() {
        for output in [GyroOutput.none, .rightStick] {
            var profile = MapperProfile.exact()
            profile.gyroOutput = output
            var mapper = Mapper(profile: profile)
            var pad = PadMotion()
            #expect(mapper.run(pad.rest(0.1) + pad.turn(degreesPerSecond: -100, seconds: 0.5)) == MouseTotal())
        }
    }
}

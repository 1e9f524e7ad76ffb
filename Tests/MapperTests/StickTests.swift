import Foundation
import Mapper
import Motion
import Testing

/// Flick stick, stick aim and gyro-to-stick, driven by controls at a pad's 250 Hz.
@Suite struct StickTests {
    let perDegree = 16_364.0 / 360

    func flickProfile(_ edit: (inout MapperProfile) -> Void = { _ in }) -> MapperProfile {
        var p = MapperProfile.exact()
        p.rightStick.mode = .flick
        edit(&p)
        return p
    }

    /// Holds `stick` on the right stick from `from` for `seconds`; the summed mouse motion.
    func hold(_ mapper: inout Mapper, _ stick: StickPosition, from: Double, seconds: Double) -> MouseTotal {
        var total = MouseTotal()
        for i in 0..<Int(seconds * 250) {
            total.add(mapper.step(controls: PadControls(rightStick: stick), time: from + Double(i) / 250))
        }
        return total
    }

    @Test func flickTurnsByTheSticksAngle() {
        for (stick, degrees) in [(StickPosition(x: 1, y: 0), 90.0), (StickPosition(x: -1, y: 0), -90),
                                 (StickPosition(x: 0.7071, y: 0.7071), 45), (StickPosition(x: 0, y: 1), 0)] {
            var mapper = Mapper(profile: flickProfile())
            let total = hold(&mapper, stick, from: 0, seconds: 0.3)
            #expect(abs(Double(total.x) - degrees * perDegree) <= 1, "\(stick): \(total.x)")
            #expect(total.y == 0)
        }
        // Straight back: 180°, either way round.
        var mapper = Mapper(profile: flickProfile())
        #expect(abs(abs(Double(hold(&mapper, StickPosition(x: 0, y: -1), from: 0, seconds: 0.3).x)) - 180 * perDegree) <= 1)
    }

    /// FLICK_TIME spreads the flick: with 0.1 s, part of it after 0.02 s, all of it by 0.1 s,
    /// nothing after; and the flick completes even when the stick is let go at once.
    @Test func flickIsSpreadOverFlickTime() {
        var mapper = Mapper(profile: flickProfile())
        let early = hold(&mapper, StickPosition(x: 1, y: 0), from: 0, seconds: 0.02)
        #expect(early.x > 0 && Double(early.x) < 0.6 * 90 * perDegree)
        let rest = hold(&mapper, .centre, from: 0.02, seconds: 0.2)
        #expect(abs(Double(early.x + rest.x) - 90 * perDegree) <= 1)
        var slow = Mapper(profile: flickProfile { $0.flickTime = 0.5 })
        #expect(Double(hold(&slow, StickPosition(x: 1, y: 0), from: 0, seconds: 0.1).x) < 0.5 * 90 * perDegree)
    }

    @Test func snapToFourOrEightDirections() {
        let at80 = StickPosition(x: sin(80 * .pi / 180), y: cos(80 * .pi / 180))
        for (mode, strength, expected) in [(FlickSnapMode.none, 1.0, 80.0), (.four, 1, 90), (.four, 0.5, 85), (.eight, 1, 90)] {
            var mapper = Mapper(profile: flickProfile { $0.flickSnapMode = mode; $0.flickSnapStrength = strength })
            let x = Double(hold(&mapper, at80, from: 0, seconds: 0.3).x)
            #expect(abs(x - expected * perDegree) <= 1, "\(mode) \(strength): \(x)")
        }
        let at30 = StickPosition(x: sin(30 * .pi / 180), y: cos(30 * .pi / 180))
        var eight = Mapper(profile: flickProfile { $0.flickSnapMode = .eight })
        #expect(abs(Double(hold(&eight, at30, from: 0, seconds: 0.3).x) - 45 * perDegree) <= 1)
    }

    @Test func flickDeadzoneAngleTreatsNearForwardAsForward() {
        var mapper = Mapper(profile: flickProfile { $0.flickDeadzoneAngle = 15 })
        let at10 = StickPosition(x: sin(10 * .pi / 180), y: cos(10 * .pi / 180))
        #expect(hold(&mapper, at10, from: 0, seconds: 0.3).x == 0)
    }

    /// After the flick, turning the stick turns the view by the same angle: forward-right (45°
    /// flick) then round to straight back, in small steps (smoothed) and large ones; the whole
    /// turn, 180°, arrives by the time the stick is let go.
    @Test func rotationAfterTheFlickFollowsTheStick() {
        for stepDegrees in [0.5, 5.0] {
            var mapper = Mapper(profile: flickProfile())
            var time = 0.0
            var total = MouseTotal()
            var angle = 45.0
            while angle <= 180 {
                let stick = StickPosition(x: sin(angle * .pi / 180), y: cos(angle * .pi / 180))
                total.add(mapper.step(controls: PadControls(rightStick: stick), time: time))
                time += 0.004
                angle += stepDegrees
            }
            let after = hold(&mapper, .centre, from: time, seconds: 0.2)
            total.x += after.x
            let expected = 180 * perDegree
            #expect(abs(Double(total.x) - expected) <= 2, "steps of \(stepDegrees)°: \(total.x) for \(expected)")
        }
    }

    /// STICK_SENS °/s at full deflection, nothing inside the inner deadzone, STICK_POWER's curve.
    @Test func aimModeTurnsAtStickSens() {
        var profile = MapperProfile.exact()
        profile.rightStick.mode = .aim
        profile.rightStick.aimSpeed = 180
        var mapper = Mapper(profile: profile)
        #expect(abs(Double(hold(&mapper, StickPosition(x: 1, y: 0), from: 0, seconds: 1).x) - 180 * perDegree) < 0.01 * 180 * perDegree)
        #expect(hold(&mapper, StickPosition(x: 0.1, y: 0), from: 1, seconds: 1).x == 0)
        // Up, halfway through the live zone (0.15 + 0.375): 90 °/s with power 1, 45 with power 2.
        let up = hold(&mapper, StickPosition(x: 0, y: 0.525), from: 2, seconds: 1)
        #expect(abs(Double(-up.y) - 90 * perDegree) < 0.02 * 90 * perDegree)
        profile.rightStick.aimPower = 2
        mapper.replace(profile: profile)
        let squared = hold(&mapper, StickPosition(x: 0, y: 0.525), from: 3, seconds: 1)
        #expect(abs(Double(-squared.y) - 45 * perDegree) < 0.02 * 45 * perDegree)
        // The physical stick does not reach the virtual pad in aim mode.
        #expect(mapper.step(controls: PadControls(rightStick: StickPosition(x: 1, y: 0)), time: 4).pad.rightStick == .centre)
    }

    func gyroStickProfile(_ edit: (inout StickSettings) -> Void) -> MapperProfile {
        var p = MapperProfile.exact(space: .local)
        p.gyroOutput = .rightStick
        p.stickTurnSpeed = 360
        edit(&p.rightStick)
        return p
    }

    /// The virtual stick's deflection after a steady turn of `degreesPerSecond` (right), with the
    /// physical right stick at `physical`.
    func deflection(_ profile: MapperProfile, degreesPerSecond: Double, physical: StickPosition = .centre) -> StickPosition {
        var mapper = Mapper(profile: profile)
        var pad = PadMotion()
        var last = MapperOutput()
        for s in pad.rest(0.1) + pad.turn(degreesPerSecond: -degreesPerSecond, seconds: 0.2) {
            last = mapper.step(sample: s, controls: PadControls(rightStick: physical))
        }
        return last.pad.rightStick
    }

    @Test func gyroToStickCompensatesTheGamesDeadzonesAndCurve() {
        let linear = gyroStickProfile { $0.gameDeadzoneInner = 0.2 }
        // 90 of 360 °/s is a quarter of the live zone past the game's inner deadzone: 0.2 + 0.25 × 0.8.
        let d = deflection(linear, degreesPerSecond: 90)
        #expect(abs(d.x - 0.4) < 1e-3 && abs(d.y) < 1e-3, "\(d)")
        // A crawl still jumps past the game's deadzone.
        #expect(deflection(linear, degreesPerSecond: 1).x > 0.2)
        // The game's power curve undone: speed ∝ live², so a quarter speed is half the live zone.
        #expect(abs(deflection(gyroStickProfile { $0.gameDeadzoneInner = 0.2; $0.gamePower = 2 }, degreesPerSecond: 90).x - 0.6) < 1e-3)
        // Saturates at the game's outer deadzone when the game cannot turn that fast.
        let outer = gyroStickProfile { $0.gameDeadzoneInner = 0.2; $0.gameDeadzoneOuter = 0.1 }
        #expect(abs(deflection(outer, degreesPerSecond: 720).x - 0.9) < 1e-9)
    }

    /// The physical stick and the gyro add as turn speeds: the stick at 0.6 is 180 °/s through the
    /// game's curve, plus 90 °/s of gyro, is 270 °/s, deflection 0.2 + 0.75 × 0.8.
    @Test func gyroToStickAddsToThePhysicalStick() {
        let profile = gyroStickProfile { $0.gameDeadzoneInner = 0.2 }
        #expect(abs(deflection(profile, degreesPerSecond: 90, physical: StickPosition(x: 0.6, y: 0)).x - 0.8) < 1e-3)
        #expect(abs(deflection(profile, degreesPerSecond: 400, physical: StickPosition(x: 1, y: 0)).x - 1) < 1e-9)
        // The left stick passes through untouched.
        var mapper = Mapper(profile: profile)
        let left = StickPosition(x: -0.3, y: 0.8)
        #expect(mapper.step(controls: PadControls(leftStick: left), time: 0).pad.leftStick == left)
    }
}

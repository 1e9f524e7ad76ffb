import Foundation
import Motion
import Testing

/// GyroAim on synthetic rotations: the three spaces where they differ (GyroWiki, "Player space
/// gyro and alternatives explained"), real-world sensitivity, the acceleration curve, soft
/// tiered smoothing and the ratchet.
@Suite struct GyroAimTests {
    let r = 100 * Double.pi / 180          // 100 deg/s
    let up = Vector3(0, 0, 1)

    /// Gravity and a rotation rate in the body frame of a pad oriented `q` (body → world).
    func body(_ q: Quaternion, worldRate: Vector3) -> (gravity: Vector3, rate: Vector3) {
        (q.inverseRotate(Vector3(0, 0, -1)), q.inverseRotate(worldRate))
    }

    func yaw(_ space: GyroSpace, rate: Vector3, gravity: Vector3) -> Double {
        space.aimRate(rotationRate: rate, gravity: gravity).yaw
    }

    @Test func flatPadTurnSpacesAgree() {
        for space in [GyroSpace.local, .player, .world] {
            let a = space.aimRate(rotationRate: Vector3(0.2, 0, r), gravity: Vector3(0, 0, -1))
            #expect(abs(a.yaw - r) < 1e-12, "\(space)")
            #expect(abs(a.pitch - 0.2) < 1e-12, "\(space)")
        }
    }

    /// Pad pitched up 45° (top edge raised), then turned about world up: world and player yaw
    /// the full turn; local sees only the part about the pad's own z, cos 45°.
    @Test func pitchedPadYawedAboutWorldUp() {
        let q = Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 4)
        let (g, w) = body(q, worldRate: up * r)
        #expect(abs(yaw(.world, rate: w, gravity: g) - r) < 1e-9)
        #expect(abs(yaw(.player, rate: w, gravity: g) - r) < 1e-9)
        #expect(abs(yaw(.local, rate: w, gravity: g) - r * cos(.pi / 4)) < 1e-9)
    }

    /// The same pad turned about its own z: local yaws fully, world only cos 45° of it, and
    /// player relaxes the world yaw by 1.41 (≈ 1/cos 45°) back to about the full turn, never more
    /// than the pad's own yaw-and-roll rate.
    @Test func pitchedPadYawedAboutItsOwnAxis() {
        let q = Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 4)
        let g = q.inverseRotate(Vector3(0, 0, -1))
        let w = Vector3(0, 0, r)
        #expect(abs(yaw(.local, rate: w, gravity: g) - r) < 1e-9)
        #expect(abs(yaw(.world, rate: w, gravity: g) - r * cos(.pi / 4)) < 1e-9)
        #expect(abs(yaw(.player, rate: w, gravity: g) - min(r * cos(.pi / 4) * 1.41, r)) < 1e-9)
        #expect(yaw(.player, rate: w, gravity: g) > 0.99 * r)
    }

    /// Pad rolled 60° (lying on its side partly), turned about world up: world yaws fully;
    /// player ignores the part of gravity along the pad's x (its pitch axis) and is capped by the
    /// pad's yaw-and-roll rate, so it yaws less; local sees cos 60°.
    @Test func rolledPadYawedAboutWorldUp() {
        let roll = Double.pi / 3
        let q = Quaternion(axis: Vector3(0, 1, 0), angle: roll)
        let (g, w) = body(q, worldRate: up * r)
        #expect(abs(yaw(.world, rate: w, gravity: g) - r) < 1e-9)
        #expect(abs(yaw(.local, rate: w, gravity: g) - r * cos(roll)) < 1e-9)
        let expected = min(r * cos(roll) * cos(roll) * 1.41, r * cos(roll))
        #expect(abs(yaw(.player, rate: w, gravity: g) - expected) < 1e-9)
    }

    /// World pitch fades out as the pad points straight up (GamepadMotionHelpers' side reduction).
    @Test func worldPitchFadesNearVertical() {
        // Pad on its long side: gravity along −x, so neither y nor z carries gravity.
        let a = GyroSpace.world.aimRate(rotationRate: Vector3(0, r, 0), gravity: Vector3(-1, 0, 0))
        #expect(a.pitch == 0)
        #expect(abs(a.yaw) < 1e-12)
    }

    func unsmoothed(_ space: GyroSpace = .world, sensitivity: Double = 1) -> GyroAimSettings {
        var s = GyroAimSettings.default
        s.space = space
        s.sensitivity = sensitivity
        s.smoothing = nil
        return s
    }

    @Test func realWorldSensitivityTurnsByThePadsAngle() {
        for sensitivity in [1.0, 2.5] {
            var aim = GyroAim(settings: unsmoothed(sensitivity: sensitivity))
            var yaw = 0.0
            // 90° at 100 deg/s over 0.9 s in 100 Hz samples.
            for _ in 0..<90 { yaw += aim.update(rotationRate: Vector3(0, 0, r), gravity: Vector3(0, 0, -1), dt: 0.01).yaw }
            #expect(abs(yaw - 90 * sensitivity) < 1e-9)
        }
    }

    @Test func accelerationCurveInterpolatesBetweenTwoSpeeds() {
        let curve = GyroAcceleration(lowerSensitivity: 0.5, upperSensitivity: 2, lowerSpeed: 20, upperSpeed: 120)
        #expect(curve.sensitivity(atSpeed: 0) == 0.5)
        #expect(curve.sensitivity(atSpeed: 20) == 0.5)
        #expect(abs(curve.sensitivity(atSpeed: 70) - 1.25) < 1e-12)
        #expect(curve.sensitivity(atSpeed: 120) == 2)
        #expect(curve.sensitivity(atSpeed: 500) == 2)
        var settings = unsmoothed()
        settings.acceleration = curve
        var aim = GyroAim(settings: settings)
        let slow = aim.update(rotationRate: Vector3(0, 0, 10 * .pi / 180), gravity: Vector3(0, 0, -1), dt: 1).yaw
        let fast = aim.update(rotationRate: Vector3(0, 0, 200 * .pi / 180), gravity: Vector3(0, 0, -1), dt: 1).yaw
        #expect(abs(slow - 5) < 1e-9)
        #expect(abs(fast - 400) < 1e-9)
    }

    /// Above the upper threshold the output is the input, sample by sample; below the lower one
    /// it is the window's mean, so a jittery slow motion comes out steady.
    @Test func tieredSmoothingOnlyTouchesSmallMotions() {
        var s = TieredSmoothing(.init(lowerSpeed: 2.5, upperSpeed: 5, window: 0.1))
        let deg = Double.pi / 180
        for i in 0..<50 {
            let fast = AimRate(yaw: (i % 2 == 0 ? 30 : 60) * deg, pitch: 0)
            #expect(abs(s.smooth(fast, dt: 0.01).yaw - fast.yaw) < 1e-12)
        }
        s.reset()
        var outputs: [Double] = []
        for i in 0..<50 {
            let slow = AimRate(yaw: (i % 2 == 0 ? 0.5 : 1.5) * deg, pitch: 0)
            outputs.append(s.smooth(slow, dt: 0.01).yaw / deg)
        }
        // Once the 0.1 s window is full (10 samples): the mean, 1 deg/s, whichever sample came last.
        for o in outputs.suffix(30) { #expect(abs(o - 1) < 1e-9) }
        // Between the thresholds, part direct: weight (3.75 − 2.5) / 2.5 = 0.5.
        #expect(abs(TieredSmoothing.Settings(lowerSpeed: 2.5, upperSpeed: 5).directWeight(atSpeed: 3.75) - 0.5) < 1e-12)
    }

    @Test func ratchetHoldsTheViewWhileGyroIsOff() {
        var aim = GyroAim(settings: unsmoothed())
        let g = Vector3(0, 0, -1), w = Vector3(0.3, 0, r)
        var yaw = 0.0, pitch = 0.0
        for i in 0..<300 {
            let off = (100..<200).contains(i)
            let d = aim.update(rotationRate: w, gravity: g, dt: 0.01, gyroOff: off)
            if off { #expect(d == .zero) }
            yaw += d.yaw
            pitch += d.pitch
        }
        // 200 of 300 samples counted: 2 s at 100 deg/s.
        #expect(abs(yaw - 200) < 1e-9)
        #expect(abs(pitch - 2 * 0.3 * 180 / .pi) < 1e-9)
    }

    @Test func badSamplesTurnNothing() {
        var aim = GyroAim(settings: .default)
        #expect(aim.update(rotationRate: Vector3(.nan, 0, 0), gravity: Vector3(0, 0, -1), dt: 0.01) == .zero)
        #expect(aim.update(rotationRate: Vector3(0, 0, 1), gravity: Vector3(0, 0, -1), dt: -1) == .zero)
    }
}

/// The lean spaces (JoyShockMapper's PLAYER_LEAN and WORLD_LEAN) and the cutoff (GYRO_CUTOFF_SPEED,
/// GYRO_CUTOFF_RECOVERY).
@Suite struct GyroLeanAndCutoffTests {
    let r = 100 * Double.pi / 180

    /// Flat pad leaned right (right side down, +y rate): both lean spaces turn right (negative yaw)
    /// by the lean rate; a flat turn about the face axis leans nothing.
    @Test func leaningRightTurnsRight() {
        for space in [GyroSpace.playerLean, .worldLean] {
            let lean = space.aimRate(rotationRate: Vector3(0, r, 0), gravity: Vector3(0, 0, -1))
            #expect(abs(lean.yaw + r) < 1e-12, "\(space)")
            let turn = space.aimRate(rotationRate: Vector3(0.2, 0, r), gravity: Vector3(0, 0, -1))
            #expect(abs(turn.yaw) < 1e-12, "\(space)")
            #expect(abs(turn.pitch - 0.2) < 1e-12, "\(space)")
        }
    }

    /// Pad held upright like a wheel (top edge up, gravity −y): leaning it right is a clockwise turn
    /// about its face axis (−z rate), and both lean spaces turn right by it.
    @Test func uprightPadLeansAboutItsFaceAxis() {
        for space in [GyroSpace.playerLean, .worldLean] {
            let a = space.aimRate(rotationRate: Vector3(0, 0, -r), gravity: Vector3(0, -1, 0))
            #expect(abs(a.yaw + r) < 1e-12, "\(space)")
        }
    }

    @Test func cutoffDropsSlowAimAndRecoversLinearly() {
        let soft = GyroCutoff(speed: 1, recovery: 3)
        #expect(soft.factor(atSpeed: 0.5) == 0)
        #expect(abs(soft.factor(atSpeed: 2) - 0.5) < 1e-12)
        #expect(soft.factor(atSpeed: 10) == 1)
        let hard = GyroCutoff(speed: 2)
        #expect(hard.factor(atSpeed: 1.9) == 0)
        #expect(hard.factor(atSpeed: 2.1) == 1)
    }
}

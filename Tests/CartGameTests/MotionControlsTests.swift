import Foundation
import Motion
import Testing
@testable import CartGame

/// The talk's mapping on hand-built device motion: lean from split gravity, poses, detectors.
@Suite struct MotionControlsTests {
    func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    /// Gravity of a pad rolled `roll` radians to the right, then tipped about its own lateral
    /// (x) axis by `tip` radians, as a player holding it at any comfortable angle.
    func gravity(roll: Double, tip: Double) -> Vector3 {
        Quaternion(axis: Vector3(1, 0, 0), angle: tip).inverseRotate(Vector3(sin(roll), 0, -cos(roll)))
    }

    @Test func gamepadLeanIsTheRollWhateverTheTip() {
        for tip in [0.0, 0.5, 0.87, -0.4, 1.3] {
            let lean = degrees(LeanAngle.lean(gravity: gravity(roll: 30 * .pi / 180, tip: tip), pose: .gamepad))
            #expect(abs(lean - 30) < 1e-9, "tip \(tip)")
        }
        #expect(LeanAngle.lean(gravity: gravity(roll: -0.5, tip: 0.3), pose: .gamepad) < 0)
        #expect(LeanAngle.lean(gravity: .zero, pose: .gamepad) == 0)
    }

    @Test func landscapeLeanIsTheSteeringWheelAngleEvenTippedBack() {
        // Landscape-left (top edge to the player's left): upright gravity is (−1, 0, 0).
        // Turning the device like a wheel by θ clockwise (right side down) moves gravity to −y·sinθ…
        for tippedBack in [0.0, 0.6, 1.0] {
            for wheel in [-0.7, -0.2, 0.0, 0.4, 0.9] {
                // Wheel about z, then tipped back about the lateral (−y) axis.
                let wheelTurned = Vector3(-cos(wheel), -sin(wheel), 0)
                let tip = Quaternion(axis: Vector3(0, -1, 0), angle: tippedBack)
                let g = tip.inverseRotate(wheelTurned)
                let lean = LeanAngle.lean(gravity: g, pose: .landscapeLeft)
                #expect(abs(lean - wheel) < 1e-9, "tipped back \(tippedBack), wheel \(wheel)")
            }
        }
    }

    @Test func poseDetectedFromGravity() {
        #expect(HoldingPose.detect(gravity: Vector3(-0.98, 0.05, -0.2)) == .landscapeLeft)
        #expect(HoldingPose.detect(gravity: Vector3(0.5, 0.0, -0.87)) == .landscapeRight)  // tipped back 60°
        #expect(HoldingPose.detect(gravity: Vector3(0.02, -0.4, -0.9)) == .gamepad)        // pad in the hands
        #expect(HoldingPose.detect(gravity: Vector3(0.1, -0.99, 0)) == .gamepad)           // portrait phone
        #expect(HoldingPose.detect(gravity: Vector3(.nan, 0, 0)) == .gamepad)
        #expect(HoldingPose(rawValue: "landscape-left") == .landscapeLeft)
    }

    @Test func tippingTheTopTowardThePlayerIsPositiveInEveryPose() {
        // Top edge toward the player: for the pad (top = +y, player along −y… up +z) y turns toward z;
        // for landscape-left the top is +x and the player is along +z, so x turns toward +z.
        func tipRate(_ rotation: Vector3, _ pose: HoldingPose) -> Double {
            GestureSignals.tipRate(DeviceMotion(timestamp: 0, attitude: .identity, rotationRate: rotation,
                                                gravity: Vector3(0, 0, -1), userAcceleration: .zero), pose: pose)
        }
        let yTowardZ = Vector3(1, 0, 0)     // right-hand rule about +x: y → z
        let xTowardZ = Vector3(0, -1, 0)    // about −y: x → z
        let minusXTowardZ = Vector3(0, 1, 0)
        #expect(tipRate(yTowardZ, .gamepad) > 0)
        #expect(tipRate(xTowardZ, .landscapeLeft) > 0)
        #expect(tipRate(minusXTowardZ, .landscapeRight) > 0)
    }

    @Test func downwardPushReadsNegative() {
        // Lying face up, Core Motion reads (0,0,−1) at rest; accelerating down lightens it to −0.5.
        let motion = DeviceMotion(timestamp: 0, attitude: .identity, rotationRate: .zero,
                                  gravity: Vector3(0, 0, -1), userAcceleration: Vector3(0, 0, 0.5))
        #expect(abs(GestureSignals.downwardPush(motion) + 0.5) < 1e-12)
    }

    @Test func detectorFiresOnceOnCrossingThenWaitsOutItsRefractoryTime() {
        var detector = GestureDetector(settings: .init(window: 0.15, threshold: 1.0, refractory: 0.5), sampleInterval: 0.05)
        var fired: [GestureDetector.Firing] = []
        // 0.0–0.2 s quiet, then a long push above threshold, a dip, and a second push 0.3 s later.
        let values: [Double] = [0, 0, 0, 2, 2, 2, 2, 2, 0, 0, 0, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2]
        for (i, v) in values.enumerated() {
            detector.push(v, timestamp: Double(i) * 0.05)
            if let f = detector.poll() { fired.append(f) }
        }
        // Crossings at 0.20 s (mean of 0,2,2), 0.60 s (inside the 0.5 s refractory time: ignored)
        // and 1.15 s; the long push from 0.15 to 0.35 s fires only once.
        let times = fired.map(\.crossingTimestamp)
        #expect(times.count == 2)
        #expect(abs(times[0] - 0.2) < 1e-9 && abs(times[1] - 1.15) < 1e-9)
        #expect(abs(fired[0].mean - 4.0 / 3) < 1e-12)
    }

    @Test func negativeThresholdAndNonFiniteSamples() {
        var detector = GestureDetector(settings: .init(window: 0.02, threshold: -0.3, refractory: 0), sampleInterval: 0.01)
        detector.push(.nan, timestamp: 0)
        detector.push(-0.5, timestamp: 0.01)
        #expect(detector.poll() == nil)  // NaN dropped: buffer not yet full
        detector.push(-0.5, timestamp: 0.02)
        #expect(detector.poll()?.crossingTimestamp == 0.02)
        #expect(detector.poll() == nil)
    }

    @Test func pendingFiringSurvivesUntilTheNextFrameAndResetDropsIt() {
        var detector = GestureDetector(settings: .init(window: 0.01, threshold: 1, refractory: 0), sampleInterval: 0.01)
        detector.push(3, timestamp: 1)
        detector.push(0, timestamp: 1.01)   // back below before the frame: still a jump
        #expect(detector.poll()?.crossingTimestamp == 1)
        detector.push(3, timestamp: 2)
        detector.reset()
        #expect(detector.poll() == nil)
    }

    @Test func gestureWindowsAreSecondsWhateverTheRate() {
        let jump = MotionControlSettings.standard.jump
        #expect(jump.sampleCount(every: 0.01) == 8)    // 100 Hz: the 80 ms window
        #expect(jump.sampleCount(every: 0.02) == 4)    // 50 Hz, the talk's rate
        #expect(jump.sampleCount(every: 1) == 1)
    }

    @Test func ringBufferKeepsTheLatestValues() {
        var ring = RingBuffer(capacity: 3)
        #expect(ring.mean == 0)
        for v in [1.0, 2, 3, 4] { ring.append(v) }
        #expect(ring.isFull)
        #expect(ring.mean == 3)
    }

    @Test func motionControlsCommandCarriesLeanAndGestures() {
        var controls = MotionControls(settings: .init(updateInterval: 0.01,
                                                      jump: .init(window: 0.02, threshold: 1, refractory: 0.5),
                                                      duck: .init(window: 0.02, threshold: -0.2, refractory: 0.5)),
                                      pose: .gamepad)
        let g = Attitude(roll: 0.4, pitch: 0.2, yaw: 0).gravity
        var last: DeviceMotion?
        for i in 0..<4 {
            let m = DeviceMotion(timestamp: Double(i) * 0.01, attitude: .identity, rotationRate: Vector3(2, 0, 0),
                                 gravity: g, userAcceleration: g * -0.4)  // pushed up: not a duck
            controls.push(m)
            last = m
        }
        let frame = controls.frame(latest: last)
        #expect(frame.command.jump)
        #expect(!frame.command.duck)
        #expect(abs(Double(frame.command.lean) - atan2(g.x, (g.y * g.y + g.z * g.z).squareRoot())) < 1e-6)
        #expect(controls.frame(latest: nil).command == .idle)
    }
}

@Suite struct ButtonInputTests {
    @Test func buttonsMixWithMotionAndFireOnThePressOnly() {
        var buttons = ButtonInput()
        buttons.leanAxis = 1
        let motion = CartCommand(lean: 0.2, jump: false, duck: true)
        var command = buttons.mix(with: motion)
        #expect(abs(command.lean - (0.2 + ButtonInput.fullLean)) < 1e-6)
        #expect(command.duck && !command.jump)
        buttons.jumpHeld = true
        command = buttons.mix(with: .idle)
        #expect(command.jump && command.start)   // jump also starts a game from the title
        command = buttons.mix(with: .idle)
        #expect(!command.jump)                   // held: no repeat
        buttons.pauseHeld = true
        #expect(buttons.mix(with: .idle).togglePause)
        #expect(!buttons.mix(with: .idle).togglePause)
        buttons.leanAxis = .nan
        #expect(buttons.mix(with: .idle).lean == 0)
    }
}

/// The fixes for gestures on recordings they were not tuned on (cross-talk between lean, jump and duck), on hand-built motion.
@Suite struct GestureCrossTalkTests {
    func motion(_ t: Double, rotation: Vector3, push: Double = 0) -> DeviceMotion {
        DeviceMotion(timestamp: t, attitude: .identity, rotationRate: rotation,
                     gravity: Vector3(0, 0, -1), userAcceleration: Vector3(0, 0, push))  // push down: negative along gravity
    }

    @Test func aRollWhoseAxisLeansTowardTheTipAxisIsNoJumpButATipIs() {
        var controls = MotionControls(settings: .standard, pose: .gamepad)
        var jumps = 0
        // 2 rad/s about x (tip) under 4 rad/s about y (roll): the tip component alone passes 1.5.
        for i in 0..<30 {
            controls.push(motion(Double(i) * 0.01, rotation: Vector3(2, 4, 0)))
            if controls.frame(latest: nil).jump != nil { jumps += 1 }
        }
        #expect(jumps == 0)
        for i in 30..<60 {
            controls.push(motion(Double(i) * 0.01, rotation: Vector3(3, 0.5, 0)))
            if controls.frame(latest: nil).jump != nil { jumps += 1 }
        }
        #expect(jumps == 1)
    }

    @Test func hysteresisFiresOnceWhileTheMeanWobblesAboutTheThreshold() {
        var detector = GestureDetector(settings: .init(window: 0.01, threshold: 1, refractory: 0, rearm: 0.5), sampleInterval: 0.01)
        var fired = 0
        for (i, v) in [1.2, 0.8, 1.1, 0.9, 1.3, 0.2, 1.2].enumerated() {
            detector.push(v, timestamp: Double(i) * 0.01)
            if detector.poll() != nil { fired += 1 }
        }
        #expect(fired == 2)   // 1.2, then only after falling to 0.2 (below half the threshold)
    }

    @Test func noDuckWhileTheDeviceTurnedWithinTheLastTenthsOfASecond() {
        var controls = MotionControls(settings: .standard, pose: .gamepad)
        var ducks = 0
        // A flip (5 rad/s for 0.2 s), then a jolt along gravity 0.1 s later: the flip's, not a push.
        for i in 0..<20 { controls.push(motion(Double(i) * 0.01, rotation: Vector3(0, 5, 0))) }
        for i in 20..<30 { controls.push(motion(Double(i) * 0.01, rotation: .zero)) }
        for i in 30..<34 {
            controls.push(motion(Double(i) * 0.01, rotation: .zero, push: 0.4))
            if controls.frame(latest: nil).duck != nil { ducks += 1 }
        }
        #expect(ducks == 0)
        for i in 34..<100 { controls.push(motion(Double(i) * 0.01, rotation: .zero)) }
        for i in 100..<104 {
            controls.push(motion(Double(i) * 0.01, rotation: .zero, push: 0.4))
            if controls.frame(latest: nil).duck != nil { ducks += 1 }
        }
        #expect(ducks == 1)   // the same push with the device still
    }

    /// Turning at 1.2 rad/s (a hand's push turns the device 0.5–2 rad/s), a push needs −0.4 g, not −0.2:
    /// BROAD's rolls and tips at that rate read up to −0.38 g along gravity.
    @Test func aTurningDeviceNeedsTwiceThePushToDuck() {
        for (push, expected) in [(0.3, 0), (0.5, 1)] {
            var controls = MotionControls(settings: .standard, pose: .gamepad)
            var ducks = 0
            for i in 0..<40 { controls.push(motion(Double(i) * 0.01, rotation: Vector3(0, 1.2, 0))) }
            for i in 40..<46 {
                controls.push(motion(Double(i) * 0.01, rotation: Vector3(0, 1.2, 0), push: push))
                if controls.frame(latest: nil).duck != nil { ducks += 1 }
            }
            #expect(ducks == expected, "push \(push) g")
        }
    }

    @Test func handTurningTellsAFastTurnFromAStep() {
        var turning = HandTurning(), stepping = HandTurning()
        for i in 0..<500 {
            let t = Double(i) * 0.01, wave = sin(2 * .pi * 2 * t)
            // Turning: 6 rad/s with a 0.2 g jolt; stepping: 2.5 rad/s with 0.6 g jolts.
            turning.push(DeviceMotion(timestamp: t, attitude: .identity, rotationRate: Vector3(6 * wave, 0, 0),
                                      gravity: Vector3(0, 0, -1), userAcceleration: Vector3(0, 0, -0.2 * wave)))
            stepping.push(DeviceMotion(timestamp: t, attitude: .identity, rotationRate: Vector3(2.5 * wave, 0, 0),
                                       gravity: Vector3(0, 0, -1), userAcceleration: Vector3(0, 0, -0.6 * wave)))
        }
        #expect(turning.isTurningInHand && abs(turning.rotationPerJolt - 30) < 3)
        #expect(!stepping.isTurningInHand)
    }
}

import Foundation
import Testing
import TestSupport
@testable import Motion

@Suite("DeviceOrientationDetector")
struct OrientationTests {
    static let degree = Double.pi / 180

    /// Runs gravity vectors through a fresh detector and returns the orientations it changed to.
    static func changes(_ gravities: [Vector3]) -> [DeviceOrientation] {
        var detector = DeviceOrientationDetector()
        return gravities.enumerated().compactMap { i, g in detector.update(gravity: g, timestamp: Double(i))?.orientation }
    }

    @Test("each orientation from a known attitude (any yaw), with UIKit's naming")
    func idealAttitudes() {
        let cases: [(Attitude, DeviceOrientation)] = [
            (Attitude(roll: 0, pitch: 0, yaw: 0.7), .faceUp),
            (Attitude(roll: .pi, pitch: 0, yaw: -1.1), .faceDown),
            (Attitude(roll: 0, pitch: 90 * Self.degree, yaw: 2.0), .portrait),
            (Attitude(roll: 0, pitch: -90 * Self.degree, yaw: 0.3), .portraitUpsideDown),
            (Attitude(roll: 90 * Self.degree, pitch: 0, yaw: -2.5), .landscapeRight),
            (Attitude(roll: -90 * Self.degree, pitch: 0, yaw: 1.4), .landscapeLeft),
        ]
        for (attitude, expected) in cases {
            #expect(Self.changes([attitude.gravity]) == [expected], "\(expected)")
            #expect(expected.idealGravity.map { attitude.gravity.angle(to: $0) < 1e-9 } == true)
        }
    }

    @Test("tipping up from flat changes at 35° of tilt and back at 25° (hysteresis)")
    func flatHysteresis() {
        var detector = DeviceOrientationDetector()
        var events: [(Double, DeviceOrientation)] = []
        let up = (0..<90).map { Double($0) + 0.5 }, down = Array(up.reversed())  // half degrees: off the limits
        for (step, pitch) in (up + down).enumerated() {
            let g = Attitude(roll: 0, pitch: pitch * Self.degree, yaw: 0).gravity
            if let change = detector.update(gravity: g, timestamp: Double(step)) { events.append((pitch, change.orientation)) }
        }
        #expect(events.map(\.1) == [.faceUp, .portrait, .faceUp])
        #expect(events.map(\.0) == [0.5, 35.5, 24.5])
    }

    @Test("rotating an upright device changes at 55° and back at 35° (10° past the 45° edge)")
    func uprightHysteresis() {
        func upright(_ rollDegrees: Int) -> Vector3 {
            let r = Double(rollDegrees) * Self.degree
            return Vector3(sin(r), -cos(r), 0)  // screen vertical, turned in its own plane
        }
        var detector = DeviceOrientationDetector()
        var events: [(Int, DeviceOrientation)] = []
        for roll in Array(0...90) + Array((0...89).reversed()) {
            if let c = detector.update(gravity: upright(roll), timestamp: 0) { events.append((roll, c.orientation)) }
        }
        #expect(events.map(\.1) == [.portrait, .landscapeRight, .portrait])
        #expect(events.map(\.0) == [0, 56, 34])
    }

    @Test("noise around a boundary gives one change, not flicker; bad gravity is ignored")
    func noFlicker() {
        var random = SplitMix64(seed: 7)
        var gravities: [Vector3] = [Vector3(0, -1, 0)]
        for _ in 0..<500 {
            let r = (45 + 8 * (2 * random.nextUnit() - 1)) * Self.degree  // 37°…53° around the edge
            gravities.append(Vector3(sin(r), -cos(r), 0))
        }
        gravities += [Vector3(.nan, 0, 0), .zero, Vector3(0, 0, .infinity)]
        #expect(Self.changes(gravities) == [.portrait])
    }

    /// Orientation changes of the x-io trace with the given estimator feeding gravity.
    static func xioChanges(_ kind: DeviceMotionEstimatorKind) throws -> [DeviceOrientationDetector.Change] {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
        var estimator = kind.make(frame: .xArbitraryZVertical)
        var detector = DeviceOrientationDetector()
        return trace.samples.compactMap { sample in estimator.update(sample).flatMap { detector.update($0) } }
    }

    @Test("real trace (x-io), fused: pitch ±60° gives portrait and upside down, roll ±60° both landscapes")
    func realTraceFused() throws {
        let changes = try Self.xioChanges(.fusion)
        print("x-io orientation changes (fusion):", changes.map { "\(String(format: "%.1f", $0.timestamp)) \($0.orientation)" })
        // The board starts flat, face up; pitch 15–25 s, roll 30–40 s; back to flat after each.
        #expect(changes.map(\.orientation) == [.faceUp, .portrait, .faceUp, .portraitUpsideDown, .faceUp,
                                               .landscapeRight, .faceUp, .landscapeLeft, .faceUp])
        #expect(changes.dropFirst().allSatisfy { $0.timestamp > 15 && $0.timestamp < 41 })
    }

    @Test("real trace (x-io), 65–71 s: a flat spin at 3.5 rad/s fools the accelerometer-only estimate, not fusion")
    func realTraceSpin() throws {
        // In 65–71 s the gyro reads ≈3.5 rad/s about z only (the board is flat) while the accelerometer
        // adds ≈0.8 g of centripetal acceleration along −x, which a low-pass takes for a 40° roll.
        let fused = try Self.xioChanges(.fusion), lowPassed = try Self.xioChanges(.accelerometer)
        print("x-io orientation changes (accelerometer only):",
              lowPassed.map { "\(String(format: "%.1f", $0.timestamp)) \($0.orientation)" })
        #expect(!fused.contains { $0.timestamp > 45 }, "fusion: flat from 45 s on (yaw spins, knocks, still)")
        #expect(lowPassed.contains { $0.timestamp > 65 && $0.timestamp < 72 && $0.orientation == .landscapeLeft })
    }
}

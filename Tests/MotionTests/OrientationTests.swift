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

    @Test("real trace (x-io): pitch ±60° and roll ±60° give portrait and landscape; the 40° roll passes the 35° exit")
    func realTrace() throws {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
        var estimator = DeviceMotionEstimatorKind.fusion.make(frame: .xArbitraryZVertical)
        var detector = DeviceOrientationDetector()
        var changes: [DeviceOrientationDetector.Change] = []
        for sample in trace.samples {
            if let motion = estimator.update(sample) {
                if motion.timestamp > 60 && motion.timestamp < 76 && Int(motion.timestamp * 100) % 50 == 0 { print("t", motion.timestamp, motion.gravity.angle(to: Vector3(0,0,-1)) * 180 / .pi) }
                if let change = detector.update(motion) { changes.append(change) }
            }
        }
        let sequence = changes.map(\.orientation)
        print("x-io orientation changes:", changes.map { "\(String(format: "%.1f", $0.timestamp)) \($0.orientation)" })
        // From the trace's own description (still, pitch ±60°, roll ±60°, yaw spins, yaw with 40° roll,
        // knocks, still) and the gravity it records: the board starts flat, face up.
        #expect(sequence == [.faceUp, .portrait, .faceUp, .portraitUpsideDown, .faceUp, .landscapeRight, .faceUp,
                             .landscapeLeft, .faceUp, .landscapeLeft, .faceUp])
        // Yaw spins (45–60 s) and knocks (≈81 s, ≈101 s) change nothing.
        #expect(!changes.contains { $0.timestamp > 45 && $0.timestamp < 60 })
        #expect(!changes.contains { $0.timestamp > 75 })
    }
}

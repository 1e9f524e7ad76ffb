import CartGame
import Foundation
import Motion
import Testing
import TestSupport
@testable import Demo

/// The live game's motion path (a real `MotionManager` pushing to the gesture buffers and
/// pulled for the lean, stepped by frames) against the headless replay's: on x-io's real
/// recording both see the same gestures on the same frames and the same leans.
@Suite struct BadgerManagerPathTests {
    @Test func managerPathMatchesTheHeadlessReplay() throws {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
        let headless = HeadlessReplay.run(samples: trace.samples, options: .init(seed: 1))
        var expected: [String] = []
        var expectedLeans: [Int: Double] = [:]
        for event in headless.events {
            switch event {
            case .gesture(let t, let kind, _, _): expected.append("\(kind.rawValue)@\(Int((t * 60).rounded()))")
            case .lean(let t, let degrees): expectedLeans[Int((t * 60).rounded())] = degrees
            case .device: break
            }
        }

        let motion = BadgerMotionInput(steppedReplay: FrameSteppedReplay(trace: trace, loop: false),
                                       settings: .standard, pose: nil)
        try motion.start()
        defer { motion.stop() }
        var seen: [String] = []
        var worstLeanDifference = 0.0
        for frame in 0..<headless.frames {
            motion.advance(toFrameTime: Double(frame) / 60)
            guard let f = motion.frame() else { continue }
            if f.jump != nil { seen.append("jump@\(frame)") }
            if f.duck != nil { seen.append("duck@\(frame)") }
            if let lean = f.lean, let reference = expectedLeans[frame] {
                worstLeanDifference = max(worstLeanDifference, abs(lean * 180 / .pi - reference))
            }
        }
        #expect(!expected.isEmpty)
        #expect(seen == expected)
        #expect(worstLeanDifference < 0.06)  // the JSON lines carry 0.1° resolution
    }
}

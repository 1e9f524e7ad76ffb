import Foundation
import Motion
import TestSupport
import Testing
@testable import Demo

/// The compare view's pure state, stepped through the bundled recordings as the headless teapot does.
@Suite struct TeapotComparisonTests {
    /// Steps `trace` from `start` for `seconds` at 60 frames a second, like `teapot --headless --compare`.
    static func run(_ path: String, mode: TeapotMode, start: Double, seconds: Double) throws -> TeapotState {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/\(path)"))
        let input = SceneMotionInput(steppedReplay: SteppedReplaySource(trace: trace), startTime: start)
        var state = TeapotState(mode: mode, compare: true)
        let feed = ComparisonFeed()
        try state.startInput(input, feed: feed)
        defer { input.stop() }
        for frame in 0..<Int(seconds * 60) {
            input.advance(toFrameTime: Double(frame) / 60)
            state.update(received: input.pull(), comparing: feed.latest, now: input.now(), dt: 1.0 / 60)
        }
        return state
    }

    @Test func theFlatSpinTurnsTheTwoTeapotsApartAndTheStripSaysBy() throws {
        let state = try Self.run("xio/sensor_data.csv", mode: .fusion, start: 63.5, seconds: 4)
        let c = state.comparison
        #expect(c.strip.count == TeapotState.graphCapacity)
        let apart = try #require(c.strip.last).separation
        #expect(apart > 25, "\(apart)°")
        // Both from the same sample, and the right-hand one has no yaw.
        #expect(c.latest?.fusion.timestamp == c.latest?.accelerometerOnly.timestamp)
        #expect(c.accelerometerOnlyAttitude.yaw == 0 && abs(c.fusionAttitude.yaw) > 0.01)
        #expect(state.comparisonViewMatrix(fusion: true) != state.comparisonViewMatrix(fusion: false))
        #expect(TeapotComparisonHUD.legend(c).last?.0 == "deg (no reference in this source)")
        #expect(c.stripRange == 90)
    }

    @Test func withGroundTruthTheStripShowsEachOnesError() throws {
        let state = try Self.run("broad/01_undisturbed_slow_rotation_A_26-61s.csv", mode: .fusion, start: 14, seconds: 4)
        let errors = state.comparison.strip.compactMap { p in p.fusionError.map { ($0, p.accelerometerOnlyError!) } }
        #expect(errors.count > 200)
        let fusionMean = errors.map(\.0).reduce(0, +) / Double(errors.count)
        let accelMean = errors.map(\.1).reduce(0, +) / Double(errors.count)
        #expect(fusionMean < 2 && accelMean > 5 * fusionMean, "fusion \(fusionMean)°, accelerometer-only \(accelMean)°")
        #expect(TeapotComparisonHUD.legend(state.comparison).map(\.0).contains { $0.hasPrefix("fusion err") })
    }

    @Test func translationMovesEachTeapotByItsOwnUserAcceleration() throws {
        // The knock at 81.06 s: fusion's user acceleration and the high-passed accelerometer differ.
        let state = try Self.run("xio/sensor_data.csv", mode: .translation, start: 80.5, seconds: 1)
        let f = state.comparison.fusionSpring.offset, a = state.comparison.accelerometerOnlySpring.offset
        #expect(f.length > 0.01 && a.length > 0.01)
        #expect((f - a).length > 0.001)
        #expect(state.comparisonModelMatrix(fusion: true) != state.comparisonModelMatrix(fusion: false))
        #expect(TeapotComparisonHUD.labels(state).accelerometerOnly.hasPrefix("ACCEL ONLY: high-passed accelerometer"))
    }

    @Test func compareIsRefusedWithoutAGyroAndSaysWhy() {
        var state = TeapotState(mode: .accel, fusionAvailable: false, compare: true)
        #expect(!state.compare && state.notice == TeapotMode.compareNeedsGyro)
        state.apply(.toggleCompare)
        #expect(!state.compare)
        var withGyro = TeapotState()
        withGyro.apply(try! #require(TeapotCommand.command(for: .character("b"))))
        #expect(withGyro.compare)
    }
}

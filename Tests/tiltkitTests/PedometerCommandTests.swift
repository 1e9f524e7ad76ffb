import Foundation
import Motion
import Testing
import TestSupport

/// The `tiltkit` command run as a user runs it. In a target of its own: Foundation's `Process` keeps
/// a weak reference's side table to exit, which the leak checker run on the Motion tests would report.

@Suite("tiltkit pedometer, the command")
struct PedometerCommandTests {
    /// The built `tiltkit` beside the test bundle (`swift build --build-tests` builds both).
    static var executable: URL? {
        if let built = ChildProcess.builtProduct("tiltkit") { return built }
        let debug = TestData.repositoryRoot.appendingPathComponent(".build/debug/tiltkit")
        return FileManager.default.isExecutableFile(atPath: debug.path) ? debug : nil
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, out: Data, err: String) {
        try ChildProcess.run(try #require(executable, "tiltkit is not built beside the tests"), arguments)
    }

    @Test("--json --truth prints exactly the documented keys, the count and its error against the trace's truth",
          .enabled(if: executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func jsonKeys() throws {
        _ = try #require(Self.executable, "tiltkit is not built beside the tests")
        let file = OxfordTraces.url("user2_hand").path
        let result = try Self.run(["pedometer", file, "--json", "--truth"])
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.out) as? [String: Any])
        #expect(Set(object.keys) == ["steps", "distance_m", "cadence_steps_per_s", "pace_s_per_m", "floors_ascended",
                                     "floors_descended", "steps_truth", "error_percent"])
        let steps = try #require(object["steps"] as? Int)
        #expect(steps == OxfordTraces.count(try OxfordTraces.trace("user2_hand").samples).data().numberOfSteps)
        #expect(object["steps_truth"] as? Int == (try OxfordTraces.truth("user2_hand")))
        #expect(object["floors_ascended"] is NSNull)

        let plain = try Self.run(["pedometer", file, "--json", "--step-length", "0.7"])
        let fixed = try #require(try JSONSerialization.jsonObject(with: plain.out) as? [String: Any])
        #expect(Set(fixed.keys).count == 6)
        #expect(abs((fixed["distance_m"] as? Double ?? 0) - 0.7 * Double(steps)) < 1e-6)

        let missing = try Self.run(["pedometer", "/nonexistent/trace.csv"])
        #expect(missing.status != 0 && missing.err.contains("/nonexistent/trace.csv"))
    }
}

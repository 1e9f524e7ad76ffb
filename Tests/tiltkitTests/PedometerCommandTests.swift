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

    @Test("bench pedometer --json prints exactly the documented keys, the count and its error against the trace's truth",
          .enabled(if: executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func jsonKeys() throws {
        _ = try #require(Self.executable, "tiltkit is not built beside the tests")
        let file = OxfordTraces.url("user2_hand").path
        let result = try Self.run(["bench", "pedometer", file, "--json"])
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

        let counted = try #require(try JSONSerialization.jsonObject(with: try Self.run(["pedometer", file, "--json"]).out) as? [String: Any])
        #expect(counted["steps"] as? Int == steps && counted["steps_truth"] == nil, "tiltkit pedometer counts; the truth is the bench's")
    }

    @Test("the evaluation flags moved to tiltkit bench: the old invocations fail with one line naming the new command",
          .enabled(if: executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func movedFlagsNameTheirCommand() throws {
        _ = try #require(Self.executable, "tiltkit is not built beside the tests")
        let file = OxfordTraces.url("user2_hand").path
        for (arguments, message) in [
            (["pedometer", file, "--truth"], "tiltkit pedometer: --truth moved: tiltkit bench pedometer"),
            (["pedometer", "--data", "/tmp"], "tiltkit pedometer: --data moved: tiltkit bench pedometer"),
            (["activity", "--confusion", "/tmp", "--joined"], "tiltkit activity: --confusion moved: tiltkit bench activity"),
            (["activity", file, "--live"], "tiltkit activity: --live moved: tiltkit bench activity"),
        ] {
            let result = try Self.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.err.hasPrefix(message), "\(arguments): \(result.err)")
            #expect(result.err.split(separator: "\n").count == 1, "\(arguments): \(result.err)")
        }
    }

    @Test("floors_ascended counts the floors walked up the stairs, not those ridden in the lift after",
          .enabled(if: executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func floorsWalkedNotRidden() throws {
        _ = try #require(Self.executable, "tiltkit is not built beside the tests")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-floors-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try Trace(samples: try FloorProfiles.stairsThenLift(), metadata: TraceMetadata(source: "stairs, then a lift")).write(to: file)
        let result = try Self.run(["pedometer", file.path, "--json"])
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.out) as? [String: Any])
        #expect(object["floors_ascended"] as? Int == 2)
        #expect(object["floors_descended"] as? Int == 0)
    }

    @Test("bench pedometer --data counts against the foot sensor's log with its bounces out and its missed landings in, stats.csv's count beside it",
          .enabled(if: executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func optimisationTruthFromTheFootLog() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-oxford-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let walk = root.appendingPathComponent("data/Phone_User_Hard_InHand_1")
        try FileManager.default.createDirectory(at: walk, withIntermediateDirectories: true)
        // 60 landings; stats.js's way (every rise) gives 60 − 2 missed + 3 bounces = 61.
        try OxfordFootLog.text(landings: 60, bounces: [10, 20, 30], missed: [15, 41])
            .write(to: walk.appendingPathComponent("stepcounter.csv"), atomically: true, encoding: .utf8)
        try "#dir, user, phone, position, surface, duration(s), steps\nPhone_User_Hard_InHand_1, User, Phone, InHand, Hard, 30, 61\n"
            .write(to: root.appendingPathComponent("stats.csv"), atomically: true, encoding: .utf8)
        // Any walk will do for the accelerometer: the bundled one, as the dataset writes it (ns, m/s², Android's sign).
        let samples = try OxfordTraces.trace("user2_hand").samples.prefix(3000)
        let accelerometer = samples.map { s in
            let a = s.acceleration * -9.80665
            return "\(Int64(s.timestamp * 1e9) + 1_000_000_000),3,\(a.x),\(a.y),\(a.z)"
        }.joined(separator: "\n") + "\n"
        try accelerometer.write(to: walk.appendingPathComponent("accelerometer.csv"), atomically: true, encoding: .utf8)

        let result = try Self.run(["bench", "pedometer", "--data", root.path, "--json"])
        #expect(result.status == 0, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.out) as? [String: Any])
        #expect(object["steps_truth"] as? Int == 60)
        #expect(object["steps_truth_stats_csv"] as? Int == 61)
        let steps = try #require(object["steps"] as? Int)
        #expect(steps == OxfordTraces.count(Array(samples)).data().numberOfSteps && steps > 20)
        let error = try #require(object["error_percent_stats_csv"] as? Double)
        #expect(abs(error - 100 * Double(steps - 61) / 61) < 1e-9)
    }
}

import Foundation
import Testing
import TestSupport

@Suite("tiltkit bench latency|pull --source, the command")
struct BenchSourceCommandTests {
    @Test("on two replayed traces side by side: JSON with intervals, drops, ages and the pull's cost; both charts; bad input refused",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI,
                   "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func replayedTrace() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-bench-source-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv").path
        let broad = TestData.assets.appendingPathComponent("traces/broad/01_undisturbed_slow_rotation_A_26-61s.csv").path
        let result = try PedometerCommandTests.run(["bench", "pull", "--source", trace, "--source", broad, "--duration", "1",
                                                    "--frame-rate", "60", "--frame-rate", "144", "--json", "--plot", directory.path])
        #expect(result.status == 0, "\(result.err)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.out) as? [String: Any])
        #expect(document["bench"] as? String == "pull")
        let reports = try #require((document["report"] as? [String: Any])?["reports"] as? [[String: Any]])
        #expect(reports.count == 2, "one report per --source")
        let report = reports.first
        let byTimestamp = try #require(report?["byTimestamp"] as? [String: Any])
        #expect(byTimestamp["clock"] as? String == "trace time")
        #expect((byTimestamp["samples"] as? Int ?? 0) > 50)
        #expect(byTimestamp["drops"] as? Int == 0)
        let period = try #require(byTimestamp["period"] as? Double)
        #expect(abs(period - 10.08e6) < 0.1e6, "x-io's trace is sampled every 10.08 ms")
        let frames = try #require(report?["frames"] as? [[String: Any]])
        #expect(frames.compactMap { $0["frameRate"] as? Double } == [60, 144])
        #expect(report?["pullCost"] != nil)
        // BROAD's optical-truth recording runs at 285.7 Hz: 3.5 ms.
        let broadPeriod = try #require((reports.last?["byTimestamp"] as? [String: Any])?["period"] as? Double)
        #expect(abs(broadPeriod - 3.5e6) < 0.1e6, "\(broadPeriod)")
        for file in ["source-intervals.svg", "source-age.svg"] {
            #expect(try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8).contains("<polyline"))
        }

        let missing = try PedometerCommandTests.run(["bench", "latency", "--source", "/nonexistent/trace.csv", "--duration", "1"])
        #expect(missing.status != 0 && missing.err.contains("--source /nonexistent/trace.csv"), "\(missing.err)")
        let lonely = try PedometerCommandTests.run(["bench", "latency", "--compare-paths"])
        #expect(lonely.status != 0 && lonely.err.contains("--compare-paths needs --source"), "\(lonely.err)")
        let negative = try PedometerCommandTests.run(["bench", "pull", "--source", trace, "--duration", "-1"])
        #expect(negative.status != 0 && negative.err.contains("--duration"), "\(negative.err)")
    }

    @Test("the teapot's --log writes a line per frame with its frame time and sample age",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI,
                   "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func teapotLog() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-frame-log-\(getpid()).csv")
        defer { try? FileManager.default.removeItem(at: log) }
        var environment = ProcessInfo.processInfo.environment
        environment["SDL_VIDEODRIVER"] = "offscreen"
        let result = try ChildProcess.run(try #require(PedometerCommandTests.executable),
                                          ["teapot", "--headless", "--frames", "12", "--size", "160x120", "--log", log.path],
                                          environment: environment)
        guard result.status == 0 else {
            // No OpenGL context here (the frame bench skips the same way): the log is not reachable.
            #expect(!TestData.isCI, "teapot failed under CI: \(result.err)")
            print("teapot --log not checked: \(result.err)")
            return
        }
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "frame,time_s,frame_time_ms,sample_age_ms")
        #expect(lines.count == 13, "\(lines.count) lines")
        let last = lines.last!.split(separator: ",", omittingEmptySubsequences: false)
        #expect(last.count == 4 && last[0] == "11")
        #expect(Double(last[2]).map { $0 > 0 } == true, "frame time: \(last)")
        #expect(Double(last[3]).map { $0 >= 0 } == true, "sample age: \(last)")
    }
}

import Foundation
import Testing
import TestSupport

@Suite("tiltkit compare, the command")
struct CompareCommandTests {
    @Test("prints a row per estimator and writes the two plots; a gyro-less recording is refused with the reason",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI,
                   "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func tableAndPlots() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-compare-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = TestData.assets.appendingPathComponent("traces/broad/01_undisturbed_slow_rotation_A_26-61s.csv").path
        let result = try PedometerCommandTests.run(["compare", trace, "--cutoffs", "1,4", "--plot", directory.path])
        #expect(result.status == 0, "\(result.err)")
        let lines = String(decoding: result.out, as: UTF8.self).split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("fusion ") } && lines.contains { $0.hasPrefix("accel 1 Hz") }
                && lines.contains { $0.hasPrefix("accel 4 Hz") })
        for suffix in ["error", "lag-jitter"] {
            let svg = directory.appendingPathComponent("compare-01_undisturbed_slow_rotation_A_26-61s-\(suffix).svg")
            #expect(try String(contentsOf: svg, encoding: .utf8).contains("<polyline"))
        }

        let gyroless = TestData.assets.appendingPathComponent("traces/oxford-steps/user1_hand.csv").path
        let refused = try PedometerCommandTests.run(["compare", gyroless])
        #expect(refused.status != 0 && refused.err.contains("has no gyro"), "\(refused.err)")
        let nonsense = try PedometerCommandTests.run(["compare", trace, "--cutoffs", "0,x"])
        #expect(nonsense.status != 0 && nonsense.err.contains("--cutoffs"), "\(nonsense.err)")
    }
}

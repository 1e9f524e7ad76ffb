import Foundation
import Testing
import TestSupport

@Suite("tiltkit fuse, the command")
struct FuseCommandTests {
    /// Rows of a `fuse` output: (qw, qx, qy, qz, |rotation rate|).
    static func rows(_ url: URL) throws -> [(q: [Double], rate: Double)] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().compactMap { line in
            let v = line.split(separator: ",").compactMap { Double($0) }
            guard v.count == 18 else { return nil }
            return (Array(v[1...4]), (v[14] * v[14] + v[15] * v[15] + v[16] * v[16]).squareRoot())
        }
    }

    @Test("--gyro-delay turns each output on by rate × delay; a negative delay is refused",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI,
                   "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func gyroDelay() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-fuse-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = TestData.assets.appendingPathComponent("traces/broad/01_undisturbed_slow_rotation_A_26-61s.csv").path
        let plain = directory.appendingPathComponent("plain.csv"), late = directory.appendingPathComponent("late.csv")
        for (out, extra) in [(plain, [String]()), (late, ["--gyro-delay", "2.1"])] {
            let result = try PedometerCommandTests.run(["fuse", trace, "--out", out.path] + extra)
            #expect(result.status == 0, "\(result.err)")
        }
        let a = try Self.rows(plain), b = try Self.rows(late)
        #expect(a.count == b.count && a.count > 5_000)
        var checked = 0
        for (x, y) in zip(a, b) where x.rate > 1 {
            let dot = abs(zip(x.q, y.q).map(*).reduce(0, +))
            let angle = 2 * acos(min(1, dot))
            #expect(abs(angle - x.rate * 0.0021) < 0.1 * x.rate * 0.0021, "turned \(angle) rad at \(x.rate) rad/s")
            checked += 1
        }
        #expect(checked > 100, "only \(checked) samples turn faster than 1 rad/s")
        let refused = try PedometerCommandTests.run(["fuse", trace, "--out", plain.path, "--gyro-delay", "-1"])
        #expect(refused.status != 0 && refused.err.contains("--gyro-delay"), "\(refused.err)")
    }
}

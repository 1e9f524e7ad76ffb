import Foundation
import Testing
import TestSupport
@testable import Motion

/// Every recording in the project's shared data (`../shared/data/traces`, not in the repository)
/// loads, and reads as real motion should: gravity dominates the acceleration.
@Suite struct TraceSharedDataTests {
    @Test(.needsSharedData("traces")) func everySharedRecordingLoads() throws {
        let folder = try TestData.requireSharedData("traces")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(files.count >= 18)
        for file in files {
            let trace = try Trace.load(contentsOf: folder.appendingPathComponent(file))
            #expect(trace.samples.count > 500, "\(file)")
            #expect(trace.duration > 5, "\(file)")
            // Median |a|: 1 g within 5 % in the mostly still recordings (sitting, standing, balance,
            // resting hand, the x-io board); walking, stairs and jogging add bumps of up to 3–4 g.
            let magnitudes = trace.samples.map(\.acceleration.length).sorted()
            let median = magnitudes[magnitudes.count / 2]
            let mostlyStill = ["sit_", "std_", "balance", "rest_tremor", "xio/"].contains { file.contains($0) }
            let range = mostlyStill ? 0.95...1.05 : 0.9...1.8
            #expect(range.contains(median), "\(file): median |a| \(median) g")
        }
    }
}

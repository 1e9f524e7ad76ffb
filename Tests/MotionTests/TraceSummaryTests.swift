import Foundation
import Testing
@testable import Motion

@Suite struct TraceSummaryTests {
    @Test func findsAGapCutIntoARealRecording() throws {
        var trace = try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance)
        #expect(TraceSummary(trace).gaps.isEmpty)
        let before = trace.samples[999], after = trace.samples[1200]
        trace.samples.removeSubrange(1000..<1200)  // 2 s of silence
        let summary = TraceSummary(trace)
        try #require(summary.gaps.count == 1)
        let gap = summary.gaps[0]
        #expect(gap.sampleIndex == 999)
        #expect(gap.start == before.timestamp && gap.end == after.timestamp)
        #expect(abs(gap.length - 2.01) < 0.01)
        #expect(summary.sampleCount == 2801)
    }

    @Test func reportsRateSensorsAndRanges() throws {
        let trace = try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance)
        let summary = TraceSummary(trace)
        #expect(summary.sampleCount == 3001)
        #expect(abs(summary.duration - 30.0102502) < 1e-9)
        #expect(abs(try #require(summary.meanRate) - 3000 / 30.0102502) < 1e-9)
        #expect(summary.sensors == [.accelerometer, .gyroscope])
        #expect(summary.columns.isSuperset(of: .reference))
        let ay = try #require(summary.ranges.first { $0.column == "ay" })
        #expect(ay.unit == "g")
        #expect(ay.min == trace.samples.map(\.acceleration.y).min())
        #expect(ay.max == trace.samples.map(\.acceleration.y).max())
        #expect(!summary.ranges.contains { $0.column == "mx" })  // no magnetometer in this recording
        #expect(summary.ranges.map(\.column).prefix(6) == ["ax", "ay", "az", "gx", "gy", "gz"])
    }

    @Test func xioRecordingHasItsTimingHiccupsReported() throws {
        // The x-io recording's timestamps are not perfectly regular; whatever gaps the summary
        // reports must really be longer than 3× the median period.
        let trace = try TraceTestFiles.loaded(TraceTestFiles.xio)
        let summary = TraceSummary(trace)
        let period = try #require(summary.medianPeriod)
        #expect(abs(period - 0.01008) < 0.0001)
        let longest = zip(trace.samples, trace.samples.dropFirst()).map { $1.timestamp - $0.timestamp }.max()!
        #expect(summary.gaps.allSatisfy { $0.length > 3 * period })
        #expect(summary.gaps.isEmpty == (longest <= 3 * period))
    }
}

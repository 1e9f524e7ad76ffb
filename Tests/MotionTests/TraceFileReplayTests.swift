import Foundation
import Testing
@testable import Motion
import TestSupport

/// A trace summarised and replayed from its file, piece by piece, matches the same trace held in
/// memory: `tiltkit replay` and trace sources never load the whole file.
@Suite struct TraceFileReplayTests {
    /// The mpower recording written as a tiltkit trace, with 2 s cut out of its middle (a gap).
    private func fileWithAGap() throws -> (Trace, URL) {
        var trace = try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance)
        trace.samples.removeSubrange(1000..<1200)
        let url = try TraceTestFiles.scratchFolder().appendingPathComponent("gap.csv")
        try trace.write(to: url)
        return (trace, url)
    }

    private func summary(of url: URL, pieceSize: Int, listedGapLimit: Int = 1000) throws -> TraceSummary {
        try TraceSummary(listedGapLimit: listedGapLimit) { visit in
            let stream = try TraceSampleStream(contentsOf: url, pieceSize: pieceSize)
            while let s = try stream.next() { visit(s) }
        }
    }

    @Test func summaryFromTheFileMatchesTheOneFromMemory() throws {
        let (trace, url) = try fileWithAGap()
        let streamed = try summary(of: url, pieceSize: 4096)
        #expect(streamed == TraceSummary(trace))
        #expect(streamed.gapCount == 1 && streamed.gaps.map(\.sampleIndex) == [999])
        let exact = try #require(trace.medianPeriod), median = try #require(streamed.medianPeriod)
        #expect(abs(median - exact) <= 1e-4 * exact)
    }

    @Test func gapsBeyondTheListedLimitAreCounted() throws {
        var trace = try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance)
        for i in stride(from: 2900, to: 100, by: -100) { trace.samples.removeSubrange(i..<(i + 10)) }
        let summary = TraceSummary(trace, listedGapLimit: 5)
        #expect(summary.gapCount == 28)
        #expect(summary.gaps.count == 5 && summary.gaps.first?.sampleIndex == 199)
    }

    @Test func fileReplayDeliversWhatTheTraceReplayDoes() throws {
        let (trace, url) = try fileWithAGap()
        let fromMemory = ReplaySource(trace: trace, clock: ManualClock(), pacing: .asFastAsPossible, loop: true)
        let fromFile = try ReplaySource(file: url, clock: ManualClock(), pacing: .asFastAsPossible, loop: true)
        #expect(fromFile.columns == fromMemory.columns && fromFile.info.sensors == fromMemory.info.sensors)
        #expect(abs(fromFile.loopLength - fromMemory.loopLength) < 1e-6)
        let n = trace.samples.count
        var runs: [[MotionSample]] = []
        for replay in [fromMemory, fromFile] {
            let log = EventLog()
            try replay.start(log.append)
            #expect(log.wait(timeout: 120) { $0.samples.count >= 2 * n + 1 })
            replay.stop()
            runs.append(Array(log.samples.prefix(2 * n + 1)))
        }
        // The first pass is the trace itself; the second differs only by the offset's last digits.
        #expect(runs[1].prefix(n) == runs[0].prefix(n))
        #expect(zip(runs[0], runs[1]).allSatisfy { abs($0.timestamp - $1.timestamp) < 1e-6 && $0.acceleration == $1.acceleration })
    }

    @Test func aFileThatBreaksDuringTheReplayIsSaid() throws {
        let (trace, url) = try fileWithAGap()
        let replay = try ReplaySource(file: url, clock: ManualClock(), pacing: .asFastAsPossible)
        try "# tiltkit-trace v1\nnot a header\n".write(to: url, atomically: false, encoding: .utf8)
        let log = EventLog()
        try replay.start(log.append)
        #expect(log.wait(timeout: 120) { $0.last == .ended })
        replay.stop()
        #expect(log.samples.isEmpty && trace.samples.count > 0)
        guard case .disconnected(let reason) = log.all.first else { Issue.record("no disconnection: \(log.all)"); return }
        #expect(reason.contains("gap.csv"))
    }
}

import Foundation
import Testing
@testable import Motion

@Suite struct TraceRecorderTests {
    @Test func recordingAReplayReadsBackExactly() throws {
        let trace = try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance)
        let replay = ReplaySource(trace: trace, clock: ManualClock(), pacing: .asFastAsPossible)
        let url = try TraceTestFiles.scratchFolder().appendingPathComponent("recorded.csv")
        let recorder = try TraceRecorder(source: replay, to: url, columns: trace.columns)
        try recorder.start()
        #expect(recorder.waitUntilEnded(timeout: 30))
        let result = try recorder.stop()
        #expect(result == .init(samplesWritten: 3001, samplesSkipped: 0, sourceEnded: true))
        let back = try Trace.load(contentsOf: url)
        #expect(back.samples == trace.samples)
        #expect(back.metadata.source == "trace mpower/balance_data.csv")
        #expect(back.metadata.nominalRate == 100)
    }

    @Test func rowsAreOnDiskBeforeStop() throws {
        let trace = try TraceTestFiles.loaded(TraceTestFiles.motionSenseStairs)
        let clock = ManualClock()
        let replay = ReplaySource(trace: trace, clock: clock, pacing: .realTime(speed: 1))
        let url = try TraceTestFiles.scratchFolder().appendingPathComponent("streaming.csv")
        let recorder = try TraceRecorder(source: replay, to: url)
        try recorder.start()
        #expect(clock.waitForSleepers(1))
        clock.advance(by: 1)  // 1 s of a 50 Hz trace: 51 samples due
        #expect(clock.waitForSleepers(1))
        #expect(recorder.samplesWritten == 51)
        // Read while recording: flushed rows are complete and readable.
        let partial = try Trace.load(contentsOf: url)
        #expect(partial.samples.count == 51)
        #expect(partial.samples.map(\.acceleration) == trace.samples.prefix(51).map(\.acceleration))
        let result = try recorder.stop()
        #expect(result.samplesWritten == 51 && !result.sourceEnded)
        #expect(partial.columns == [.rotationRate])  // the source's sensors, no reference by default
    }

    @Test func skipsSamplesThatWouldMakeTheFileUnreadable() throws {
        let source = ScriptedSource(events: [
            .samples([MotionSample(timestamp: 1, acceleration: Vector3(0, 0, -1)),
                      MotionSample(timestamp: 1, acceleration: Vector3(0, 0, -1))]),
            .disconnected(reason: "unplugged"),
            .samples([MotionSample(timestamp: 2, acceleration: Vector3(.nan, 0, -1))]),
            .reconnected,
            .samples([MotionSample(timestamp: 3, acceleration: Vector3(0.5, 0, -1))]),
            .ended,
        ])
        let url = try TraceTestFiles.scratchFolder().appendingPathComponent("skips.csv")
        let recorder = try TraceRecorder(source: source, to: url)
        try recorder.start()
        #expect(recorder.waitUntilEnded(timeout: 5))
        #expect(try recorder.stop() == .init(samplesWritten: 2, samplesSkipped: 2, sourceEnded: true))
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("# disconnected: unplugged\n"))
        #expect(try Trace.load(contentsOf: url).samples.map(\.timestamp) == [1, 3])
    }

    @Test("a full disk stops the recording, says so, and leaves whole lines that replay")
    func fullDiskStopsWithAReadableFile() throws {
        let trace = try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance)
        let replay = ReplaySource(trace: trace, clock: ManualClock(), pacing: .asFastAsPossible)
        let url = try TraceTestFiles.scratchFolder().appendingPathComponent("full.csv")
        let disk = SmallDisk(capacity: 20_000)
        let recorder = try TraceRecorder(source: replay, to: url, columns: trace.columns, write: disk.write)
        try recorder.start()
        #expect(recorder.waitUntilEnded(timeout: 30))
        let error = try #require(throws: TraceError.self) { try recorder.stop() }
        #expect(error.problem == .unwritable(reason: "No space left on device"))
        let kept = recorder.samplesWritten
        #expect(kept > 10 && kept < 3001)
        #expect(try String(contentsOf: url, encoding: .utf8).hasSuffix("\n"))
        let back = try Trace.load(contentsOf: url)
        #expect(back.warnings.isEmpty)
        #expect(back.samples == Array(trace.samples.prefix(kept)))
    }

    @Test func writingIntoAFolderSaysSo() throws {
        let folder = try TraceTestFiles.scratchFolder()
        let trace = Trace(samples: [MotionSample(timestamp: 0, acceleration: Vector3(0, 0, -1))], metadata: .init(source: "t"))
        let error = try #require(throws: TraceError.self) { try trace.write(to: folder) }
        #expect(error.problem == .unwritable(reason: "Is a directory"))
    }

    @Test func cutKeepsTheRangeInclusive() throws {
        let trace = try TraceTestFiles.loaded(TraceTestFiles.xio)
        let pitch = try trace.cut(from: 15, to: 30)
        #expect(pitch.samples.first!.timestamp >= 15 && pitch.samples.last!.timestamp <= 30)
        let inside = trace.samples.filter { $0.timestamp >= 15 && $0.timestamp <= 30 }
        #expect(pitch.samples == inside)
        // Exact sample times at both ends are kept.
        let a = trace.samples[100].timestamp, b = trace.samples[200].timestamp
        #expect(try trace.cut(from: a, to: b).samples == Array(trace.samples[100...200]))
        // 15–30 s is the pitch section: rotation mostly about x, up to 6.4 rad/s.
        let peak = pitch.samples.compactMap { $0.rotationRate }.map { abs($0.x) }.max()!
        #expect(peak > 5 && peak < 7)
        #expect(throws: TraceCutError.invertedRange(start: 30, end: 15)) { try trace.cut(from: 30, to: 15) }
        #expect(throws: TraceCutError.self) { try trace.cut(from: 200, to: 300) }
    }
}

/// Delivers a fixed list of events at once: for checking how the recorder treats each kind.
private final class ScriptedSource: MotionSource, @unchecked Sendable {
    let info = MotionSourceInfo(name: "scripted", kind: "test", sensors: .accelerometer)
    private let events: [MotionSourceEvent]
    init(events: [MotionSourceEvent]) { self.events = events }
    func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws { events.forEach(deliver) }
    func stop() {}
}

/// write(2) onto a disk with `capacity` bytes: the write that crosses it lands partly, as on a
/// real full filesystem, and the next one fails with ENOSPC.
private final class SmallDisk: @unchecked Sendable {
    private let capacity: Int
    private var used = 0
    init(capacity: Int) { self.capacity = capacity }

    func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        let room = capacity - used
        guard room > 0 else { errno = ENOSPC; return -1 }
        let n = Glibc.write(fd, bytes, min(count, room))
        if n > 0 { used += n }
        return n
    }
}

import Foundation
import Motion
import Testing
import TestSupport

/// A stepped replay of a trace file, read a piece at a time on each pass, gives what the same
/// trace held in memory gives: the same samples, times and loop offsets, frame by frame.
@Suite struct SteppedReplaySourceTests {
    /// Every event the replay delivers while stepped to each time in `times`.
    static func events(_ replay: SteppedReplaySource, steppedTo times: [Double]) throws -> [MotionSourceEvent] {
        let collected = Collected()
        try replay.start { collected.append($0) }
        for time in times { replay.advance(to: time) }
        replay.stop()
        return collected.events
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [MotionSourceEvent] = []
        func append(_ event: MotionSourceEvent) { lock.lock(); list.append(event); lock.unlock() }
        var events: [MotionSourceEvent] { lock.lock(); defer { lock.unlock() }; return list }
    }

    static func same(_ a: MotionSourceEvent, _ b: MotionSourceEvent) -> Bool {
        guard case .samples(let x) = a, case .samples(let y) = b, x.count == 1, y.count == 1 else { return a == b }
        var shifted = x[0]
        shifted.timestamp = y[0].timestamp
        return abs(x[0].timestamp - y[0].timestamp) < 1e-6 && shifted == y[0]
    }

    static func writeFirstSeconds(_ seconds: Double) throws -> (Trace, URL) {
        let xio = try Recordings.xio()
        let first = xio.samples[0].timestamp
        let trace = Trace(samples: xio.samples.filter { $0.timestamp - first < seconds }, metadata: xio.metadata)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stepped-\(getpid())-\(UUID().uuidString).csv")
        try trace.write(to: url)
        return (try Trace.load(contentsOf: url), url)   // as written, so both sides hold the file's rounding
    }

    @Test func aFileLoopsAsTheSameTraceInMemoryDoes() throws {
        let (trace, url) = try Self.writeFirstSeconds(3)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try SteppedReplaySource(file: url, loop: true)
        let memory = SteppedReplaySource(trace: trace, loop: true)
        #expect(file.sampleCount == trace.samples.count && file.firstTimestamp == trace.samples.first?.timestamp)
        #expect(file.warnings.isEmpty)
        #expect(abs(file.loopLength - memory.loopLength) < 1e-6)
        // Two and a half passes at 60 Hz frames.
        let frames = (0...Int(2.5 * memory.loopLength * 60)).map { Double($0) / 60 }
        let fromFile = try Self.events(file, steppedTo: frames), fromMemory = try Self.events(memory, steppedTo: frames)
        #expect(fromFile.count == fromMemory.count && fromFile.count > 2 * trace.samples.count)
        // The same samples; on later passes the times within a microsecond (a file's median period
        // comes from the first pass's histogram of periods, a trace's from its sorted periods).
        let firstDifference = zip(fromFile, fromMemory).enumerated().first { !Self.same($0.element.0, $0.element.1) }
        #expect(firstDifference == nil, "\(String(describing: firstDifference))")
        #expect(file.clock.now() == memory.clock.now())
    }

    @Test func withoutALoopTheEndIsSaidOnce() throws {
        let (trace, url) = try Self.writeFirstSeconds(1)
        defer { try? FileManager.default.removeItem(at: url) }
        let events = try Self.events(try SteppedReplaySource(file: url, loop: false), steppedTo: [0.5, 2, 3])
        #expect(events.filter { $0 == .ended }.count == 1 && events.last == .ended)
        #expect(events.count == trace.samples.count + 1)
    }

    @Test func aFileSpoiledUnderTheReplayEndsItWithTheReason() throws {
        let (_, url) = try Self.writeFirstSeconds(1)
        defer { try? FileManager.default.removeItem(at: url) }
        let replay = try SteppedReplaySource(file: url, loop: true)
        try Data("not a trace\n".utf8).write(to: url)
        let events = try Self.events(replay, steppedTo: [0.5, 5])
        guard case .disconnected(let reason)? = events.dropLast().last else {
            Issue.record("expected a disconnect before the end, got \(events)")
            return
        }
        #expect(!reason.isEmpty && events.last == .ended)
        #expect(events.allSatisfy { if case .samples = $0 { false } else { true } })
    }

    @Test func aMalformedFileIsRefusedWithItsLine() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stepped-bad-\(getpid()).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("# tiltkit-trace v1\nt (s),ax (g),ay (g),az (g)\n0.00,0,0,-1\n0.01,0,zero,-1\n".utf8).write(to: url)
        #expect(throws: TraceError.self) { try SteppedReplaySource(file: url) }
        do { _ = try SteppedReplaySource(file: url) } catch { #expect("\(error)".contains(":4")) }
    }
}

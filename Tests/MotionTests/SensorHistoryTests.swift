import Dispatch
import Foundation
import Testing
import TestSupport
@testable import Motion

@Suite("Sensor history: sample observers, the accelerometer ring buffer and the sensor recorder")
struct SensorHistoryTests {
    @Test("two observers and the accelerometer handler each get every sample, in order; the last cancel stops the source")
    func observersBesideUpdates() throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope])
        let manager = MotionManager(source: source)
        let first = Collector<MotionSample>(), second = Collector<MotionSample>(), pushed = Collector<AccelerometerData>()
        let a = manager.observeSamples(on: DispatchQueue(label: "a")) { first.append($0, nil) }
        let b = manager.observeSamples(on: DispatchQueue(label: "b")) { second.append($0, nil) }
        manager.startAccelerometerUpdates(to: DispatchQueue(label: "push")) { pushed.append($0, $1) }
        let trace = try TraceTestFiles.loaded(TraceTestFiles.xio)
        let samples = Array(trace.samples.prefix(500))
        for s in samples { source.emit(s) }
        #expect(first.wait(for: 500) && second.wait(for: 500) && pushed.wait(for: 500))
        #expect(first.all == samples && second.all == samples)
        manager.stopAccelerometerUpdates()
        a.cancel()
        #expect(source.isRunning, "one observer left")
        b.cancel()
        b.cancel()
        #expect(!source.isRunning)
    }

    @Test("the ring buffer keeps the newest readings, drops time going backwards, and answers ranges inclusively")
    func ringBuffer() {
        var history = AccelerometerHistory(capacity: 100)
        for i in 0..<250 { history.append(AccelerometerData(timestamp: Double(i) * 0.01, acceleration: Vector3(Double(i), 0, 0))) }
        history.append(AccelerometerData(timestamp: 1.0, acceleration: .zero))
        history.append(AccelerometerData(timestamp: .nan, acceleration: .zero))
        #expect(history.count == 100 && history.evicted == 150 && history.outOfOrder == 2)
        #expect(history.span == 1.5...2.49)
        let range = history.data(from: 2.0, to: 2.1)
        #expect(range.map { Int($0.acceleration.x) } == Array(200...210))
        #expect(history.data(from: 0, to: 1.49).isEmpty, "evicted")
        #expect(history.data(from: 2.1, to: 2.0).isEmpty)
        #expect(history.data(from: -10, to: 10).count == 100)
    }

    @Test("the recorder keeps what a replayed recording delivered for its duration, and gives back exact readings by range")
    func recorderOnReplay() throws {
        let trace = try TraceTestFiles.loaded(TraceTestFiles.xio)
        let replay = SteppedReplaySource(trace: trace, loop: false)
        let manager = MotionManager(source: replay, clock: replay.clock)
        manager.startDeviceMotionUpdates()  // a game pulling device motion while the history records
        let recorder = SensorRecorder(manager: manager)
        recorder.recordAccelerometer(forDuration: 10)
        replay.advance(to: 30)
        let t0 = trace.samples[0].timestamp
        let kept = recorder.accelerometerData(from: t0 + 2, to: t0 + 4)
        let expected = trace.samples.filter { $0.timestamp >= t0 + 2 && $0.timestamp <= t0 + 4 }
        #expect(kept.count == expected.count && kept.count > 150)
        #expect(kept.map(\.acceleration) == expected.map(\.acceleration))
        let span = try #require(recorder.recordedSpan)
        #expect(span.lowerBound == t0 && span.upperBound <= t0 + 10, "no more than the asked duration")
        #expect(manager.deviceMotion != nil)
        recorder.stop()
        replay.advance(to: 40)
        #expect(recorder.recordedSpan == span, "stopped: nothing added, what was kept stays")
    }

    /// A fresh path in the temporary directory, removed when `body` returns.
    private func withTemporaryPath(_ body: (String) throws -> Void) rethrows {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-history-\(UUID().uuidString).tkhist").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    @Test("the history file is a bounded ring that outlives its object, answers ranges, and refuses files it cannot read")
    func historyFile() throws {
        try withTemporaryPath { path in
            do {
                let file = try AccelerometerHistoryFile(path: path, capacity: 100)
                for i in 0..<250 { file.append(AccelerometerData(timestamp: Double(i) * 0.01, acceleration: Vector3(Double(i), 1, -1))) }
                file.append(AccelerometerData(timestamp: 1.0, acceleration: .zero))
                #expect(file.count == 100 && file.evicted == 150 && file.outOfOrder == 1)
            }
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            #expect(size == 32 + 100 * 32, "bounded: the header and 100 readings")
            let reopened = try AccelerometerHistoryFile(existingAt: path)
            #expect(reopened.capacity == 100 && reopened.count == 100)
            #expect(reopened.span == 1.5...2.49)
            #expect(reopened.data(from: 2.0, to: 2.1).map { Int($0.acceleration.x) } == Array(200...210))
            reopened.append(AccelerometerData(timestamp: 2.5, acceleration: Vector3(250, 0, 0)))
            #expect(reopened.span == 1.51...2.5, "goes on where it was, dropping the oldest")
            #expect(throws: AccelerometerHistoryFileError.self) { try AccelerometerHistoryFile(path: path, capacity: 50) }
        }
        try withTemporaryPath { path in
            try Data("t (s),ax (g)\n0,1\n".utf8).write(to: URL(fileURLWithPath: path))
            #expect(throws: AccelerometerHistoryFileError.self) { try AccelerometerHistoryFile(path: path, capacity: 10) }
            #expect(throws: AccelerometerHistoryFileError.self) { try AccelerometerHistoryFile(existingAt: path) }
            _ = try AccelerometerHistoryFile(path: path + ".new", capacity: 10)
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path + ".new"))
            try handle.truncate(atOffset: 100)
            try handle.close()
            defer { try? FileManager.default.removeItem(atPath: path + ".new") }
            #expect(throws: AccelerometerHistoryFileError.self) { try AccelerometerHistoryFile(existingAt: path + ".new") }
        }
        #expect(throws: AccelerometerHistoryFileError.self) { try AccelerometerHistoryFile(existingAt: "/nonexistent/history.tkhist") }
    }

    @Test("the recorder keeps a replay's readings in a file, readable after the recorder is gone, and a later clock goes on after them")
    func recorderToFile() throws {
        try withTemporaryPath { path in
            let trace = try TraceTestFiles.loaded(TraceTestFiles.xio)
            let t0 = trace.samples[0].timestamp
            let expected = trace.samples.filter { $0.timestamp >= t0 + 2 && $0.timestamp <= t0 + 4 }
            do {
                let replay = SteppedReplaySource(trace: trace, loop: false)
                let manager = MotionManager(source: replay, clock: replay.clock)
                let recorder = SensorRecorder(manager: manager)
                try recorder.recordAccelerometer(forDuration: 10, file: path)
                replay.advance(to: 30)
                let kept = recorder.accelerometerData(from: t0 + 2, to: t0 + 4)
                #expect(kept.count == expected.count && kept.map(\.acceleration) == expected.map(\.acceleration))
                let span = try #require(recorder.recordedSpan)
                #expect(span.lowerBound == t0 && span.upperBound <= t0 + 10)
                recorder.stop()
            }
            let read = try SensorRecorder.accelerometerData(inFile: path, from: t0 + 2, to: t0 + 4)
            #expect(read.map(\.acceleration) == expected.map(\.acceleration), "the file outlives the recorder")
            // A second recording of the same duration into the file goes on after the first.
            let later = Trace(samples: trace.samples.map { var s = $0; s.timestamp += 1000; return s }, metadata: trace.metadata)
            let replay = SteppedReplaySource(trace: later, loop: false)
            let recorder = SensorRecorder(manager: MotionManager(source: replay, clock: replay.clock))
            try recorder.recordAccelerometer(forDuration: 10, file: path)
            replay.advance(to: 2)  // 2 s more: the file's readings (10 s at the source's rate, × 1.25) hold both
            #expect(recorder.accelerometerData(from: t0 + 2, to: t0 + 4).count == expected.count, "the first recording is still there")
            let second = later.samples.filter { $0.timestamp >= t0 + 1000.5 && $0.timestamp <= t0 + 1001.5 }
            #expect(recorder.accelerometerData(from: t0 + 1000.5, to: t0 + 1001.5).map(\.acceleration) == second.map(\.acceleration))
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            replay.advance(to: 10)
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == size, "bounded: the file does not grow")
            let span = try #require(recorder.recordedSpan)
            #expect(span.lowerBound > t0 + 4, "the oldest readings were overwritten")
            #expect(throws: AccelerometerHistoryFileError.self) { try recorder.recordAccelerometer(forDuration: 1, file: path) }
        }
    }

    @Test("a disk that fails mid-recording stops the file at the last whole reading, which reads back; bad readings are refused on the way in")
    func historyFileWriteFailure() throws {
        try withTemporaryPath { path in
            var writes = 0
            let failing: AccelerometerHistoryFile.PositionedWrite = { fd, bytes, count, offset in
                writes += 1
                guard writes <= 21 else { errno = EIO; return -1 }  // the header, then 10 readings with their counts
                return pwrite(fd, bytes, count, offset)
            }
            do {
                let file = try AccelerometerHistoryFile(path: path, capacity: 100, write: failing)
                for i in 0..<20 { file.append(AccelerometerData(timestamp: Double(i), acceleration: Vector3(1, 2, 3))) }
                #expect(file.count == 10)
                #expect(file.writeFailure?.description == "\(path): cannot write: Input/output error; the file keeps the 10 readings written before")
                file.append(AccelerometerData(timestamp: 99, acceleration: .zero))
                #expect(file.count == 10, "nothing more after a failed write")
            }
            let reopened = try AccelerometerHistoryFile(existingAt: path, readOnly: true)
            #expect(reopened.count == 10 && reopened.span == 0...9)
            let writable = try AccelerometerHistoryFile(existingAt: path)
            writable.append(AccelerometerData(timestamp: 10, acceleration: Vector3(.nan, 0, 0)))
            writable.append(AccelerometerData(timestamp: .infinity, acceleration: .zero))
            #expect(writable.outOfOrder == 2 && writable.count == 10, "a value or time that is not finite never reaches the file")
            #expect(throws: AccelerometerHistoryFileError.self) {
                try AccelerometerHistoryFile(path: path + ".huge", capacity: AccelerometerHistoryFile.maximumCapacity + 1)
            }
            #expect(!FileManager.default.fileExists(atPath: path + ".huge"))
        }
    }
}

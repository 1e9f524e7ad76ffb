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
}

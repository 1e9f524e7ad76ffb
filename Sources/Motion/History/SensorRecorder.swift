import Foundation

/// Core Motion's `CMSensorRecorder` for any source: keeps the accelerometer readings of the last
/// `duration` seconds in bounded memory, whatever else uses the manager, and answers queries by
/// time range on the source's clock.
///
///     let recorder = SensorRecorder(manager: manager)
///     recorder.recordAccelerometer(forDuration: 2 * 3600)
///     …
///     for reading in recorder.accelerometerData(from: t0, to: t1) { … }
///
/// The memory is sized when recording starts: `duration` × the source's nominal rate (200 Hz when
/// it has none) × 1.25 for a device that runs fast, 32 bytes a reading: two hours at 250 Hz is
/// 72 MB. For longer histories record to a file instead (`tiltkit record`, `TraceRecorder`).
public final class SensorRecorder: Sendable {
    public let manager: MotionManager
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "tiltkit.sensor-recorder")

    private struct State {
        var history = AccelerometerHistory(capacity: 1)
        var observation: MotionSampleObservation?
        var until = Double.infinity
    }

    public init(manager: MotionManager) { self.manager = manager }

    deinit { stop() }

    /// The rate a history is sized for when the source names none, Hz.
    public static let assumedRate = 200.0

    /// Starts keeping readings, and keeps them for at most `duration` seconds of source time after
    /// the first; a running recording is restarted (its readings are dropped).
    public func recordAccelerometer(forDuration duration: Double) {
        stop()
        let rate = manager.source.info.nominalRate ?? Self.assumedRate
        let capacity = Int(Swift.min(Double(Int32.max), (Swift.max(0, duration) * rate * 1.25).rounded(.up)))
        state.withLock {
            $0.history = AccelerometerHistory(capacity: capacity)
            $0.until = .infinity
        }
        let observation = manager.observeSamples(on: queue) { [weak self] sample in
            self?.state.withLock { s in
                if s.until == .infinity { s.until = sample.timestamp + duration }
                guard sample.timestamp <= s.until else { return }
                s.history.append(AccelerometerData(timestamp: sample.timestamp, acceleration: sample.acceleration))
            }
        }
        state.withLock { $0.observation = observation }
    }

    /// Stops recording; what was kept stays queryable.
    public func stop() {
        let observation = state.withLock { s -> MotionSampleObservation? in
            defer { s.observation = nil }
            return s.observation
        }
        observation?.cancel()
    }

    /// Readings recorded with `start ≤ timestamp ≤ end`, oldest first. Waits for the recorder's
    /// queue first, so what it was handed before the call is stored; a reading still on its way
    /// from the source's thread may come in a later query.
    public func accelerometerData(from start: Double, to end: Double) -> [AccelerometerData] {
        queue.sync {}
        return state.withLock { $0.history.data(from: start, to: end) }
    }

    /// The oldest and newest timestamps kept.
    public var recordedSpan: ClosedRange<Double>? {
        queue.sync {}
        return state.withLock { $0.history.span }
    }
}

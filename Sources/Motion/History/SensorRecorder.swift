import Foundation

/// Core Motion's `CMSensorRecorder` for any source: keeps the accelerometer readings of the last
/// `duration` seconds in bounded memory or in a bounded file, whatever else uses the manager, and
/// answers queries by time range on the source's clock.
///
///     let recorder = SensorRecorder(manager: manager)
///     recorder.recordAccelerometer(forDuration: 2 * 3600)                       // in memory
///     try recorder.recordAccelerometer(forDuration: 12 * 3600, file: "acc.tkhist")  // or in a file
///     …
///     for reading in recorder.accelerometerData(from: t0, to: t1) { … }
///
/// The store is sized when recording starts: `duration` × the source's nominal rate (200 Hz when
/// it has none) × 1.25 for a device that runs fast, 32 bytes a reading: two hours at 250 Hz is
/// 72 MB. A file (`AccelerometerHistoryFile`) outlives the process: recording into it again goes
/// on after what it holds, and `SensorRecorder.accelerometerData(inFile:…)` reads it without a
/// source. If its newest reading is later than the source's first (another clock: a reboot
/// restarted the monotonic clock), what it held is dropped, since the two cannot be put in order.
public final class SensorRecorder: Sendable {
    public let manager: MotionManager
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "tiltkit.sensor-recorder")

    private struct State {
        /// Where readings go: the file when recording to one, else memory.
        var memory = AccelerometerHistory(capacity: 1)
        var file: AccelerometerHistoryFile?
        var observation: MotionSampleObservation?
        var until = Double.infinity

        var readings: any AccelerometerReadings {
            if let file { return file }
            return memory
        }

        /// Keeps `data` unless the recording's duration is over.
        mutating func keep(_ data: AccelerometerData, duration: Double) {
            if until == .infinity {
                until = data.timestamp + duration
                if let file, let span = file.span, span.upperBound >= data.timestamp { file.removeAll() }
            }
            guard data.timestamp <= until else { return }
            if let file { file.append(data) } else { memory.append(data) }
        }
    }

    public init(manager: MotionManager) { self.manager = manager }

    deinit { stop() }

    /// The rate a history is sized for when the source names none, Hz.
    public static let assumedRate = 200.0
    /// The longest recording, s: twelve hours, as Core Motion's `recordAccelerometer(forDuration:)`
    /// ("up to 43,200 seconds", Apple's CMSensorRecorder documentation).
    public static let maximumDuration = 43_200.0
    /// Readings a history holds for `duration` seconds of a source at `rate` Hz (× 1.25 for a
    /// device that runs fast); infinity when that is beyond any count.
    public static func capacity(forDuration duration: Double, rate: Double) -> Double {
        (Swift.max(0, duration) * rate * 1.25).rounded(.up)
    }

    /// Starts keeping readings in memory, and keeps them for at most `duration` seconds of source
    /// time after the first; a running recording is restarted (its readings are dropped).
    public func recordAccelerometer(forDuration duration: Double) {
        start(memory: AccelerometerHistory(capacity: capacity(forDuration: duration)), file: nil, duration: duration)
    }

    /// Starts keeping readings in the file at `path`, sized for `duration` seconds, after what it
    /// holds from an earlier recording of the same duration; for at most `duration` seconds of
    /// source time from now. Throws when the file cannot be opened or made (see
    /// `AccelerometerHistoryFile`), or `duration` is beyond `maximumDuration`.
    public func recordAccelerometer(forDuration duration: Double, file path: String) throws(AccelerometerHistoryFileError) {
        guard duration <= Self.maximumDuration else {
            throw .init(path: path, problem: "a duration of \(duration) s is beyond the longest recording, \(Int(Self.maximumDuration)) s (12 hours)")
        }
        let file = try AccelerometerHistoryFile(path: path, capacity: capacity(forDuration: duration))
        start(memory: AccelerometerHistory(capacity: 1), file: file, duration: duration)
    }

    /// Readings kept in a history file written by a recorder, `start ≤ timestamp ≤ end`, oldest
    /// first, without a source: the file's own capacity is read from it.
    public static func accelerometerData(inFile path: String, from start: Double, to end: Double)
        throws(AccelerometerHistoryFileError) -> [AccelerometerData] {
        try AccelerometerHistoryFile(existingAt: path, readOnly: true).data(from: start, to: end)
    }

    private func capacity(forDuration duration: Double) -> Int {
        let rate = manager.source.info.nominalRate ?? Self.assumedRate
        return Int(Swift.min(Double(Int32.max), Self.capacity(forDuration: duration, rate: rate)))
    }

    private func start(memory: AccelerometerHistory, file: AccelerometerHistoryFile?, duration: Double) {
        stop()
        state.withLock {
            $0.memory = memory
            $0.file = file
            $0.until = .infinity
        }
        let observation = manager.observeSamples(on: queue) { [weak self] sample in
            self?.state.withLock { $0.keep(AccelerometerData(timestamp: sample.timestamp, acceleration: sample.acceleration), duration: duration) }
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
        waitForRecording()
        return state.withLock { $0.readings.data(from: start, to: end) }
    }

    private func waitForRecording() {
        let observation = state.withLock { $0.observation }
        if let observation { observation.waitUntilHandled(on: queue) } else { queue.sync {} }
    }

    /// The write to the history file that failed (a disk error), if one did: recording into the
    /// file stopped there, and it keeps what it held.
    public var writeFailure: AccelerometerHistoryFileError? {
        state.withLock { $0.file?.writeFailure }
    }

    /// The oldest and newest timestamps kept.
    public var recordedSpan: ClosedRange<Double>? {
        waitForRecording()
        return state.withLock { $0.readings.span }
    }
}

import Foundation

/// Writes any `MotionSource` to a tiltkit trace as its samples arrive (the Linux counterpart of
/// Core Motion's `CMSensorRecorder`): rows are flushed to the file as they come, so a crash loses
/// nothing already delivered; `stop()` stops the source and closes the file. A failed write (a
/// full disk) ends the recording at once, as if the source had ended, and leaves a file of whole
/// lines that replays; `stop()` then throws the error.
///
///     let recorder = try TraceRecorder(source: replay, to: URL(fileURLWithPath: "out.csv"))
///     try recorder.start()
///     …
///     let result = try recorder.stop()      // result.samplesWritten
///
/// A sample whose timestamp does not increase, or with a NaN or infinite value, would make the
/// file unreadable, so it is skipped and counted; a disconnect is written as a comment line.
public final class TraceRecorder: @unchecked Sendable {
    /// What a recording produced.
    public struct Result: Hashable, Sendable {
        public var samplesWritten: Int
        /// Samples skipped because their timestamp did not increase or a value was not finite.
        public var samplesSkipped: Int
        /// True when the source delivered `.ended` (a finite source ran out).
        public var sourceEnded: Bool
    }

    public let source: any MotionSource
    public let url: URL
    private let writer: TraceWriter
    private let condition = NSCondition()
    private var result = Result(samplesWritten: 0, samplesSkipped: 0, sourceEnded: false)
    private var lastTimestamp: Double?
    private var writeError: Error?
    private let onConnectionChange: (@Sendable (MotionSourceEvent) -> Void)?

    /// `columns` defaults to what the source's sensors fill; values outside them are not written.
    /// `onConnectionChange` hears each `.disconnected` and `.reconnected` as it happens (to tell
    /// the user), on the source's thread.
    /// `write` is the file's write(2), replaced in tests by one that fails. `name` is the file in
    /// messages (default: `url`'s path), where `url` is a temporary file renamed into place later.
    public init(source: any MotionSource, to url: URL, name: String? = nil, columns: TraceColumns? = nil,
                write: @escaping LineFileWriter.Write = { Glibc.write($0, $1, $2) },
                onConnectionChange: (@Sendable (MotionSourceEvent) -> Void)? = nil) throws {
        self.source = source
        self.url = url
        self.onConnectionChange = onConnectionChange
        let info = source.info
        writer = try TraceWriter(url: url, name: name,
                                 metadata: TraceMetadata(source: info.name, nominalRate: info.nominalRate),
                                 columns: columns ?? TraceColumns(sensors: info.sensors), write: write)
    }

    public func start() throws {
        try source.start { [self] event in record(event) }
    }

    /// Blocks until the source delivers `.ended`, a write fails, or `timeout` seconds (real time)
    /// pass; true unless the time ran out.
    public func waitUntilEnded(timeout: Double) -> Bool {
        let limit = Date(timeIntervalSinceNow: timeout)
        condition.lock(); defer { condition.unlock() }
        while !result.sourceEnded && writeError == nil {
            if !condition.wait(until: limit) { return result.sourceEnded || writeError != nil }
        }
        return true
    }

    /// Stops the source, closes the file and says what was written. Throws a write error if one happened.
    @discardableResult
    public func stop() throws -> Result {
        source.stop()
        condition.lock(); defer { condition.unlock() }
        let closed = Swift.Result { try writer.close() }
        if let writeError { throw writeError }  // the first failure is the one to tell
        try closed.get()
        return result
    }

    /// Samples written so far.
    public var samplesWritten: Int {
        condition.lock(); defer { condition.unlock() }
        return result.samplesWritten
    }

    private static func isFinite(_ s: MotionSample) -> Bool {
        guard s.timestamp.isFinite, s.acceleration.isFinite, s.rotationRate?.isFinite ?? true,
              s.magneticField?.isFinite ?? true else { return false }
        guard let r = s.reference else { return true }
        return (r.attitude?.isFinite ?? true) && (r.gravity?.isFinite ?? true) && (r.userAcceleration?.isFinite ?? true)
    }

    private func record(_ event: MotionSourceEvent) {
        condition.lock(); defer { condition.unlock() }
        guard writeError == nil else { return }
        do {
            switch event {
            case .samples(let batch):
                for sample in batch {
                    // not after the last one kept, or not finite: skipped, and counted
                    let inOrder = lastTimestamp.map { sample.timestamp > $0 } ?? true
                    guard inOrder && TraceRecorder.isFinite(sample) else {
                        result.samplesSkipped += 1
                        continue
                    }
                    lastTimestamp = sample.timestamp
                    // flushed one by one, so a full disk leaves every counted sample in the file
                    try writer.append(sample)
                    try writer.flush()
                    result.samplesWritten += 1
                }
            case .disconnected(let reason):
                onConnectionChange?(event)
                try writer.appendComment("disconnected: \(reason)")
                try writer.flush()
            case .reconnected:
                onConnectionChange?(event)
                try writer.appendComment("reconnected")
                try writer.flush()
            case .ended:
                result.sourceEnded = true
                condition.broadcast()
            }
        } catch {
            writeError = error
            condition.broadcast()
        }
    }
}

import Foundation
import Motion

/// Replays a `hid-recorder` capture as if the pad were attached: the same report decoder as
/// `HIDRawSource`, the recording's own timing (paced on `clock`, or as fast as possible).
///
///     let replay = try HIDRecordingSource(path: "Assets/hid/ds4-usb-clone.hid-recording")
///
/// hid-recorder does not capture feature reports, so calibration is nominal unless the
/// calibration feature report is passed in.
public final class HIDRecordingSource: DiagnosableMotionSource, @unchecked Sendable {
    public struct Options: Sendable {
        /// For recordings without an `I:` line (or to override it).
        public var device: GamepadDevice?
        public var calibrationReport: [UInt8]?
        /// Sleep to reproduce the recording's timing; false delivers everything at once.
        public var paced = true
        public var clock: any MotionClock = MonotonicClock()
        public init(device: GamepadDevice? = nil) { self.device = device }
    }

    public let recording: HIDRecording
    public let info: MotionSourceInfo
    private let options: Options
    private let lock = NSLock()
    private var decoder: GamepadReportDecoder
    private var thread: SourceThread?

    public convenience init(path: String, options: Options = Options()) throws {
        try self.init(recording: HIDRecording(contentsOf: path), name: (path as NSString).lastPathComponent, options: options)
    }

    public init(recording: HIDRecording, name: String, options: Options = Options()) throws {
        self.recording = recording
        self.options = options
        guard let device = options.device ?? recording.device
            ?? recording.events.lazy.compactMap({ GamepadDevice(guessingFrom: $0.report) }).first else {
            throw DeviceError.unsupported(path: name, reason: String(format:
                "recording of '%@' (%04x:%04x) is not from a supported gyro pad", recording.name,
                recording.vendorID ?? 0, recording.productID ?? 0))
        }
        decoder = GamepadReportDecoder(device: device)
        var note = "nominal scale"
        if let report = options.calibrationReport {
            try decoder.applyFeatureReport(report)
            note = "factory calibration"
        }
        info = MotionSourceInfo(name: "\(recording.name.isEmpty ? device.description : recording.name) (\(name), \(note))",
                                kind: "hid-recording", sensors: [.accelerometer, .gyroscope], nominalRate: device.nominalRate)
    }

    public var diagnostics: String { statistics.description }

    public var statistics: ReportStatistics {
        lock.lock(); defer { lock.unlock() }
        return decoder.statistics
    }

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        guard thread == nil else { return }
        thread = SourceThread(name: "hid-recording") { [self] thread in
            let clock = options.clock
            let start = clock.now() - (recording.events.first?.time ?? 0)
            for event in recording.events {
                if thread.isStopping { return }
                let due = start + event.time
                if options.paced {
                    // Sleep in short steps so stop() stays prompt.
                    while clock.now() < due { guard thread.pause(min(0.05, due - clock.now())) else { return } }
                }
                lock.lock()
                let samples = decoder.decode(event.report, hostTime: due)
                lock.unlock()
                if !samples.isEmpty { deliver(.samples(samples)) }
            }
            deliver(.ended)
        }
    }

    public func stop() {
        lock.lock(); let thread = self.thread; self.thread = nil; lock.unlock()
        thread?.stop()
    }
}

import Foundation
import Motion

/// Wraps any source and removes its gyro bias with a `GyroCalibration` (automatic by default);
/// `calibrateNow()` is the manual "hold still" button.
///
///     let pad = GyroCalibratedSource(wrapping: try HIDRawSource(path: "/dev/hidraw3"))
///     pad.calibrateNow()
public final class GyroCalibratedSource: RateSettableMotionSource, @unchecked Sendable {
    public let wrapped: any MotionSource
    private let lock = NSLock()
    private var calibration: GyroCalibration

    public init(wrapping source: any MotionSource, calibration: GyroCalibration = GyroCalibration()) {
        wrapped = source
        self.calibration = calibration
    }

    public var info: MotionSourceInfo { wrapped.info }

    /// The wrapped device's rate setting, where it has one.
    public func requestSampleRate(_ hertz: Double) -> Double? {
        (wrapped as? any RateSettableMotionSource)?.requestSampleRate(hertz)
    }

    /// The source beneath a calibration wrapper (or `source` itself), for code that needs the
    /// concrete kind: an SDL pad to hand events to, a hidraw source's diagnostics.
    public static func unwrapped(_ source: any MotionSource) -> any MotionSource {
        (source as? GyroCalibratedSource)?.wrapped ?? source
    }

    /// A copy of the calibration state (bias, stillness, progress).
    public var currentCalibration: GyroCalibration {
        lock.lock(); defer { lock.unlock() }
        return calibration
    }

    public func calibrateNow() { lock.lock(); calibration.calibrateNow(); lock.unlock() }
    public func setMode(_ mode: GyroCalibration.Mode) { lock.lock(); calibration.mode = mode; lock.unlock() }

    public func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        try wrapped.start { [self] event in
            switch event {
            case .samples(let batch):
                lock.lock()
                let corrected = batch.map { calibration.correct($0) }
                lock.unlock()
                deliver(.samples(corrected))
            default:
                deliver(event)
            }
        }
    }

    public func stop() { wrapped.stop() }
}

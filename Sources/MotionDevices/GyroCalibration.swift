import Motion

/// Gyro bias calibration the way good gamepad tools do it (JoyShockLibrary's continuous and
/// automatic calibration, GamepadMotionHelpers' stillness detection; INPUT_FACTS §8–9):
///
/// - **automatic**: when gyro and accelerometer both stay inside a small band around their
///   window mean for `settleTime`, the pad is lying still; the bias eases toward the window's
///   mean gyro with half-time `correctionHalfTime`. Slow, very steady motion can pass for
///   stillness (GamepadMotionHelpers says the same), hence the thresholds are tight.
/// - **continuous**: every sample goes into a running average used as the bias (the player holds
///   the pad still while it runs; JSL `StartContinuousCalibration`), until paused.
/// - **manual**: `calibrateNow()` averages the next `manualDuration` seconds and uses that.
///
/// Pure: feed samples with `correct(_:)`, read `bias`, `isStill`, `state`.
public struct GyroCalibration: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Seconds of history the stillness test looks at (GMH MinStillnessCollectionTime 0.5 s).
        public var window = 0.5
        /// Minimum samples in the window (GMH MinStillnessSamples 10).
        public var minimumSamples = 10
        /// Largest deviation from the window mean still counted as still, rad/s per axis.
        public var gyroBand = 0.03
        /// Largest accelerometer deviation from the window mean, g per axis.
        public var accelBand = 0.02
        /// Seconds of stillness before the bias is corrected (GMH MinStillnessCorrectionTime 2 s).
        public var settleTime = 2.0
        /// Seconds for the bias to move half-way to the still mean.
        public var correctionHalfTime = 0.5
        /// Seconds `calibrateNow()` averages over.
        public var manualDuration = 1.0

        public static let `default` = Settings()
        public init() {}
    }

    public enum Mode: String, Hashable, Sendable {
        case off, automatic, continuous
    }

    public enum State: Hashable, Sendable {
        case idle
        /// Averaging for `calibrateNow()`; progress 0…1.
        case manual(progress: Double)
        case continuous(samples: Int)
    }

    public var settings: Settings
    public var mode: Mode
    /// Current bias estimate, rad/s, subtracted from every rotation rate.
    public private(set) var bias = Vector3.zero
    public private(set) var isStill = false
    public private(set) var state = State.idle
    /// Seconds the pad has been still so far.
    public private(set) var stillDuration = 0.0

    private var window: [(time: Double, gyro: Vector3, accel: Vector3)] = []
    private var sum = Vector3.zero
    private var count = 0
    private var manualStart: Double?
    private var lastTime: Double?

    public init(mode: Mode = .automatic, settings: Settings = .default) {
        self.mode = mode
        self.settings = settings
    }

    /// Starts averaging for `settings.manualDuration`; the result replaces the bias.
    public mutating func calibrateNow() {
        manualStart = nil
        sum = .zero
        count = 0
        state = .manual(progress: 0)
    }

    /// Starts (or restarts) the continuous running average.
    public mutating func startContinuous() {
        mode = .continuous
        sum = .zero
        count = 0
        state = .continuous(samples: 0)
    }

    /// Keeps the bias but stops the running average.
    public mutating func pauseContinuous() {
        if mode == .continuous { mode = .off }
        state = .idle
    }

    public mutating func reset() {
        bias = .zero
        window.removeAll()
        stillDuration = 0
        isStill = false
        state = .idle
        lastTime = nil
    }

    /// Feeds a sample and returns it with the bias removed from its rotation rate.
    public mutating func correct(_ sample: MotionSample) -> MotionSample {
        guard let gyro = sample.rotationRate, gyro.isFinite, sample.acceleration.isFinite else { return sample }
        let dt = lastTime.map { max(0, min(sample.timestamp - $0, 0.1)) } ?? 0
        lastTime = sample.timestamp
        updateStillness(sample.timestamp, gyro, sample.acceleration, dt: dt)

        if case .manual = state {
            if manualStart == nil { manualStart = sample.timestamp }
            sum += gyro
            count += 1
            let elapsed = sample.timestamp - manualStart!
            if elapsed >= settings.manualDuration {
                bias = sum / Double(count)
                state = .idle
            } else {
                state = .manual(progress: elapsed / settings.manualDuration)
            }
        } else if mode == .continuous {
            sum += gyro
            count += 1
            bias = sum / Double(count)
            state = .continuous(samples: count)
        } else if mode == .automatic, isStill, stillDuration >= settings.settleTime {
            let mean = window.reduce(Vector3.zero) { $0 + $1.gyro } / Double(window.count)
            let k = 1 - pow(2, -dt / settings.correctionHalfTime)
            bias += (mean - bias) * k
        }
        var corrected = sample
        corrected.rotationRate = gyro - bias
        return corrected
    }

    private mutating func updateStillness(_ time: Double, _ gyro: Vector3, _ accel: Vector3, dt: Double) {
        window.append((time, gyro, accel))
        while let first = window.first, time - first.time > settings.window { window.removeFirst() }
        guard window.count >= settings.minimumSamples, time - window[0].time >= settings.window * 0.8 else {
            isStill = false
            stillDuration = 0
            return
        }
        let n = Double(window.count)
        let gyroMean = window.reduce(Vector3.zero) { $0 + $1.gyro } / n
        let accelMean = window.reduce(Vector3.zero) { $0 + $1.accel } / n
        func within(_ v: Vector3, _ mean: Vector3, _ band: Double) -> Bool {
            abs(v.x - mean.x) <= band && abs(v.y - mean.y) <= band && abs(v.z - mean.z) <= band
        }
        let still = window.allSatisfy { within($0.gyro, gyroMean, settings.gyroBand) && within($0.accel, accelMean, settings.accelBand) }
        stillDuration = still ? stillDuration + dt : 0
        isStill = still
    }
}

import Foundation

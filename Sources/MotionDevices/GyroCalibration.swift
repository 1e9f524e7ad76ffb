import Foundation
import Motion

/// Gyro bias calibration the way good gamepad tools do it (JoyShockLibrary's continuous and
/// automatic calibration, GamepadMotionHelpers' stillness detection; INPUT_FACTS §8–9):
///
/// - **automatic**: when gyro and accelerometer both stay inside a small band around their
///   window mean for `settleTime`, the pad is lying still; the bias eases toward the window's
///   mean gyro with half-time `correctionHalfTime`. Slow, very steady motion can pass for
///   stillness (GamepadMotionHelpers says the same), hence the thresholds are tight.
/// - **continuous**: every sample goes into an average used as the bias (JSL
///   `StartContinuousCalibration`: for a pad that stays still, on a desk or in a mount; motion
///   leaks into it). It starts as the plain running mean and then forgets with half-time
///   `continuousHalfTime`, so it follows a slow drift (a pad warming up) instead of freezing.
/// - **manual**: nothing is learned until `calibrateNow()`, which averages the next
///   `manualDuration` seconds and uses that (the "hold still" key). Any mode but off takes it.
/// - **off**: the gyro passes through as measured; `calibrateNow()` is ignored.
///
/// Pure: feed samples with `correct(_:)`, read `bias`, `isStill`, `state`, `status`.
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
        /// Largest window-mean rotation rate that can be a bias, rad/s per axis (10 °/s): a pad
        /// turning steadily about gravity (a turntable, a slow held turn) keeps both sensors in
        /// their bands but is not lying still; real zero-rate offsets are a few °/s at most.
        public var biasLimit = 10 * Double.pi / 180
        /// Seconds of stillness before the bias is corrected (GMH MinStillnessCorrectionTime 2 s).
        public var settleTime = 2.0
        /// Seconds for the bias to move half-way to the still mean.
        public var correctionHalfTime = 0.5
        /// Seconds `calibrateNow()` averages over.
        public var manualDuration = 1.0
        /// Continuous mode: seconds for an old sample's weight in the average to halve.
        public var continuousHalfTime = 2.0

        public static let `default` = Settings()
        public init() {}
    }

    public enum Mode: String, Hashable, Sendable, CaseIterable {
        case off, automatic, continuous, manual
    }

    /// What a HUD says: whether the bias in use can be trusted yet.
    public enum Status: String, Hashable, Sendable {
        /// Nothing is removed: mode off, or manual with no calibration asked for yet.
        case off
        /// Learning: averaging for `calibrateNow()`, waiting for rest, or the average is young.
        case settling
        /// A calibration has completed; the bias is in use (and still tracked where the mode does).
        case settled
    }

    public enum State: Hashable, Sendable {
        case idle
        /// Averaging for `calibrateNow()`; progress 0…1.
        case manual(progress: Double)
        case continuous(samples: Int)
    }

    public var settings: Settings
    /// Switching to off drops the bias: off means the gyro as measured.
    public var mode: Mode {
        didSet {
            guard mode != oldValue else { return }
            if mode == .off { reset() }
            if mode == .continuous { continuousCount = 0; continuousElapsed = 0 }
            if case .continuous = state, mode != .continuous { state = .idle }
        }
    }
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
    private var continuousCount = 0
    /// Seconds the continuous average has run.
    private var continuousElapsed = 0.0
    /// Seconds the automatic correction has run in the current still stretch.
    private var correctedFor = 0.0
    private var hasSettled = false

    public var status: Status {
        if case .manual = state { return .settling }
        if hasSettled { return .settled }
        return mode == .off || mode == .manual ? .off : .settling
    }

    public init(mode: Mode = .automatic, settings: Settings = .default) {
        self.mode = mode
        self.settings = settings
    }

    /// One line for a command's closing report: "gyro calibration automatic: bias +0.12 -1.98 +0.80 °/s, settled".
    public var summary: String {
        let b = bias * (180 / Double.pi)
        return String(format: "gyro calibration %@: bias %+.2f %+.2f %+.2f °/s, %@", mode.rawValue, b.x, b.y, b.z, status.rawValue)
    }

    /// Starts averaging for `settings.manualDuration`; the result replaces the bias. Ignored when off.
    public mutating func calibrateNow() {
        guard mode != .off else { return }
        manualStart = nil
        sum = .zero
        count = 0
        state = .manual(progress: 0)
    }

    /// Starts (or restarts) the continuous running average.
    public mutating func startContinuous() {
        mode = .continuous
        continuousCount = 0
        continuousElapsed = 0
        state = .continuous(samples: 0)
    }

    /// Keeps the bias but stops the running average (manual from then on).
    public mutating func pauseContinuous() {
        if mode == .continuous { mode = .manual }
        state = .idle
    }

    public mutating func reset() {
        bias = .zero
        window.removeAll()
        stillDuration = 0
        isStill = false
        state = .idle
        lastTime = nil
        manualStart = nil
        continuousCount = 0
        continuousElapsed = 0
        correctedFor = 0
        hasSettled = false
    }

    /// Feeds a sample and returns it with the bias removed from its rotation rate.
    public mutating func correct(_ sample: MotionSample) -> MotionSample {
        guard mode != .off else { return sample }
        guard let gyro = sample.rotationRate, gyro.isFinite, sample.acceleration.isFinite else { return sample }
        let dt = lastTime.map { max(0, min(sample.timestamp - $0, 0.1)) } ?? 0
        lastTime = sample.timestamp
        updateStillness(sample.timestamp, gyro, sample.acceleration, dt: dt)

        if case .manual = state {
            averageForRequest(gyro, at: sample.timestamp)
        } else if mode == .continuous {
            averageContinuously(gyro, dt: dt)
        } else if mode == .automatic {
            correctAtRest(dt: dt)
        }
        var corrected = sample
        corrected.rotationRate = gyro - bias
        return corrected
    }

    /// `calibrateNow()`: the plain mean over `manualDuration`, then back to the mode.
    private mutating func averageForRequest(_ gyro: Vector3, at time: Double) {
        if manualStart == nil { manualStart = time }
        sum += gyro
        count += 1
        let elapsed = time - manualStart!
        guard elapsed >= settings.manualDuration else {
            state = .manual(progress: elapsed / settings.manualDuration)
            return
        }
        bias = sum / Double(count)
        hasSettled = true
        // Continuous carries on from the requested mean rather than restarting from one sample.
        continuousCount = max(continuousCount, count)
        state = mode == .continuous ? .continuous(samples: continuousCount) : .idle
    }

    /// Running mean while young (weight 1/n), exponential forgetting once 1/n is the smaller weight.
    private mutating func averageContinuously(_ gyro: Vector3, dt: Double) {
        continuousCount += 1
        continuousElapsed += dt
        let k = max(1 / Double(continuousCount), 1 - pow(2, -dt / settings.continuousHalfTime))
        bias += (gyro - bias) * k
        if continuousElapsed >= settings.settleTime { hasSettled = true }
        state = .continuous(samples: continuousCount)
    }

    /// Eases toward the window's mean gyro once the pad has been still for `settleTime`.
    private mutating func correctAtRest(dt: Double) {
        guard isStill, stillDuration >= settings.settleTime else { correctedFor = 0; return }
        let mean = window.reduce(Vector3.zero) { $0 + $1.gyro } / Double(window.count)
        let k = 1 - pow(2, -dt / settings.correctionHalfTime)
        bias += (mean - bias) * k
        correctedFor += dt
        // Three half-times leave an eighth of the step: close enough to call it settled.
        if correctedFor >= 3 * settings.correctionHalfTime { hasSettled = true }
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
        let still = within(gyroMean, .zero, settings.biasLimit)
            && window.allSatisfy { within($0.gyro, gyroMean, settings.gyroBand) && within($0.accel, accelMean, settings.accelBand) }
        stillDuration = still ? stillDuration + dt : 0
        isStill = still
    }
}

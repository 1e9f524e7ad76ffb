import Foundation
import Motion

/// The calibration step: "hold still" measures the noise of both gesture signals and the
/// holding pose; "tip toward you" measures the player's own flick. Thresholds land between
/// the two, never closer to the noise than `noiseMargin` times its peak. Feed it pushed
/// device motion; it moves through its steps by sample time.
///
///     var calibration = GestureCalibration(base: .standard)
///     for m in pushed { calibration.push(m) }        // HUD shows calibration.step
///     if case .done(let settings, let pose) = calibration.step { controls = MotionControls(settings: settings, pose: pose) }
public struct GestureCalibration: Hashable, Sendable {
    public enum Step: Hashable, Sendable {
        case holdStill
        case tipTowardYou
        case done(MotionControlSettings, HoldingPose)
    }

    /// Seconds of each measuring step.
    public var holdStillDuration = 2.0
    public var tipDuration = 3.0
    /// A threshold is at least this many times the peak |buffer mean| seen while still.
    public var noiseMargin = 4.0
    /// The jump threshold is this fraction of the player's measured flick, so a slightly
    /// weaker flick still jumps.
    public var gestureFraction = 0.5

    public private(set) var step: Step = .holdStill
    private let base: MotionControlSettings
    private var stepStart: Double?
    private var gravitySum = Vector3.zero
    private var jumpMeter: GestureDetector
    private var duckMeter: GestureDetector
    private var stillJumpPeak = 0.0
    private var stillDuckPeak = 0.0
    private var tipPeak = 0.0
    private var pose: HoldingPose = .gamepad

    public init(base: MotionControlSettings = .standard) {
        self.base = base
        // Detectors used only for their buffer means, with thresholds that never fire.
        jumpMeter = GestureDetector(settings: .init(window: base.jump.window, threshold: .infinity, refractory: 0),
                                    sampleInterval: base.updateInterval)
        duckMeter = GestureDetector(settings: .init(window: base.duck.window, threshold: .infinity, refractory: 0),
                                    sampleInterval: base.updateInterval)
    }

    public mutating func push(_ motion: DeviceMotion) {
        let t = motion.timestamp
        guard t.isFinite else { return }
        let start = stepStart ?? t
        stepStart = start
        switch step {
        case .holdStill:
            gravitySum += motion.gravity
            pose = HoldingPose.detect(gravity: gravitySum)
            jumpMeter.push(GestureSignals.tipRate(motion, pose: pose), timestamp: t)
            duckMeter.push(GestureSignals.downwardPush(motion), timestamp: t)
            stillJumpPeak = max(stillJumpPeak, abs(jumpMeter.mean))
            stillDuckPeak = max(stillDuckPeak, abs(duckMeter.mean))
            if t - start >= holdStillDuration {
                step = .tipTowardYou
                stepStart = t
                jumpMeter.reset()
            }
        case .tipTowardYou:
            jumpMeter.push(GestureSignals.tipRate(motion, pose: pose), timestamp: t)
            tipPeak = max(tipPeak, jumpMeter.mean)
            if t - start >= tipDuration { step = .done(thresholds(), pose) }
        case .done:
            break
        }
    }

    /// Thresholds from what was measured: between noise and gesture, clamped to sane ranges
    /// (0.6…4 rad/s for jumps, up to 0.5 g for ducks) so a bad calibration stays playable.
    private func thresholds() -> MotionControlSettings {
        var settings = base
        let jumpFloor = stillJumpPeak * noiseMargin
        let fromGesture = tipPeak * gestureFraction
        let jump = fromGesture > jumpFloor ? fromGesture : max(jumpFloor, base.jump.threshold)
        settings.jump.threshold = min(4, max(0.6, jump))
        // Holding still says nothing about the rotation artefacts of play, so the duck threshold
        // only rises above the default, for a noisy device.
        let duck = max(abs(base.duck.threshold), stillDuckPeak * noiseMargin)
        settings.duck.threshold = -min(0.5, duck)
        return settings
    }
}

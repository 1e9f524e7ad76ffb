/// Tuning of `AHRS`, with units. One default serves every device and trial we measured
/// (BROAD's ten trials, iPhone and x-io recordings); change a field only for a known reason.
///
///     var settings = AHRSSettings.default
///     settings.declination = 3.1 * .pi / 180   // for .xTrueNorthZVertical
///
/// Parameter names follow what they do; VQF's name (Laidig & Seel 2023, "VQF: Highly accurate
/// IMU orientation estimation with bias estimation and magnetic disturbance rejection",
/// Information Fusion 91) is given where the idea comes from there.
public struct AHRSSettings: Hashable, Sendable {
    /// Time constant of the low-pass applied to acceleration in the almost-inertial frame, s (VQF tauAcc).
    /// Longer trusts the gyro more and rejects more non-gravity acceleration.
    public var accelerationTimeConstant: Double = 3.0
    /// Time constant of the heading correction by the magnetometer, s (VQF tauMag). With the gyro's
    /// scale error estimated on every axis (`gyroScaleCorrelation`), the gyro holds the heading well
    /// between field readings; a longer time constant rides out local field distortion better
    /// (BROAD's 9D mean: 20 s 2.36°, 30 s 2.08°; without the correlated scale, 30 s drifts on fast rotation).
    /// 40 s (with `magneticRejectionFactor` 6) is what every fold of `bench accuracy --leave-out` picks
    /// on the other nine trials: 9D 1.99° → 1.83°, each trial below VQF (worst 26, vibration, 0.98×).
    public var magneticTimeConstant: Double = 40
    /// How long the heading's start-up averaging lasts, s: from the first field reading the correction
    /// is a running mean (gain 1/n) until 1/n falls to dt over this, then `magneticTimeConstant` takes
    /// over. VQF ties it to tauMag; here it is kept at 20 s when tauMag is longer, because the running
    /// mean takes the field disturbed or not (there is no reference field to judge it by yet) — at 30 s
    /// a magnet brought near 30 s after a restart turned the heading 5° (x-io trace, 101 s) where 20 s
    /// had ended and the heading coasted on the gyro.
    public var magneticStartupTime: Double = 20
    /// Rate of the correction steps (inclination, rest detection, magnetometer), Hz. The gyro is
    /// integrated and the acceleration collected on every sample; the corrections, whose time
    /// constants are seconds long, run on every n-th sample with n = sample rate / this, at least 1.
    public var correctionRate: Double = 25
    /// How much later than its sample's time a gyro reading reports the motion, beyond the sample
    /// period it averages, s: the sensor's digital filter and read-out. 0 takes each reading as the
    /// mean rate over the period before its timestamp, as VQF and most filters do, and suits a
    /// device whose delay is unknown. With a delay, the output attitude is turned on by the rate ×
    /// the delay, so it is the one at the sample's time rather than the delay before (the filter's
    /// state is not: see `AHRS.advanced`); in fast rotation that is 2 ms at 500 °/s: 1°.
    /// BROAD's IMU: 2.1 ms, 0.6 of its samples: its gyro matches its optical reference's rate that
    /// much later in every trial (`tiltkit bench accuracy` measures and prints it).
    public var gyroDelay: Double = 0
    /// Sample rate the filter coefficients are first computed for, Hz; they follow the measured
    /// rate (a running mean of the sample period) when it differs by more than 10 %.
    public var nominalSampleRate: Double = 100

    /// Samples must stay still this long before the device counts as at rest, s (VQF restMinT).
    public var restMinimumDuration: Double = 1.5
    /// Time constant of the low-passes rest detection compares samples against, s (VQF restFilterTau).
    public var restFilterTimeConstant: Double = 0.5
    /// Largest deviation of the rotation rate from its low-pass at rest, rad/s (2 °/s).
    public var restRotationRateThreshold: Double = 2 * .pi / 180
    /// Largest deviation of the acceleration from its low-pass at rest, g (0.5 m/s²).
    public var restAccelerationThreshold: Double = 0.5 / 9.81

    /// Largest gyro bias the estimator may reach, rad/s (2 °/s) (VQF biasClip).
    public var biasLimit: Double = 2 * .pi / 180
    /// Initial uncertainty (standard deviation) of the gyro bias, rad/s (VQF biasSigmaInit, 0.5 °/s).
    public var biasInitialUncertainty: Double = 0.5 * .pi / 180
    /// Time in which the bias uncertainty grows by 0.1 °/s without information, s (VQF biasForgettingTime).
    public var biasForgettingTime: Double = 100
    /// Measurement noise of the bias from the inclination correction while moving, rad/s (VQF biasSigmaMotion).
    public var biasMotionUncertainty: Double = 0.1 * .pi / 180
    /// Measurement noise of the bias at rest, rad/s (VQF biasSigmaRest).
    public var biasRestUncertainty: Double = 0.03 * .pi / 180
    /// Largest per-axis gyro scale error the estimator may reach, as a fraction (10 %).
    public var gyroScaleLimit: Double = 0.1
    /// Initial uncertainty (standard deviation) of the per-axis gyro scale error, as a fraction (1 %).
    /// MEMS gyros are specified to a few tenths of a percent to a few percent; 0 turns the estimate off.
    public var gyroScaleInitialUncertainty: Double = 0.01
    /// Correlation of the three axes' scale errors before anything is learned, 0 ≤ ρ < 1. A MEMS gyro's
    /// axes share their drive, reference and temperature, so their scale errors are alike more often
    /// than not; with ρ > 0 an axis that gravity cannot see turn (one that spins about the vertical)
    /// borrows part of what the others showed, instead of keeping its full error. That error drifts
    /// the heading unseen: BROAD's slow rotation trial turns ten times about the vertical, and 0.3 %
    /// of 3800° is the 12° its 6D heading drifted. 0.65 lowers BROAD's 6D heading-corrected mean from
    /// 2.10° to 1.75° (`tiltkit bench accuracy`; chosen by leaving each trial out). An axis that does
    /// turn where gravity sees it is still learned on its own.
    public var gyroScaleCorrelation: Double = 0.65
    /// Time in which the scale variance grows by its initial value without information, s: the
    /// scale changes with temperature only, far more slowly than the bias.
    public var gyroScaleForgettingTime: Double = 1000
    /// Standard deviation of the gyro's cross-axis sensitivity, as a fraction: how much of the
    /// rotation about one axis another reads, from axes that are not quite perpendicular (MEMS gyros
    /// are specified to 1–2 %; BROAD's IMU shows up to 0.2 % against its optical reference, `GyroErrorFit`). It is not
    /// estimated, only allowed for (`GyroErrorEstimator`): with it the scale estimate is not credited
    /// with the heading drift such coupling causes in fast rotation about several axes at once.
    /// 0.2 % lowers BROAD's 6D heading-corrected mean from 1.63° to 1.58° and its fast combined trial
    /// from 4.51° to 3.92° (VQF 4.22°) (`tiltkit bench accuracy`); 0 leaves it out.
    public var gyroCrossAxisUncertainty: Double = 0.002
    /// Rate of the bias estimator's steps, Hz (at most the correction rate); the inclination corrections
    /// in between are summed. The bias changes over minutes, so this saves time and loses nothing:
    /// 5 Hz and 10 Hz give the same BROAD figures to 0.005° (`tiltkit bench accuracy`), 5 Hz at half the cost.
    public var biasUpdateRate: Double = 5

    /// Relative deviation of the field strength from the learned reference that counts as disturbed (VQF magNormTh).
    public var magneticNormThreshold: Double = 0.1
    /// Deviation of the dip angle from the learned reference that counts as disturbed, rad (10°) (VQF magDipTh).
    public var magneticDipThreshold: Double = 10 * .pi / 180
    /// Time constant with which the reference norm and dip follow an undisturbed field, s (VQF magRefTau).
    public var magneticReferenceTimeConstant: Double = 20
    /// Time constant of the low-pass on the current norm and dip, s (VQF magCurrentTau: 0.05 s).
    /// Half a second, so the field of a phone's vibration motor, which swings the norm and dip back
    /// and forth many times a second, averages out instead of reading as a disturbance; a magnet
    /// that stays is still caught within a second (BROAD's vibration trial: 9D 1.73° → 1.61°).
    public var magneticCurrentTimeConstant: Double = 0.5
    /// A new, steady field is accepted as the reference after this much rotation time, s (VQF magNewTime).
    public var magneticNewFieldTime: Double = 20
    /// ... or this long for the very first reference, s (VQF magNewFirstTime). A field steady this long
    /// without turning (a device lying still at start-up) stands as a provisional reference until then.
    public var magneticFirstFieldTime: Double = 5
    /// Rotation faster than this counts towards accepting a new field, rad/s (20 °/s) (VQF magNewMinGyr).
    public var magneticNewFieldMinimumRotationRate: Double = 20 * .pi / 180
    /// The field must match the reference this long before it counts as undisturbed again, s.
    public var magneticMinimumUndisturbedTime: Double = 0.5
    /// Longest time the heading coasts on the gyro alone during a disturbance, s (VQF magMaxRejectionTime).
    public var magneticMaximumRejectionTime: Double = 60
    /// After that, the heading correction runs this many times slower while disturbed, and the
    /// coasting allowance comes back this many times faster than it was used while undisturbed
    /// (VQF magRejectionFactor: 2). Six: with its scale error estimated the gyro holds the heading
    /// far better than a field distorted by a magnet nearby or fixed to the device can correct it
    /// (BROAD's stationary and attached magnet trials: 9D 3.29° → 2.63°, 5.64° → 4.30° at four; at
    /// six with a 40 s `magneticTimeConstant`, 2.25° → 1.86°, 4.50° → 3.89°). Those gains came from the
    /// start, when there was no reference yet and every field counted as disturbed; since the
    /// start-up's field stands as a provisional reference, BROAD's ten score the same at two, four
    /// and six (`bench accuracy --leave-out`), and six stays for disturbances longer than
    /// `magneticMaximumRejectionTime`.
    public var magneticRejectionFactor: Double = 6
    /// Learn the iron that rides along with the sensor (a magnet or magnetised parts beside it: a
    /// hard-iron offset, and soft iron) online while the device turns, and take it out of
    /// the field before the heading sees it. Uncalibrated, such a field turns with the device, so the
    /// disturbance check rejects it for good and the heading coasts. While the field fails the check
    /// (or has no reference yet but the start-up's) its readings go to a `MagnetometerCalibrator`; a
    /// fit is used once the raw field has failed the check for `magneticFirstFieldTime` of turning (or
    /// at once, a high fit with soft iron: the raw field's strength changes with the direction the
    /// device faces), if it moves the field by `magneticCalibrationMinimum` of its strength, its
    /// readings lie on one sphere (the residual a high fit needs) and, below high's coverage, its
    /// strength agrees with the reference the heading has. Off where the caller calibrates the field
    /// first (the motion manager does).
    public var learnsMagnetometerCalibration = true
    /// How far a newly used calibration must move the field, relative to its strength, for the
    /// heading's field to be judged afresh: against the reference where there is one, else by
    /// starting the heading over once the calibrated field has earned a reference. A smaller change
    /// is followed by the heading's own correction.
    public var magneticCalibrationRestart = 0.1
    /// How far the first calibration must move the raw field, relative to its strength, to be used:
    /// an early fit is off by a few percent, and applied to a magnetometer its maker calibrated it
    /// only turns the heading.
    public var magneticCalibrationMinimum = 0.1

    /// Magnetic declination, radians, east positive: true north = magnetic north rotated by −declination
    /// about the vertical. Used by `.xTrueNorthZVertical` only (the World Magnetic Model gives it).
    public var declination: Double = 0

    /// Sample validation limits (saturation, gap that restarts the filter).
    public var limits: SampleLimits = .default

    public init() {}

    public static let `default` = AHRSSettings()
}

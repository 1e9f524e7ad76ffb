/// What `AHRS` is doing right now, as plain values (x-io Fusion's `FusionAhrsFlags` idea).
public struct AHRSFlags: Hashable, Sendable {
    /// The device has been still long enough for the gyro bias to be measured directly.
    public var atRest = false
    /// The magnetic field differs from the learned reference (norm or dip): heading coasts on the gyro.
    public var magneticDisturbance = false
    /// A reference field (norm and dip) has been learned.
    public var magneticReferenceLearned = false
    /// The magnetometer has set the heading at least once (north-referenced output is meaningful).
    public var headingInitialised = false

    public init() {}
}

/// Internal estimates of `AHRS`, for HUDs, logs and tests.
public struct AHRSInternalStates: Hashable, Sendable {
    /// Estimated gyroscope bias, rad/s (subtracted from `DeviceMotion.rotationRate`).
    public var gyroBias = Vector3.zero
    /// Standard deviation of the bias estimate, rad/s.
    public var gyroBiasUncertainty = 0.0
    /// Per-axis gyro scale error, as a fraction: the gyro reads (1 + error)·ω on that axis.
    public var gyroScaleError = Vector3.zero
    /// Heading correction applied on top of the 6D attitude, rad (VQF's δ).
    public var headingCorrection = 0.0
    /// Last disagreement between the magnetometer's heading and the estimate, rad.
    public var magneticDisagreement = 0.0
    /// Learned reference field strength, µT (0 before one is learned).
    public var magneticReferenceNorm = 0.0
    /// Learned reference dip angle, rad.
    public var magneticReferenceDip = 0.0
    /// The hard iron taken out of the field, µT in the sensor frame: the offset of the calibration
    /// fusion learned while turning (`AHRSSettings.learnsMagnetometerCalibration`), zero before one is used.
    public var magnetometerOffset = Vector3.zero
    /// Sample period the filter is tuned for now (the measured mean), s.
    public var samplePeriod = 0.0

    public init() {}
}

/// Turns raw motion samples into device motion, one sample at a time: the seam between the
/// motion manager and the estimators (`AHRS` for sensor fusion, `AccelerometerAttitudeEstimator`
/// for the accelerometer-only mode of Apple's 2010 teapot).
///
///     var estimator = DeviceMotionEstimatorKind.fusion.make(frame: .xArbitraryZVertical)
///     for sample in samples {
///         if let motion = estimator.update(sample) { draw(motion.attitude) }
///     }
///
/// Per-sample loops that care about cost hold the concrete type (or are generic over
/// `some DeviceMotionEstimator`) and reuse one output, so nothing is copied but the result:
///
///     var ahrs = AHRS(frame: .xArbitraryZVertical)
///     var motion = DeviceMotion()
///     for sample in samples {
///         if ahrs.update(sample, into: &motion) { draw(motion.attitude) }
///     }
///
/// A rejected sample is counted in `rejections`; it never crashes the estimator or lets its
/// state go non-finite.
public protocol DeviceMotionEstimator: Sendable {
    /// The frame the attitude is expressed in.
    var referenceFrame: AttitudeReferenceFrame { get }
    /// Samples rejected so far, by reason.
    var rejections: SampleRejectionCounts { get }
    /// Feeds one sample and writes the device motion at its timestamp into `motion`; returns false
    /// (leaving `motion` untouched) if the sample was rejected.
    mutating func update(_ sample: borrowing MotionSample, into motion: inout DeviceMotion) -> Bool
    /// Forgets the attitude; the next sample starts afresh.
    mutating func reset()
}

extension DeviceMotionEstimator {
    /// Feeds one sample; returns the device motion at its timestamp, or nil if it was rejected.
    @inlinable
    public mutating func update(_ sample: borrowing MotionSample) -> DeviceMotion? {
        var motion = DeviceMotion()
        return update(sample, into: &motion) ? motion : nil
    }
}

/// Which estimator to run: what `tiltkit fuse --mode` and the motion manager choose from.
public enum DeviceMotionEstimatorKind: String, CaseIterable, Hashable, Sendable {
    /// Gyro integration corrected by gravity and, where the frame uses it, the magnetometer.
    case fusion
    /// Low-pass filtered acceleration as gravity; roll and pitch only (no gyro).
    case accelerometer = "accel"

    /// A new estimator of this kind. `declination` (radians, east positive) is used only by
    /// `.xTrueNorthZVertical`, `gyroDelay` (s, `AHRSSettings.gyroDelay`) and `calibratedField`
    /// only by fusion; the accelerometer-only estimator supports `.xArbitraryZVertical` only.
    /// `calibratedField`: the caller calibrates the magnetometer before fusion sees it (as the
    /// motion manager does), so fusion does not learn the iron a second time.
    public func make(frame: AttitudeReferenceFrame = .xArbitraryZVertical,
                     declination: Double = 0, gyroDelay: Double = 0,
                     calibratedField: Bool = false) -> any DeviceMotionEstimator {
        switch self {
        case .fusion:
            var settings = AHRSSettings.default
            settings.declination = declination
            settings.gyroDelay = gyroDelay
            settings.learnsMagnetometerCalibration = !calibratedField
            return AHRS(frame: frame, settings: settings)
        case .accelerometer:
            return AccelerometerAttitudeEstimator()
        }
    }
}

import Foundation

/// Fused motion of the device, as Core Motion's `CMDeviceMotion`.
/// All vectors in the device frame; `gravity + userAcceleration` equals the measured acceleration.
public struct DeviceMotion: Hashable, Sendable {
    /// Timestamp of the sample this was computed from, seconds on the source's clock.
    public var timestamp: Double
    public var attitude: Attitude
    /// Bias-corrected angular rate, rad/s.
    public var rotationRate: Vector3
    /// Gravity in g (unit length), device frame.
    public var gravity: Vector3
    /// Acceleration the user gives the device, in g.
    public var userAcceleration: Vector3
    public var magneticField: CalibratedMagneticField
    /// The direction `heading` is taken from, the heading axis's north and west components (not
    /// normalised); both 0 where there is no heading. Fusion writes these for every sample and the
    /// angle is taken only when `heading` is read: its atan2 ended a long chain of dependent steps
    /// that made each 9-axis sample cost a third more (`tiltkit bench fusion`), for a value most
    /// consumers never read.
    var headingNorth: Double
    var headingWest: Double

    /// Degrees from north, 0..<360, in north-referenced frames; negative otherwise.
    public var heading: Double {
        get {
            if headingNorth == 0 && headingWest == 0 { return -1 }
            let degrees = atan2(-headingWest, headingNorth) * (180 / .pi)
            let turn = degrees < 0 ? degrees + 360 : degrees + 0  // + 0: no −0 from due north
            return turn >= 360 ? 0 : turn  // −1e-14 + 360 rounds to 360
        }
        set {
            guard newValue >= 0 && newValue.isFinite else { (headingNorth, headingWest) = (0, 0); return }
            let radians = newValue * (.pi / 180)
            (headingNorth, headingWest) = (cos(radians), -sin(radians))
        }
    }

    public init(timestamp: Double, attitude: Attitude, rotationRate: Vector3, gravity: Vector3,
                userAcceleration: Vector3, magneticField: CalibratedMagneticField = .uncalibrated,
                heading: Double = -1) {
        self.timestamp = timestamp
        self.attitude = attitude
        self.rotationRate = rotationRate
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.magneticField = magneticField
        (headingNorth, headingWest) = (0, 0)
        self.heading = heading
    }

    /// A placeholder at rest (identity attitude, zero vectors, no heading), for an output an
    /// estimator overwrites in place (`DeviceMotionEstimator.update(_:into:)`).
    @inlinable public init() {
        self.init(timestamp: 0, attitude: Attitude(quaternion: Quaternion(w: 1, x: 0, y: 0, z: 0)),
                  rotationRate: Vector3(0, 0, 0), gravity: Vector3(0, 0, 0), userAcceleration: Vector3(0, 0, 0),
                  magneticField: CalibratedMagneticField(field: Vector3(0, 0, 0), accuracy: .uncalibrated), heading: -1)
    }
}

/// Magnetic field with the device's bias removed, µT, and how sure the estimate is.
public struct CalibratedMagneticField: Hashable, Sendable {
    public var field: Vector3
    public var accuracy: MagneticFieldCalibrationAccuracy

    public init(field: Vector3, accuracy: MagneticFieldCalibrationAccuracy) {
        self.field = field
        self.accuracy = accuracy
    }

    public static let uncalibrated = CalibratedMagneticField(field: .zero, accuracy: .uncalibrated)
}

/// As `CMMagneticFieldCalibrationAccuracy`.
public enum MagneticFieldCalibrationAccuracy: Int, Hashable, Sendable, Comparable {
    case uncalibrated = -1
    case low = 0
    case medium = 1
    case high = 2

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// As `CMAttitudeReferenceFrame`.
public enum AttitudeReferenceFrame: String, CaseIterable, Hashable, Sendable {
    /// Z vertical, X arbitrary in the horizontal plane; accelerometer and gyro only.
    case xArbitraryZVertical = "x-arbitrary-z-vertical"
    /// As above, with the magnetometer correcting yaw drift (X still arbitrary).
    case xArbitraryCorrectedZVertical = "x-arbitrary-corrected-z-vertical"
    /// X toward magnetic north.
    case xMagneticNorthZVertical = "x-magnetic-north-z-vertical"
    /// X toward true north; needs a location for the magnetic declination.
    case xTrueNorthZVertical = "x-true-north-z-vertical"

    public var usesMagnetometer: Bool { self != .xArbitraryZVertical }
    public var isNorthReferenced: Bool { self == .xMagneticNorthZVertical || self == .xTrueNorthZVertical }
}

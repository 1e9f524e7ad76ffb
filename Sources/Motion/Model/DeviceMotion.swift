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
    /// The field in µT with its calibration's accuracy. The motion manager gives its calibrated field
    /// in every frame; `AHRS` on its own gives it where its frame uses the magnetometer, and zero,
    /// uncalibrated, where it does not (as Core Motion in `xArbitraryZVertical`).
    public var magneticField: CalibratedMagneticField
    /// The direction `heading` is taken from, where it was given as a value: the heading axis's north
    /// and west components (not normalised); both 0 where there is no heading.
    var headingNorth: Double
    var headingWest: Double
    /// The heading is the attitude's own: its axis is taken from `attitude` when `heading` is read.
    /// Fusion in a north-referenced frame sets this rather than an axis, and the angle's atan2 is
    /// taken on reading too: written per sample, the axis was 7 % of a 9-axis step's instructions and
    /// the angle once made the step cost a third more (`tiltkit bench fusion`), for a value most
    /// consumers never read. (Equality compares the representation: a heading set to the same value
    /// by hand makes a motion unequal to the fused one.)
    var headingFromAttitude: Bool

    /// Degrees from north, 0..<360, in north-referenced frames; negative otherwise.
    public var heading: Double {
        get {
            let axis = headingFromAttitude ? Self.headingAxis(of: attitude.quaternion) : (north: headingNorth, west: headingWest)
            if axis.north == 0 && axis.west == 0 { return -1 }
            let degrees = atan2(-axis.west, axis.north) * (180 / .pi)
            let turn = degrees < 0 ? degrees + 360 : degrees + 0  // + 0: no −0 from due north
            return turn >= 360 ? 0 : turn  // −1e-14 + 360 rounds to 360
        }
        set {
            headingFromAttitude = false
            guard newValue >= 0 && newValue.isFinite else { (headingNorth, headingWest) = (0, 0); return }
            let radians = newValue * (.pi / 180)
            (headingNorth, headingWest) = (cos(radians), -sin(radians))
        }
    }

    /// The axis a compass heading is taken from, for an attitude `q` in a north-referenced frame
    /// (X north, Y west, Z up), as its (north, west) components: the device's top edge (+y); when the
    /// top edge points up or down, the direction the back of the device faces (−z), as a compass held
    /// upright would.
    static func headingAxis(of q: Quaternion) -> (north: Double, west: Double) {
        // second column of R(q): the device's y axis in the reference frame
        let north = 2 * (q.x * q.y - q.w * q.z)
        let west = 1 - 2 * (q.x * q.x + q.z * q.z)
        if north * north + west * west >= 1e-6 { return (north, west) }
        // minus the third column: the device's −z axis
        return (-2 * (q.x * q.z + q.w * q.y), -2 * (q.y * q.z - q.w * q.x))
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
        (headingNorth, headingWest, headingFromAttitude) = (0, 0, false)
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

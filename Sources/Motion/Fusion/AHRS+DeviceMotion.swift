/// Turning the filter's state into Core Motion's `DeviceMotion` in the requested frame.
extension AHRS {
    /// The rotation from the internal frame (x east, y magnetic north, z up) into `frame`.
    /// Core Motion's north-referenced frames have X toward north and Z up, hence Y west: a rotation
    /// by −90° about the vertical. True north lies `declination` (east positive) west of magnetic
    /// north as seen from the device, so a true-north azimuth is the magnetic one plus the declination:
    /// another rotation by −declination.
    static func frameRotation(_ frame: AttitudeReferenceFrame, declination: Double) -> Quaternion {
        switch frame {
        case .xArbitraryZVertical, .xArbitraryCorrectedZVertical: return .identity
        case .xMagneticNorthZVertical: return Quaternion(axis: Vector3(0, 0, 1), angle: -.pi / 2)
        case .xTrueNorthZVertical: return Quaternion(axis: Vector3(0, 0, 1), angle: -.pi / 2 - declination)
        }
    }

    /// Device motion from the state after `sample`: attitude in the frame, gravity from it,
    /// user acceleration the rest of the measured acceleration, rotation rate without the bias.
    @inline(__always)
    func deviceMotion(_ sample: MotionSample, gyro: Vector3) -> DeviceMotion {
        let q6 = quaternion6D
        let useHeading = referenceFrame.usesMagnetometer && headingInitialised
        let earth = useHeading ? FastMath.product(headingCorrection.rotation, q6) : q6
        let q = outputRotation == .identity ? earth : FastMath.product(outputRotation, earth)
        // third row of R(q6), negated: q⁻¹ ⊗ (0,0,−1) ⊗ q (rotations about z do not change it)
        let gravity = Vector3(-2 * (q6.x * q6.z - q6.w * q6.y), -2 * (q6.y * q6.z + q6.w * q6.x),
                              -(1 - 2 * (q6.x * q6.x + q6.y * q6.y)))
        var field = CalibratedMagneticField.uncalibrated
        if let m = sample.magneticField {
            field = CalibratedMagneticField(field: m, accuracy: magneticAccuracy)
        }
        return DeviceMotion(timestamp: sample.timestamp, attitude: Attitude(quaternion: q),
                            rotationRate: gyro - bias.bias, gravity: gravity,
                            userAcceleration: sample.acceleration - gravity, magneticField: field,
                            heading: referenceFrame.isNorthReferenced && useHeading ? Self.heading(q) : -1)
    }

    /// No hard-iron calibration is done, so the field is reported raw and `.high` is never claimed:
    /// uncalibrated until a reference field is learned, low while disturbed, medium otherwise.
    var magneticAccuracy: MagneticFieldCalibrationAccuracy {
        if !magnetic.hasReference { return .uncalibrated }
        return magnetic.isDisturbed ? .low : .medium
    }

    /// Compass heading of the device's top edge (+y), degrees clockwise from north, 0..<360, in a
    /// frame with X north, Y west, Z up; when the top edge points up or down, the direction the
    /// back of the device faces (−z) is used instead, as a compass held upright would.
    @inline(__always)
    static func heading(_ q: Quaternion) -> Double {
        // second column of R(q): the device's y axis in the reference frame
        var north = 2 * (q.x * q.y - q.w * q.z)
        var west = 1 - 2 * (q.x * q.x + q.z * q.z)
        if north * north + west * west < 1e-6 {
            // minus the third column: the device's −z axis
            north = -2 * (q.x * q.z + q.w * q.y)
            west = -2 * (q.y * q.z - q.w * q.x)
        }
        let degrees = FastMath.atan2(-west, north) * (180 / .pi)
        let wrapped = degrees + 360 * Double((degrees < 0) ? 1 : 0)  // branch-free, as FastMath.atan2
        return wrapped >= 360 ? 0 : wrapped
    }
}

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

    /// Recomputes what the per-sample output takes from the slow state (`outputFromEarth6D`,
    /// `outputsHeading`, `fieldAccuracy`): on start and after each heading correction.
    mutating func refreshOutput() {
        outputFromEarth6D = usesMagnetometer && headingInitialised
            ? FastMath.product(outputRotation, headingCorrection.rotation) : outputRotation
        outputIsEarth6D = outputFromEarth6D == .identity
        outputsHeading = reportsHeading && headingInitialised
        fieldAccuracy = magneticAccuracy
    }

    /// Writes the device motion after `sample` into `motion`: attitude in the frame, gravity from
    /// it, user acceleration the rest of the measured acceleration, rotation rate corrected for the gyro's bias and scale,
    /// and the heading in north-referenced frames only (−1 elsewhere, as Core Motion): the attitude's,
    /// taken from it when read (`DeviceMotion.headingFromAttitude`).
    @inline(__always)
    func write(_ sample: borrowing MotionSample, rotationRate: Vector3, into motion: inout DeviceMotion) {
        let q6 = halfGyroDelay == 0 ? quaternion6D : Self.advanced(quaternion6D, by: rotationRate * halfGyroDelay)
        let q = outputIsEarth6D ? q6 : FastMath.product(aboutVertical: outputFromEarth6D, q6)
        // third row of R(q6), negated: q⁻¹ ⊗ (0,0,−1) ⊗ q (rotations about z do not change it)
        let gravity = Vector3(-2 * (q6.x * q6.z - q6.w * q6.y), -2 * (q6.y * q6.z + q6.w * q6.x),
                              -(1 - 2 * (q6.x * q6.x + q6.y * q6.y)))
        motion.timestamp = sample.timestamp
        motion.attitude.quaternion = q
        motion.rotationRate = rotationRate
        motion.gravity = gravity
        motion.userAcceleration = sample.acceleration - gravity
        if usesMagnetometer, let m = sample.magneticField {
            motion.magneticField = CalibratedMagneticField(field: m, accuracy: fieldAccuracy)
        } else {  // as Core Motion in a frame that leaves the magnetometer off: no field, uncalibrated
            motion.magneticField = CalibratedMagneticField(field: Vector3(0, 0, 0), accuracy: .uncalibrated)
        }
        (motion.headingNorth, motion.headingWest, motion.headingFromAttitude) = (0, 0, outputsHeading)
    }

    /// The attitude `q` turned on by the body-frame rotation whose half-angle vector is `v`, for a
    /// late gyro (`AHRSSettings.gyroDelay`): the filter's state is the attitude the delayed readings
    /// integrate to, and the output is that plus the rate × the delay. Only the output: turning the
    /// state itself would take the accelerometer, which is not late, in a frame ahead of it (BROAD's
    /// 6D mean 1.67° rather than 1.63°). (1 − |v|²/2, v) is the rotation to second order: for 2 ms at
    /// 2000 °/s, |v| < 0.04 rad and the error below 1e-5 rad.
    @inline(__always)
    static func advanced(_ q: Quaternion, by v: Vector3) -> Quaternion {
        FastMath.product(q, Quaternion(w: 1 - 0.5 * v.lengthSquared, x: v.x, y: v.y, z: v.z))
    }

    /// No hard-iron calibration is done, so the field is reported raw and `.high` is never claimed:
    /// uncalibrated until a reference field is learned, low while disturbed, medium otherwise.
    var magneticAccuracy: MagneticFieldCalibrationAccuracy {
        if !magnetic.hasReference { return .uncalibrated }
        return magnetic.isDisturbed ? .low : .medium
    }
}

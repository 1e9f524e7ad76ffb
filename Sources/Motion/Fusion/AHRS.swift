/// Sensor fusion: an attitude and heading reference system producing Core Motion's device motion.
///
///     var ahrs = AHRS(frame: .xMagneticNorthZVertical)
///     for sample in samples {
///         guard let motion = ahrs.update(sample) else { continue }   // nil: rejected, see ahrs.rejections
///         print(motion.attitude.yaw, motion.heading, ahrs.flags.magneticDisturbance)
///     }
///
/// The filter follows VQF (D. Laidig, T. Seel, "VQF: Highly accurate IMU orientation estimation
/// with bias estimation and magnetic disturbance rejection", Information Fusion 91, 2023; reference
/// code github.com/dlaidig/vqf, MIT), rewritten for a low per-sample cost:
/// - the gyro is integrated into an almost-inertial frame (`gyroAttitude`; per sample it is
///   integrated as the 6D attitude `attitude6D` = `inclination` ⊗ `gyroAttitude`, since the
///   inclination only changes at a correction, and `gyroAttitude` is taken back out there);
/// - the acceleration is taken into that frame and low-passed there, so the device's motion does
///   not blur it and any acceleration that is not gravity averages out; the inclination
///   (`inclination`) turns that low-passed vector onto the vertical;
/// - the gyro bias is estimated at rest and in motion, and beyond VQF the gyro's per-axis scale
///   error in motion (`GyroErrorEstimator`): unmodelled, a scale error of a few tenths of a percent
///   drifts several degrees per second in fast rotation, which the bias estimate would absorb wrongly;
/// - in 9D the heading is a separate rotation about the vertical (`HeadingCorrection`), fed only by
///   an undisturbed magnetometer (`MagneticDisturbanceDetector`); a disturbance coasts on the gyro,
///   but where it is iron riding along, each whole turn about the vertical still says where north is
///   (`TurnAveragedField`).
/// Internally the earth frame is x east, y (magnetic) north, z up, as VQF and BROAD; the output is
/// rotated into the requested Core Motion frame (`AttitudeReferenceFrame`).
///
/// Costs are kept low by precomputed coefficients, trigonometry-free steps (`FastMath`), and by
/// running only the gyro integration on every sample: the corrections, whose time constants are
/// seconds, run at `correctionRate` (25 Hz) on the acceleration collected in between, and the bias
/// estimator at `biasUpdateRate` (5 Hz).
///
/// Rejected samples (NaN, saturation, time going backwards) leave the state untouched; a gap longer
/// than `SampleLimits.maximumGap` restarts the attitude from the next sample's gravity and field
/// (the gyro bias is kept: it belongs to the sensor).
public struct AHRS: DeviceMotionEstimator {
    public let settings: AHRSSettings
    public let referenceFrame: AttitudeReferenceFrame
    public var rejections: SampleRejectionCounts { validator.rejections }

    private var validator: SampleValidator
    private var coefficients: AHRSCoefficients
    /// Running mean of the sample period, s.
    private var meanPeriod = 0.0

    /// Device → almost-inertial frame, by the gyro alone; brought up to date at each correction.
    private var gyroAttitude = Quaternion.identity
    /// Device → 6D earth frame, `inclination` ⊗ `gyroAttitude`, integrated on every sample: one
    /// product per sample gives both the output and the frame the acceleration is collected in.
    private var attitude6D = Quaternion.identity
    /// Almost-inertial → 6D earth frame: the accelerometer's correction.
    private var inclination = Quaternion.identity
    /// Specific force (−acceleration, g) in the almost-inertial frame, low-passed.
    private var accelerationLowPass = SecondOrderLowPass3()
    /// Samples since the last correction step.
    private var window = CorrectionWindow()
    private var rest = RestDetector()
    var gyroError = GyroErrorEstimator()
    var magnetic = MagneticDisturbanceDetector()
    var headingCorrection: HeadingCorrection
    var headingInitialised = false
    /// Learns the iron riding along with the sensor (`AHRSSettings.learnsMagnetometerCalibration`);
    /// kept across a restart after a gap: it belongs to the device.
    var fieldCalibrator = MagnetometerCalibrator()
    /// The calibration the field is corrected with: the calibrator's, once it earned medium.
    var fieldCalibration: MagnetometerCalibration?
    /// Time turning with the uncalibrated field rejected, s: a first calibration is used only once
    /// the raw field failed to become the reference for as long as a first reference takes.
    var rawFieldRejectedTurning = 0.0
    /// A calibration replaced a field the heading had no reference for: the heading starts over from
    /// the calibrated field once that earns one.
    var headingRestartPending = false
    /// The field over the current turn about the vertical (`TurnAveragedField`), and the raw field's
    /// while a calibration is in use.
    var turnAverage = TurnAveragedField(), rawTurnAverage = TurnAveragedField()
    /// The angle about the vertical the heading's field was seen over since it started, rad: turned
    /// while the field passed the check, and a whole turn for each turn's average taken.
    var headingEvidence = 0.0
    /// Output rotation from the internal east-north-up frame into `referenceFrame`.
    var outputRotation: Quaternion
    /// What the output applies to the 6D attitude: `outputRotation`, after the heading correction
    /// once that is in use. Refreshed when either changes (at the correction rate), not per sample.
    var outputFromEarth6D: Quaternion
    /// `outputFromEarth6D` is the identity (6D output in the arbitrary frame): the 6D attitude is the output.
    var outputIsEarth6D: Bool
    /// The output carries a heading: a north-referenced frame, once the heading is initialised.
    var outputsHeading = false
    /// `magneticAccuracy`, which changes only with the heading correction.
    var fieldAccuracy = MagneticFieldCalibrationAccuracy.uncalibrated
    /// `referenceFrame.usesMagnetometer` and `.isNorthReferenced`, kept so the per-sample path reads a flag.
    let usesMagnetometer: Bool
    let reportsHeading: Bool
    /// Half of `settings.gyroDelay`, s: the output attitude is turned on by the rate times the delay.
    let halfGyroDelay: Double

    public init(frame: AttitudeReferenceFrame = .xArbitraryZVertical, settings: AHRSSettings = .default) {
        self.settings = settings
        self.referenceFrame = frame
        // a frame without the magnetometer does not refuse a sample for its field
        self.validator = SampleValidator(limits: settings.limits, checksMagneticField: frame.usesMagnetometer)
        self.coefficients = AHRSCoefficients(settings, samplePeriod: 1 / settings.nominalSampleRate)
        self.headingCorrection = HeadingCorrection(maximumRejectionTime: settings.magneticMaximumRejectionTime)
        self.outputRotation = Self.frameRotation(frame, declination: settings.declination)
        self.outputFromEarth6D = outputRotation
        self.outputIsEarth6D = false
        self.usesMagnetometer = frame.usesMagnetometer
        self.reportsHeading = frame.isNorthReferenced
        self.halfGyroDelay = 0.5 * settings.gyroDelay
        refreshOutput()
        gyroError.reset(coefficients.gyroError)
    }

    /// Forgets everything but the rejection counters.
    public mutating func reset() {
        var counters = validator
        counters.reset()
        self = AHRS(frame: referenceFrame, settings: settings)
        validator = counters
    }

    /// The current flags.
    public var flags: AHRSFlags {
        var f = AHRSFlags()
        f.atRest = rest.isAtRest
        f.magneticDisturbance = magnetic.isDisturbed
        f.magneticReferenceLearned = magnetic.hasReference
        f.headingInitialised = headingInitialised
        return f
    }

    /// The current internal estimates.
    public var internalStates: AHRSInternalStates {
        var s = AHRSInternalStates()
        s.gyroBias = gyroError.bias
        s.gyroBiasUncertainty = gyroError.uncertainty
        s.gyroScaleError = gyroError.scale
        s.headingCorrection = headingCorrection.angle
        s.magneticDisagreement = headingCorrection.disagreement
        s.magneticReferenceNorm = magnetic.referenceNorm
        s.magneticReferenceDip = magnetic.referenceDip
        s.magnetometerOffset = fieldCalibration?.offset ?? .zero
        s.samplePeriod = coefficients.samplePeriod
        return s
    }

    /// Device → earth (x east, y arbitrary horizontal, z up) from accelerometer and gyro.
    public var quaternion6D: Quaternion {
        @inline(__always) get { attitude6D }
    }

    // MARK: Update

    /// Validates `sample`, steps the filter (9D where the frame uses the magnetometer and the sample
    /// has a field, 6D otherwise) and writes the device motion into `motion`; false if rejected.
    public mutating func update(_ sample: borrowing MotionSample, into motion: inout DeviceMotion) -> Bool {
        let dt: Double
        switch validator.check(sample) {
        case .reject: return false
        case .restart: start(); dt = 0  // the first sample, or after a gap
        case .accept(let d): dt = d
        }
        let rate = step(sample, dt: dt)
        write(sample, rotationRate: rate, into: &motion)
        return true
    }

    /// Every sample: the gyro integration and the acceleration collected for the next correction;
    /// on every `correctionStride`-th sample the corrections, the heading one where there is a field.
    /// Returns the rotation rate corrected for the gyro's bias and scale.
    @inline(__always) @discardableResult
    private mutating func step(_ sample: borrowing MotionSample, dt: Double) -> Vector3 {
        // the first period is adopted at once (start-up matters); then the window's mean, below
        if meanPeriod == 0 && dt > 0 { trackSamplePeriod(dt) }
        let gyro = sample.rotationRate ?? Vector3(0, 0, 0), acceleration = sample.acceleration
        let rate = gyroError.corrected(gyro)
        // Not renormalised here: a product of unit quaternions drifts from unit length by rounding
        // only (~1e-16 a step; the rotation's series is within 1e-10), so once per correction
        // window is enough, and the per-sample chain from one attitude to the next stays short.
        attitude6D = FastMath.product(attitude6D, FastMath.rotation(rate: rate, dt: dt))
        collect(acceleration: acceleration, rate: rate, dt: dt)
        if window.count >= coefficients.correctionStride {
            let duration = window.duration
            if duration > 0 { trackSamplePeriod(duration / Double(window.count)) }
            // the window's turn about the vertical, for the heading's whole-turn average
            let turned = usesMagnetometer ? FastMath.rotate(attitude6D, window.rotation).z : 0
            correct6D(gyro: gyro, acceleration: acceleration)
            // The field is read here only: read on every sample it cost 6D 8 and 9D 12 of its 440
            // and 505 instructions a sample (callgrind), 6D for nothing.
            if usesMagnetometer, let field = sample.magneticField {
                correctHeading(field, dt: duration, turned: turned, timestamp: sample.timestamp)
            }
        }
        return rate
    }

    // MARK: Steps

    /// Fast start-up: the attitude starts level with the first sample's gravity (and, in 9D, the
    /// first field sets the heading at once); the low-passes start as running means.
    private mutating func start() {
        window = CorrectionWindow()
        window.count = coefficients.correctionStride - 1  // correct on the first sample
        gyroAttitude = .identity
        inclination = .identity
        attitude6D = .identity
        accelerationLowPass.start()
        rest.start()
        gyroError.restartAttitude()
        magnetic.restart()
        headingCorrection = HeadingCorrection(maximumRejectionTime: settings.magneticMaximumRejectionTime)
        turnAverage = TurnAveragedField()
        rawTurnAverage = TurnAveragedField()
        headingEvidence = 0
        headingInitialised = false
        refreshOutput()
    }

    /// Follows the measured sample rate so the coefficients match it (jittery or resampled sources).
    /// After the first period, fed once per correction window with the window's mean period (weighed
    /// as its samples, 1 % each), so the per-sample path does not carry it.
    @inline(__always)
    private mutating func trackSamplePeriod(_ dt: Double) {
        if meanPeriod == 0 { meanPeriod = dt } else {
            // a dropped sample must not drag the mean: clamp to half/double
            let weight = min(0.01 * Double(window.count), 0.5)
            meanPeriod += weight * (min(max(dt, 0.5 * meanPeriod), 2 * meanPeriod) - meanPeriod)
        }
        if abs(meanPeriod - coefficients.samplePeriod) > 0.1 * coefficients.samplePeriod { adoptSamplePeriod(meanPeriod) }
    }

    /// Out of line: rare, and inlined it would make every step copy the coefficients.
    @inline(never)
    private mutating func adoptSamplePeriod(_ period: Double) {
        let new = AHRSCoefficients(settings, samplePeriod: period)
        accelerationLowPass.retune(from: coefficients.acceleration, to: new.acceleration)
        coefficients = new
    }

    /// Sums the specific force in the 6D earth frame until the next correction (the inclination is
    /// constant until then, so the sum turns back into the almost-inertial frame as a whole).
    @inline(__always)
    private mutating func collect(acceleration: Vector3, rate: Vector3, dt: Double) {
        window.accelerationSum += FastMath.rotate(attitude6D, -acceleration)
        window.rotation += rate * dt
        window.count += 1
        window.duration += dt
    }

    /// The slow steps, on every `correctionStride`-th sample: rest detection (on that sample),
    /// the inclination correction by the window's mean acceleration, the gyro error estimator.
    /// Out of line: it keeps the every-sample path short.
    @inline(never)
    private mutating func correct6D(gyro: Vector3, acceleration: Vector3) {
        let unincline = inclination.conjugate
        let mean = FastMath.rotate(unincline, window.accelerationSum / Double(window.count))
        attitude6D = FastMath.renormalized(attitude6D)
        gyroAttitude = FastMath.product(unincline, attitude6D)
        rest.update(gyro: gyro, acceleration: acceleration, dt: window.duration, coefficients.rest)
        gyroError.accumulate(attitude: gyroAttitude, rotation: window.rotation, dt: window.duration)
        window = CorrectionWindow()
        correctInclination(mean)
        attitude6D = FastMath.product(inclination, gyroAttitude)
        estimateGyroError()
    }

    /// Rotates the low-passed specific force (inertial frame, g) onto the vertical (VQF's inclination correction).
    @inline(__always)
    private mutating func correctInclination(_ inertial: Vector3) {
        let filtered = accelerationLowPass.filter(inertial, coefficients.acceleration)
        let earth = FastMath.rotate(inclination, filtered)
        let lengthSquared = earth.lengthSquared
        guard lengthSquared > 1e-12 else { return }  // free fall: nothing to correct with
        let a = earth / lengthSquared.squareRoot()
        let w = ((a.z + 1) * 0.5).squareRoot()
        // the half-angle formula breaks down within 1e-6 of a 180° correction: use the x axis there
        let correction = w > 1e-6
            ? Quaternion(w: w, x: 0.5 * a.y / w, y: -0.5 * a.x / w, z: 0)
            : Quaternion(w: 0, x: 1, y: 0, z: 0)
        inclination = FastMath.renormalized(FastMath.product(correction, inclination))
        gyroError.accumulate(tilt: a)
    }

    @inline(__always)
    private mutating func estimateGyroError() {
        guard gyroError.isDue(coefficients.gyroError) else { return }
        gyroError.step(attitude: attitude6D, inclination: inclination,
                       atRest: rest.isAtRest, restRate: rest.meanRotationRate, coefficients.gyroError)
    }

    /// Out of line: it runs at the correction rate only.
    @inline(never)
    private mutating func correctHeading(_ raw: Vector3, dt: Double, turned: Double, timestamp: Double) {
        if raw.x == 0 && raw.y == 0 && raw.z == 0 { return }  // a source's "no reading"
        let field = settings.learnsMagnetometerCalibration ? calibrate(raw, timestamp: timestamp) : raw
        let earthField = FastMath.rotate(attitude6D, field)
        magnetic.update(earthField: earthField, dt: dt, rotationRate: rest.meanRotationRate, coefficients.magnetic)
        if fieldCalibration == nil && settings.learnsMagnetometerCalibration {
            // Turning while the field stays disturbed: the time in which an earth's field would have
            // become the reference (`magneticFirstFieldTime`) passed without one. A field turning with the device.
            // Passing the start-up's provisional reference does not reset it: that field may carry the iron too.
            if !magnetic.isDisturbed && magnetic.hasReference {
                rawFieldRejectedTurning = 0
            } else if rest.meanRotationRate.lengthSquared >= coefficients.magnetic.newFieldMinimumRotationRateSquared {
                rawFieldRejectedTurning += dt
            }
        }
        if headingRestartPending && !magnetic.isDisturbed {
            headingRestartPending = false
            headingCorrection = HeadingCorrection(maximumRejectionTime: settings.magneticMaximumRejectionTime)
            headingEvidence = 0
        }
        if !headingRestartPending {  // else coasting on the gyro
            headingCorrection.update(earthField: earthField, disturbed: magnetic.isDisturbed, dt: dt, coefficients.heading)
            if !magnetic.isDisturbed { headingEvidence += abs(turned) }
        }
        // Coasting through iron that rides along, a whole turn about the vertical still finds north.
        let disturbed = magnetic.isDisturbed || headingRestartPending
        var wholeTurn = turnAverage.add(earthField, turned: turned, dt: dt, disturbed: disturbed)
        if fieldCalibration != nil,
           let rawTurn = rawTurnAverage.add(FastMath.rotate(attitude6D, raw), turned: turned, dt: dt, disturbed: disturbed),
           rawTurn.isRidingIron {
            // The iron bends the raw field by an offset and a symmetric matrix, which a whole turn takes
            // out; a calibration that is off leaves the product of two symmetric matrices, which is not
            // symmetric, and turns the average off north (BROAD's trial 01 with soft iron, jittered: under
            // a fit the field swung by 37 % of its strength over a turn against the raw 20 %, and every
            // turn pointed 30° off). Where the raw field swings too much (a strong magnet), the calibrated.
            wholeTurn = rawTurn
        }
        if let average = wholeTurn, average.isRidingIron {
            // A whole turn sees the field from every heading: it moves the heading at least by its share
            // of all the angles the heading's field was seen over. So the first turns set a heading taken
            // at rest from a bent field (trial 01 with soft iron: 22° off until the first whole turn, 35 s
            // into the movement), and a turn after a field that passed through turns of its own takes
            // a smaller share (the x-io board's two-second spin at 69 s, 9° off, after 12 rad of a
            // passing field: a third of the way).
            headingEvidence += 2 * .pi
            headingCorrection.correct(towards: average.field, over: average.duration,
                                      atLeast: 2 * .pi / headingEvidence, coefficients.heading)
        }
        if !headingInitialised {
            headingInitialised = true
            if referenceFrame == .xArbitraryCorrectedZVertical {
                // keep the arbitrary start heading: undo the first correction from here on
                outputRotation = headingCorrection.rotation.conjugate
            }
        }
        refreshOutput()
    }

    /// Feeds the calibrator and returns the field without the iron learned so far
    /// (`AHRSSettings.learnsMagnetometerCalibration` says when a fit is used).
    private mutating func calibrate(_ raw: Vector3, timestamp: Double) -> Vector3 {
        // Fed only while the field fails the disturbance check, has no reference proven by turning, or a
        // calibration is in use: a field that passes needs none, and a refit every half second was most
        // of 9D's cost (`tiltkit bench fusion`).
        if fieldCalibration != nil || magnetic.isDisturbed || !magnetic.hasReference { fieldCalibrator.add(raw, timestamp: timestamp) }
        let current = fieldCalibration?.apply(raw) ?? raw
        guard let fit = fieldCalibrator.calibration, fit.earnedAccuracy >= .medium else { return current }
        if fit != fieldCalibration {
            // Used only where the readings lie on one sphere (the residual a high fit needs: an early fit
            // around a magnet at 1 cm, BROAD's trial 32, was off by 4.7 % and found 33 µT against the
            // room's 44), and, below high's coverage, with the strength of the earth's field the
            // heading learned where it learned one.
            let reference = magnetic.referenceNorm
            guard fit.residual <= MagnetometerCalibration.highResidual,
                  fit.earnedAccuracy == .high || !magnetic.hasReference
                    || abs(fit.fieldStrength - reference) < coefficients.magnetic.normThreshold * reference
            else { return current }
            let moved = (fit.apply(raw) - current).length
            // The first fit is used only where the raw field keeps failing the disturbance check while the
            // device turns (it turns with the device) and the fit moves it materially: an early fit is off
            // by a few percent, and on a field that already passes it only turns the heading. A high fit
            // with soft iron shows the raw field bent (its strength changes with the direction the device
            // faces, as no room's field does) even where the check, learning as it goes, lets it pass.
            let bent = fit.hasSoftIron && fit.earnedAccuracy == .high
            if fieldCalibration == nil
                && ((rawFieldRejectedTurning < settings.magneticFirstFieldTime && !bent)
                    || moved <= settings.magneticCalibrationMinimum * fit.fieldStrength) { return current }
            if moved > settings.magneticCalibrationRestart * fit.fieldStrength {
                // Where the heading has an earth's field to judge by (learned before the iron came, or
                // from an earlier calibration), the detector judges the newly calibrated field against
                // it: the heading is kept through a fit that is off, or a room's disturbance at the
                // moment of the fit. Without one, the heading so far came from a field turning with the
                // device.
                if magnetic.hasReference {
                    magnetic.restart()
                } else {
                    // The heading starts over once the calibrated field has earned a reference (steady
                    // while turning): a fit that is off (BROAD's trial 32 at 250 Hz found 32 µT around a
                    // magnet at 1 cm) never does, and the heading coasts until a better one.
                    magnetic = .awaitingProvenField()
                    headingRestartPending = true
                }
            }
            fieldCalibration = fit
            // the turn so far saw the field calibrated the old way
            turnAverage = TurnAveragedField()
            rawTurnAverage = TurnAveragedField()
        }
        return fit.apply(raw)
    }
}

/// What `AHRS` collects between two correction steps.
struct CorrectionWindow: Hashable, Sendable {
    /// Sum of the specific force in the 6D earth frame, g.
    var accelerationSum = Vector3.zero
    /// Sum of the corrected rotation rate times the sample period, rad (per axis, not a rotation).
    var rotation = Vector3.zero
    var count = 0
    /// Time covered, s.
    var duration = 0.0
}

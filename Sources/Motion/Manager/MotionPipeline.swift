/// The manager's mutable state, kept behind its mutex: which updates run, their intervals and
/// channels, the device-motion estimator and the reference attitude (not the connection state:
/// see `ConnectionMonitor`). `process` runs on the
/// source's thread for every batch of samples the source read together.
struct MotionPipeline: Sendable {
    var accelerometer = UpdateStream<AccelerometerData>()
    var gyro = UpdateStream<GyroData>()
    var magnetometer = UpdateStream<MagnetometerData>()
    var deviceMotion = UpdateStream<DeviceMotion>()
    var altitude = UpdateStream<AltitudeData>()
    /// Every raw sample, to each observer (`MotionManager.observeSamples`), beside the update types.
    var sampleObservers: [Int: DeliveryChannel<MotionSample>] = [:]
    var nextObserverID = 0
    /// Relative altitude since `altitude` was activated.
    var altimeter = RelativeAltimeter()

    var frame = AttitudeReferenceFrame.xArbitraryZVertical
    var estimation = DeviceMotionEstimatorKind.fusion
    /// Hz, for the accelerometer-only estimator.
    var gravityFilterCutoff = AccelerometerAttitudeEstimator().cutoffFrequency
    var location: GeodeticLocation?
    /// s, for fusion (`AHRSSettings.gyroDelay`).
    var gyroDelay = 0.0
    /// Present while device motion runs.
    var estimator: (any DeviceMotionEstimator)?
    /// The estimator's output, overwritten in place for every sample.
    private var estimate = DeviceMotion()
    /// True when the source has no gyro, so only the accelerometer-only estimate is possible.
    var accelerometerOnlySource = false

    private(set) var referenceAttitude: Attitude?
    /// A reset was asked for before any attitude existed: the next one becomes the reference.
    private var referencePending = false
    /// The last estimated attitude in the frame, before re-referencing.
    private var lastAttitude: Attitude?

    /// The magnetometer's calibration, learned from every field reading (`MagnetometerCalibrator`).
    var magnetometerCalibrator = MagnetometerCalibrator()

    /// The delivered sample rate, from sample timestamps.
    var rateMeter = SampleRateMeter()

    var isAnyActive: Bool {
        accelerometer.isActive || gyro.isActive || magnetometer.isActive || deviceMotion.isActive || altitude.isActive
            || !sampleObservers.isEmpty
    }

    // MARK: Per sample

    /// Each sample of `batch` in order, all stamped `arrivalTime` (they arrived together, by one
    /// read); at the end each update type's newest output is published to its pull slot and its
    /// outputs are handed to its channel together, one lock per channel per batch.
    mutating func process(_ batch: [MotionSample], arrivalTime: Double, into slots: PullSlots) {
        // guarded: iterating even an empty dictionary retains and releases its storage every batch
        if !sampleObservers.isEmpty { for observer in sampleObservers.values { observer.send(contentsOf: batch) } }
        // each sample lent from the batch in place: iterating the array copied every one out first
        batch.withUnsafeBufferPointer { samples in
            for i in samples.indices { process(samples[i]) }
        }
        accelerometer.flush(publishingTo: slots.accelerometer, arrivalTime: arrivalTime)
        gyro.flush(publishingTo: slots.gyro, arrivalTime: arrivalTime)
        magnetometer.flush(publishingTo: slots.magnetometer, arrivalTime: arrivalTime)
        altitude.flush(publishingTo: slots.altitude, arrivalTime: arrivalTime)
        deviceMotion.flush(publishingTo: slots.deviceMotion, arrivalTime: arrivalTime)
    }

    /// Borrowed: a copy is made only where fusion is to see a field other than the raw one.
    private mutating func process(_ sample: borrowing MotionSample) {
        let t = sample.timestamp
        rateMeter.add(timestamp: t)
        if accelerometer.admits(t) { accelerometer.push(AccelerometerData(timestamp: t, acceleration: sample.acceleration)) }
        if let rate = sample.rotationRate, gyro.admits(t) { gyro.push(GyroData(timestamp: t, rotationRate: rate)) }
        if let field = sample.magneticField, magnetometer.admits(t) {
            magnetometer.push(MagnetometerData(timestamp: t, magneticField: field))
        }
        if altitude.isActive, let pressure = sample.pressure,
           let data = altimeter.update(timestamp: t, pressure: pressure), altitude.admits(t) {
            altitude.push(data)
        }
        // Fusion sees every sample, with the field calibrated; only its output is thinned to the interval.
        // The estimator is moved out and back so its existential box stays uniquely referenced:
        // updating it in place through the optional copied the whole estimator for every sample.
        guard deviceMotion.isActive, var running = estimator.take() else { return }
        // The field the estimator is to read instead of the raw one (`.some(nil)`: none), and the
        // calibrated field to publish (nil: the last one published stays).
        var fieldForEstimator: Vector3?? = nil
        var calibrated: Vector3? = nil
        if let raw = sample.magneticField {
            if raw.isFinite {
                let generation = magnetometerCalibrator.generation
                magnetometerCalibrator.add(raw, timestamp: t, gravity: estimate.timestamp > 0 ? estimate.gravity : nil)
                // The fit earned a new level: a heading learned from the field calibrated the old way
                // would take tens of seconds to walk over, so the estimate starts again from this sample.
                if magnetometerCalibrator.generation != generation && frame.usesMagnetometer { running.reset() }
                let field = magnetometerCalibrator.calibrated(raw)
                calibrated = field
                // A disturbed field (strength or dip off what was learned) is kept from fusion, which
                // coasts on the gyro meanwhile rather than turn its heading after a magnet.
                fieldForEstimator = .some(magnetometerCalibrator.isDisturbed ? nil : field)
            } else {
                // A NaN or infinite reading: the sample is fused without it (the heading coasts on the
                // gyro for it, as through a disturbance).
                fieldForEstimator = .some(nil)
            }
        }
        let lastPublishedField = estimate.magneticField
        // 6-axis fusion never reads the field: it takes the sample as it is, uncopied. The
        // accelerometer-only estimator checks the field it is given, so it gets it as 9-axis fusion does.
        let estimatorReadsField = frame.usesMagnetometer || estimation == .accelerometer || accelerometerOnlySource
        let accepted: Bool
        if estimatorReadsField, let field = fieldForEstimator {
            var changed = copy sample
            changed.magneticField = field
            accepted = running.update(changed, into: &estimate)
        } else {
            accepted = running.update(sample, into: &estimate)
        }
        if accepted, sample.magneticField != nil {
            if let field = calibrated {
                let accuracy = estimate.magneticField.accuracy == .low ? .low : magnetometerCalibrator.accuracy
                estimate.magneticField = CalibratedMagneticField(field: field, accuracy: accuracy)
            } else {
                estimate.magneticField = lastPublishedField
            }
        }
        estimator = consume running
        if accepted {
            var motion = estimate
            lastAttitude = motion.attitude
            if referencePending {
                referenceAttitude = motion.attitude
                referencePending = false
            }
            if let reference = referenceAttitude { motion.attitude.multiply(byInverseOf: reference) }
            if deviceMotion.admits(motion.timestamp) {
                deviceMotion.push(motion)
            }
        }
    }

    // MARK: Device motion

    mutating func startDeviceMotion(frame: AttitudeReferenceFrame, hasGyro: Bool,
                                    channel: UpdateChannel<DeviceMotion>?, feed: UpdateFeed<DeviceMotion>? = nil) {
        self.frame = frame
        accelerometerOnlySource = !hasGyro
        deviceMotion.activate(channel: channel, feed: feed)
        estimator = makeEstimator()
        lastAttitude = nil
    }

    mutating func stopDeviceMotion() {
        deviceMotion.deactivate()
        estimator = nil
        lastAttitude = nil
    }

    mutating func setEstimation(_ kind: DeviceMotionEstimatorKind) {
        guard kind != estimation else { return }
        estimation = kind
        if estimator != nil { estimator = makeEstimator() }
    }

    mutating func setGravityFilterCutoff(_ hertz: Double) {
        gravityFilterCutoff = hertz
        if var accelerometerOnly = estimator as? AccelerometerAttitudeEstimator {
            accelerometerOnly.cutoffFrequency = hertz
            estimator = accelerometerOnly
        }
    }

    private func makeEstimator() -> any DeviceMotionEstimator {
        if estimation == .accelerometer || accelerometerOnlySource {
            return AccelerometerAttitudeEstimator(cutoffFrequency: gravityFilterCutoff)
        }
        let declinationDegrees = frame == .xTrueNorthZVertical ? location?.magneticDeclination ?? 0 : 0
        return DeviceMotionEstimatorKind.fusion.make(frame: frame, declination: declinationDegrees * .pi / 180,
                                                     gyroDelay: gyroDelay, calibratedField: true)
    }

    // MARK: Reference attitude

    mutating func resetReferenceAttitude() {
        if let current = lastAttitude {
            referenceAttitude = current
            referencePending = false
        } else {
            referencePending = true
        }
    }

    mutating func clearReferenceAttitude() {
        referenceAttitude = nil
        referencePending = false
    }

    // MARK: Lifecycle

    mutating func deactivateAll() {
        accelerometer.deactivate()
        gyro.deactivate()
        magnetometer.deactivate()
        altitude.deactivate()
        sampleObservers = [:]
        stopDeviceMotion()
    }

    /// The source ended (a replay's last sample): the update types streams consume stop, so each
    /// consumer's `for await` ends after the data it has. Handlers and pulls stay as they are.
    mutating func finishFeeds() {
        if accelerometer.feed != nil { accelerometer.deactivate() }
        if gyro.feed != nil { gyro.deactivate() }
        if magnetometer.feed != nil { magnetometer.deactivate() }
        if altitude.feed != nil { altitude.deactivate() }
        if deviceMotion.feed != nil { stopDeviceMotion() }
    }

    func reportToHandlers(_ error: MotionManagerError) {
        accelerometer.report(error)
        gyro.report(error)
        magnetometer.report(error)
        deviceMotion.report(error)
        altitude.report(error)
    }
}

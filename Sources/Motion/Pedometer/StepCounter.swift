/// The pedometer's pure core: steps from accelerometer samples (`StepDetector`), merged with a
/// device's own step counter where one is read (`updateDeviceCounter`), floors from altitude
/// (`FloorCounter`, kept only where they were walked: `isWalked`), and what `CMPedometerData`
/// reports over any range of what it has seen.
///
///     var counter = StepCounter()
///     for sample in trace.samples { counter.update(sample) }
///     counter.finish()
///     let data = counter.data()                  // everything; or data(from: t0, to: t1)
///     print(data.numberOfSteps, data.distance ?? 0)
///
/// Memory grows by two `Double`s a step (about 160 kB for 10 000 steps).
public struct StepCounter: Sendable {
    public var stepLength: StepLengthModel
    /// Steps within this many seconds before the end of a range give its current cadence.
    public var cadenceWindow = 5.0
    /// Share of a floor's climb or descent, 0…1, that must be spent stepping for it to count (`isWalked`).
    public var walkedFloorShare = 0.5
    public private(set) var detector: StepDetector
    public private(set) var floors: FloorCounter
    /// Turns `MotionSample.pressure` (kPa) into relative altitude for the floors.
    public private(set) var altimeter = RelativeAltimeter()
    /// Every counted step's time, s, in order, and its length, m.
    public private(set) var stepTimes: [Double] = []
    public private(set) var stepLengths: [Double] = []
    /// Running sums up to and including each step: distance m, and time walking s (intervals up to
    /// `maximumStepInterval`), so a range's totals cost two look-ups however long the record.
    private var distanceSums: [Double] = []
    private var activeSums: [Double] = []
    /// Every floor's worth of height the altitude changed by, walked or not (a lift's too): `data`
    /// counts those walked.
    public private(set) var floorChanges: [FloorChange] = []
    /// A device's own step counter's readings (`updateDeviceCounter`): where they cover a stretch of
    /// time, its steps there replace the accelerometer's, as Core Motion counts from its motion
    /// coprocessor; the accelerometer counts the rest (before the first reading, across a gap).
    public private(set) var device = DeviceStepSeries()
    /// Whether any altitude was fed: floors are nil without it.
    public private(set) var hasAltitude = false
    /// First and last sample time seen, s.
    public private(set) var firstTime: Double?
    public private(set) var lastTime: Double?

    public init(settings: StepDetectorSettings = .default, stepLength: StepLengthModel = .default,
                floors: FloorCounter.Settings = .default) {
        detector = StepDetector(settings: settings)
        self.stepLength = stepLength
        self.floors = FloorCounter(settings: floors)
    }

    /// Feeds one sample (its acceleration, and its pressure when it has one); returns how many
    /// steps now count that did not before.
    @discardableResult
    public mutating func update(_ sample: MotionSample) -> Int {
        if let pressure = sample.pressure, let altitude = altimeter.update(timestamp: sample.timestamp, pressure: pressure) {
            updateAltitude(time: altitude.timestamp, relativeAltitude: altitude.relativeAltitude)
        }
        if sample.timestamp.isFinite {
            if firstTime == nil { firstTime = sample.timestamp }
            lastTime = max(lastTime ?? sample.timestamp, sample.timestamp)
        }
        var found: [Double] = []  // empty, so no allocation, unless a step counts
        detector.update(sample) { found.append($0) }
        for t in found { record(t) }
        return found.count
    }

    /// Feeds one altitude reading, m relative to any fixed level (a barometer's).
    public mutating func updateAltitude(time: Double, relativeAltitude: Double) {
        hasAltitude = true
        let change = floors.update(time: time, relativeAltitude: relativeAltitude)
        if change != 0 { floorChanges.append(FloorChange(time: time, change: change, start: floors.lastChangeStart)) }
    }

    /// Feeds one reading of a device's own step counter at `time` (s, the samples' clock).
    public mutating func updateDeviceCounter(time: Double, reading: Int) {
        device.add(time: time, reading: reading)
    }

    /// Counts what the detector still holds: call at the end of a recording.
    @discardableResult
    public mutating func finish() -> Int {
        var found: [Double] = []
        detector.finish { found.append($0) }
        for t in found { record(t) }
        return found.count
    }

    private mutating func record(_ time: Double) {
        let previous = stepTimes.last
        stepTimes.append(time)
        let length = stepLength.length(atCadence: localCadence(endingAt: stepTimes.count - 1))
        stepLengths.append(length)
        distanceSums.append((distanceSums.last ?? 0) + length)
        var interval = 0.0
        if let previous, time - previous <= detector.settings.maximumStepInterval { interval = max(0, time - previous) }
        activeSums.append((activeSums.last ?? 0) + interval)
    }

    /// Steps/s from the median of the last (up to 4) intervals of the walk ending at step `i`.
    private func localCadence(endingAt i: Int) -> Double? {
        var intervals: [Double] = []
        var j = i
        while j > 0, intervals.count < 4 {
            let d = stepTimes[j] - stepTimes[j - 1]
            guard d > 0, d <= detector.settings.maximumStepInterval else { break }
            intervals.append(d)
            j -= 1
        }
        guard !intervals.isEmpty else { return nil }
        intervals.sort()
        return 1 / intervals[intervals.count / 2]
    }

    /// What was measured in [`start`, `end`] s (default: all of it); nothing for an empty or NaN range.
    public func data(from start: Double? = nil, to end: Double? = nil) -> PedometerData {
        let t0 = start ?? firstTime ?? 0
        let t1 = end ?? lastTime ?? t0
        guard !t0.isNaN, !t1.isNaN else { return PedometerData(start: t0, end: t1, numberOfSteps: 0) }
        let lo = lowerBound(t0), hi = max(lo, lowerBound(t1.nextUp))  // an end before the start: nothing
        let accelerometerSteps = hi - lo
        var distance = 0.0, active = 0.0
        if hi > lo {
            distance = distanceSums[hi - 1] - (lo > 0 ? distanceSums[lo - 1] : 0)
            active = activeSums[hi - 1] - activeSums[lo]  // the first step's interval lies before the range
        }
        let steps = mergedSteps(from: t0, to: t1, accelerometer: accelerometerSteps)
        if steps != accelerometerSteps {  // the device's steps, at the accelerometer's step lengths
            distance = accelerometerSteps > 0 ? distance * Double(steps) / Double(accelerometerSteps)
                : Double(steps) * stepLength.length(atCadence: nil)
        }
        var data = PedometerData(start: t0, end: t1, numberOfSteps: steps, distance: distance)
        if hasAltitude {
            var up = 0, down = 0
            for f in floorChanges where f.time >= t0 && f.time <= t1 && isWalked(f) {
                if f.change > 0 { up += f.change } else { down -= f.change }
            }
            data.floorsAscended = up
            data.floorsDescended = down
        }
        if active > 0, distance > 0 { data.averageActivePace = active / distance }
        // Current: the steps in the last `cadenceWindow` s of the range.
        let recent = lowerBound(t1 - cadenceWindow)
        let first = max(recent, lo)
        if hi - first >= 3 {
            let span = stepTimes[hi - 1] - stepTimes[first]
            if span > 0 {
                let cadence = Double(hi - 1 - first) / span
                data.currentCadence = cadence
                let length = stepLength.length(atCadence: cadence)
                if length > 0 { data.currentPace = 1 / (cadence * length) }
            }
        }
        return data
    }

    /// The accelerometer's `steps` in [`t0`, `t1`], with every stretch the device counter covers
    /// counted by the device instead.
    private func mergedSteps(from t0: Double, to t1: Double, accelerometer steps: Int) -> Int {
        let stretches = device.covered(from: t0, to: t1.nextUp)
        guard !stretches.isEmpty else { return steps }
        var total = Double(steps)
        for s in stretches { total += s.steps - Double(lowerBound(s.end) - lowerBound(s.start)) }
        return max(0, Int(total.rounded()))
    }

    /// Index of the first step at or after `t`.
    func lowerBound(_ t: Double) -> Int { stepTimes.partitionPoint { $0 < t } }
}

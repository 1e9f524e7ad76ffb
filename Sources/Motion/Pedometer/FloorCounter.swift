/// Counts floors climbed and descended from relative altitude (m), with hysteresis: a floor counts
/// when the altitude has moved `floorHeight` from the reference, so barometric noise (tenths of a
/// metre) never counts. The reference is where the walker last stood still in height (a landing:
/// the altitude settled within `settledTolerance` of its slow average), so a 3.2 m storey after a
/// 3.2 m storey counts two, not one and a fraction; it also follows the altitude slowly
/// (`driftTimeConstant`), so weather (about 1 hPa, 8 m, in hours) adds no floors over a day.
///
///     var floors = FloorCounter()
///     floors.update(time: t, relativeAltitude: metres)
///     floors.ascended    // 2
///
/// Apple documents CMPedometer's floors as about 3 m (10 ft) each ("CMPedometerData.floorsAscended").
/// This counts any change of height, a lift's too; `StepCounter` keeps only those made while walking,
/// from `lastChangeStart`.
public struct FloorCounter: Hashable, Sendable {
    public struct Settings: Hashable, Sendable {
        /// Height of a floor, m. Apple: about 3 m.
        public var floorHeight: Double
        /// Time constant, s, of the low-pass over the altitude (pressure sensors are noisy).
        public var smoothing: Double
        /// Time constant, s, with which the reference follows the altitude: far longer than a flight
        /// of stairs (≈10 s a floor), far shorter than weather.
        public var driftTimeConstant: Double
        /// The altitude is settled (a landing, a floor) while within this many metres of its average
        /// over `settleTimeConstant` s; the reference then moves to it.
        public var settledTolerance: Double
        public var settleTimeConstant: Double
        /// A hole longer than this, s, restarts from the next altitude instead of counting across it.
        public var maximumGap: Double

        public init(floorHeight: Double = 3, smoothing: Double = 1, driftTimeConstant: Double = 300,
                    settledTolerance: Double = 0.5, settleTimeConstant: Double = 10, maximumGap: Double = 60) {
            self.settledTolerance = settledTolerance
            self.settleTimeConstant = settleTimeConstant
            self.floorHeight = floorHeight
            self.smoothing = smoothing
            self.driftTimeConstant = driftTimeConstant
            self.maximumGap = maximumGap
        }

        public static let `default` = Settings()
    }

    public let settings: Settings
    public private(set) var ascended = 0
    public private(set) var descended = 0
    /// The smoothed altitude, m, and the reference a floor is counted from.
    public private(set) var altitude: Double?
    /// When the last counted floor's height began to be gained, s: the last time before it that the
    /// smoothed altitude stood a floor lower (a floor higher for one down), within `settledTolerance`.
    /// So a lift ridden after a walk up the stairs spans the ride, not the walk before it.
    public private(set) var lastChangeStart = 0.0
    private var reference = 0.0
    private var slow = 0.0
    private var lastTime = 0.0
    /// The smoothed altitude over `driftTimeConstant`: a floor gained more slowly than that is weather.
    private var trail: AltitudeTrail

    public init(settings: Settings = .default) {
        self.settings = settings
        trail = AltitudeTrail(duration: settings.driftTimeConstant, spacing: 0.25)
    }

    /// Feeds one reading; returns the floors it completed (+ up, − down, usually 0). Non-finite
    /// readings and times not after the last are ignored.
    @discardableResult
    public mutating func update(time: Double, relativeAltitude h: Double) -> Int {
        guard time.isFinite, h.isFinite, abs(h) < 1e5 else { return 0 }
        guard let smoothed = altitude, time - lastTime <= settings.maximumGap else {
            altitude = h
            reference = h
            slow = h
            lastTime = time
            trail.reset()
            trail.add(time: time, altitude: h)
            return 0
        }
        let dt = time - lastTime
        guard dt > 0 else { return 0 }
        lastTime = time
        let a = smoothed + (h - smoothed) * min(1, dt / max(settings.smoothing, 1e-9))
        altitude = a
        slow += (a - slow) * min(1, dt / max(settings.settleTimeConstant, 1e-9))
        if abs(a - slow) < settings.settledTolerance && abs(a - reference) < settings.floorHeight {
            reference = slow  // standing on a floor: count the next one from its settled height
        } else {
            reference += (a - reference) * min(1, dt / max(settings.driftTimeConstant, 1e-9))
        }
        let floor = max(settings.floorHeight, 0.1)
        var change = 0
        while a - reference >= floor {
            reference += floor
            change += 1
        }
        while reference - a >= floor {
            reference -= floor
            change -= 1
        }
        if change > 0 { ascended += change } else if change < 0 { descended -= change }
        if change != 0 {
            let level = a - Double(change) * floor + (change > 0 ? 1 : -1) * settings.settledTolerance
            lastChangeStart = trail.lastTime(at: level, above: change < 0) ?? time
        }
        trail.add(time: time, altitude: a)
        return change
    }
}

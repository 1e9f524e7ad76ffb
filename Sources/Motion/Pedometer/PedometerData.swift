/// What the pedometer measured over a time range, as Core Motion's `CMPedometerData`. Times are
/// seconds on the source's clock (trace time for replays); nil where it cannot be known.
public struct PedometerData: Hashable, Sendable {
    /// Start and end of the range, s.
    public var start: Double
    public var end: Double
    /// Steps taken in the range.
    public var numberOfSteps: Int
    /// Distance walked, m: the sum of the steps' lengths (`StepLengthModel`).
    public var distance: Double?
    /// Floors climbed and descended, about 3 m each (`FloorCounter`); nil without altitude.
    public var floorsAscended: Int?
    public var floorsDescended: Int?
    /// Seconds per metre at the end of the range; nil when not walking then.
    public var currentPace: Double?
    /// Steps per second at the end of the range; nil when not walking then.
    public var currentCadence: Double?
    /// Seconds per metre over the time spent walking in the range (pauses left out).
    public var averageActivePace: Double?

    public init(start: Double, end: Double, numberOfSteps: Int, distance: Double? = nil,
                floorsAscended: Int? = nil, floorsDescended: Int? = nil, currentPace: Double? = nil,
                currentCadence: Double? = nil, averageActivePace: Double? = nil) {
        self.start = start
        self.end = end
        self.numberOfSteps = numberOfSteps
        self.distance = distance
        self.floorsAscended = floorsAscended
        self.floorsDescended = floorsDescended
        self.currentPace = currentPace
        self.currentCadence = currentCadence
        self.averageActivePace = averageActivePace
    }
}

/// The walk check: a step counts only as part of a walk, a run of at least `minimumSteps` steps
/// each within `maximumInterval` of the last, confirmed while the signal is periodic. Once
/// confirmed, the held steps all count and later steps count at once until a pause. This is the
/// "walk must persist" rule step counters use against bumps and fumbles (Brajdic & Harle, "Walk
/// detection and step counting on unconstrained smartphones", UbiComp 2013, compare such walk
/// detectors, the autocorrelation among them).
struct StepRhythm {
    let minimumSteps: Int
    let maximumInterval: Double
    /// Steps held while a walk waits for periodicity; older ones are dropped.
    private static let heldLimit = 64

    private var held: [Double] = []
    private var last: Double?
    private(set) var isWalking = false

    init(minimumSteps: Int, maximumInterval: Double) {
        self.minimumSteps = max(1, minimumSteps)
        self.maximumInterval = maximumInterval
        held.reserveCapacity(Self.heldLimit)
    }

    /// Takes a detected step at `time` (s) and calls `count` with every step time that now counts.
    mutating func add(_ time: Double, periodic: Bool, _ count: (Double) -> Void) {
        defer { last = time }
        if let last, time > last, time - last <= maximumInterval {
            if isWalking {
                count(time)
                return
            }
        } else {
            isWalking = false
            held.removeAll(keepingCapacity: true)
        }
        if held.count == Self.heldLimit { held.removeFirst() }
        held.append(time)
        guard periodic, held.count >= minimumSteps else { return }
        isWalking = true
        for t in held { count(t) }
        held.removeAll(keepingCapacity: true)
    }
}

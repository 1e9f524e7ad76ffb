/// The Oxford optimisation set's truth, recounted from its foot-worn sensor's log
/// (`data/<dir>/stepcounter.csv`: ns, foot 1 contact 0/1, foot 2 contact 0/1, polled every 90 ms).
/// The dataset's `stats.csv` counts every 0 → 1 of either foot (its `stats.js`), which takes the
/// sensor's two faults for steps:
/// - a **bounce**: a contact opens for a poll in mid-stance and closes again (`10 10 00 10`), a
///   second rise of the same foot 0.2–0.45 s after the first. A foot cannot land twice within
///   `minimumStride` (a stride is two steps: 0.9 s at the set's fastest cadence, 0.45 s steps),
///   so that rise is left out. The swinging-arm walks hold 20 and 15, 7 % and 5.6 % of their
///   stats.csv counts; the armband walks up to 14.
/// - a **missed landing**: one foot's contact never closes for a step (`01 … 00 00 00 00 00 00 01`,
///   no contact at all for 0.5 s), so the other foot rises twice in a row about a stride apart.
///   Feet alternate while walking, so a repeat `strideSpan` step intervals apart (the median
///   interval) holds one landing more. Samsung_Dario_Hard_FrontPocket_1 misses 14.
public enum OxfordFootSensor {
    /// Shortest time, s, between two landings of one foot that both count.
    public static let minimumStride = 0.5
    /// Gaps between two rises of one foot, in median step intervals, that hold a missed landing.
    public static let strideSpan = 1.5...2.5

    public struct Count: Equatable, Sendable {
        /// Landings: rises of either foot, bounces out, missed landings in.
        public var steps: Int
        public var bounces: Int
        public var missedLandings: Int

        public init(steps: Int, bounces: Int, missedLandings: Int) {
            self.steps = steps
            self.bounces = bounces
            self.missedLandings = missedLandings
        }
    }

    /// The log's count; nil when a line is not `ns,0|1,0|1`.
    public static func count(log text: String) -> Count? {
        guard let rises = rises(in: text) else { return nil }
        var landings: [(time: Double, foot: Int)] = []
        var lastRise: [Double?] = [nil, nil]
        var bounces = 0
        for rise in rises {
            defer { lastRise[rise.foot] = rise.time }
            if let last = lastRise[rise.foot], rise.time - last < minimumStride { bounces += 1 } else { landings.append(rise) }
        }
        guard landings.count > 2 else { return Count(steps: landings.count, bounces: bounces, missedLandings: 0) }
        let intervals = zip(landings, landings.dropFirst()).map { $1.time - $0.time }.sorted()
        let step = intervals[intervals.count / 2]
        let missed = zip(landings, landings.dropFirst()).filter { a, b in
            a.foot == b.foot && strideSpan.contains((b.time - a.time) / step)
        }.count
        return Count(steps: landings.count + missed, bounces: bounces, missedLandings: missed)
    }

    /// Every 0 → 1 of either foot's contact, s; the first poll is the state, not a change.
    private static func rises(in text: String) -> [(time: Double, foot: Int)]? {
        var rises: [(time: Double, foot: Int)] = []
        var previous: [Int]?
        for line in text.split(whereSeparator: \.isNewline) where !line.isEmpty {
            let cells = line.split(separator: ",")
            guard cells.count == 3, let ns = Int64(cells[0]), let a = Int(cells[1]), let b = Int(cells[2]),
                  (0...1).contains(a), (0...1).contains(b) else { return nil }
            let contact = [a, b]
            if let previous {
                for foot in 0..<2 where previous[foot] == 0 && contact[foot] == 1 { rises.append((Double(ns) / 1e9, foot)) }
            }
            previous = contact
        }
        return rises
    }
}

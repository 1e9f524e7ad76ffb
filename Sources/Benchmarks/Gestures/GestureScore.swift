import Demo
import Foundation

/// Fired gestures against the labels: per gesture precision, recall and the latency from the
/// truth's onset; false fires per minute of rolling and of walking; the fires no label can judge,
/// per minute of everything scored (the labels speak for the rest). Pure, so tests can score
/// hand-made fires.
public struct GestureScore: Hashable, Sendable, Codable {
    /// A fire counts toward a wanted (or unscored) label from the label's start until this long
    /// after its end: the detector's buffer (50 ms) and the next frame (17 ms) come after the
    /// motion, with margin. Labels where nothing should fire cover their own span only.
    public static let lateness = 0.3

    public struct PerGesture: Hashable, Sendable, Codable {
        public var labels = 0
        public var found = 0
        public var fires = 0
        public var trueFires = 0
        /// Fires the labels cannot judge: in an `ignore` stretch, or a duck where no label is
        /// (BROAD's truth is orientation only, so a push outside a labelled rotation is unknowable).
        public var unjudged = 0
        /// Fire time − truth onset, seconds, for found labels with an onset.
        public var latencies: [Double] = []

        public var precision: Double { fires == 0 ? 1 : Double(trueFires) / Double(fires) }
        public var recall: Double { labels == 0 ? 1 : Double(found) / Double(labels) }
        /// The latency at quantile `q` (nearest rank, as the bench prints it), seconds; nil when none.
        public func latency(at q: Double) -> Double? {
            guard !latencies.isEmpty else { return nil }
            let sorted = latencies.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q + 0.5))]
        }

        private enum DerivedKeys: String, CodingKey { case precision, recall, medianLatency, p90Latency }

        /// The counts, and what the bench prints from them (precision, recall, latency's median and
        /// p90), so a reader of the JSON need not repeat the rules.
        public func encode(to encoder: any Encoder) throws {
            var counts = encoder.container(keyedBy: CodingKeys.self)
            try counts.encode(labels, forKey: .labels)
            try counts.encode(found, forKey: .found)
            try counts.encode(fires, forKey: .fires)
            try counts.encode(trueFires, forKey: .trueFires)
            try counts.encode(unjudged, forKey: .unjudged)
            try counts.encode(latencies, forKey: .latencies)
            var derived = encoder.container(keyedBy: DerivedKeys.self)
            try derived.encode(precision, forKey: .precision)
            try derived.encode(recall, forKey: .recall)
            try derived.encodeIfPresent(latency(at: 0.5), forKey: .medianLatency)
            try derived.encodeIfPresent(latency(at: 0.9), forKey: .p90Latency)
        }
    }

    public var jump = PerGesture()
    public var duck = PerGesture()
    /// Fires (either gesture) inside roll labels, and the rolling they span, seconds.
    public var rollFires = 0
    public var rollSeconds = 0.0
    /// Fires inside walk, jog and stairs labels, and their length, seconds.
    public var walkFires = 0
    public var walkSeconds = 0.0
    /// The scored recordings' length, seconds.
    public var recordedSeconds = 0.0
    /// Each false fire and each missed label, one line ("recording t gesture: labels here"), for `--list`.
    public var mistakes: [String] = []
    /// Each fire no label judges, one line in the same form, for `--list`: what is left to label.
    public var unjudgedFires: [String] = []

    public init() {}

    public var rollFiresPerMinute: Double { rollSeconds > 0 ? Double(rollFires) / rollSeconds * 60 : 0 }
    public var walkFiresPerMinute: Double { walkSeconds > 0 ? Double(walkFires) / walkSeconds * 60 : 0 }
    public var unjudgedPerMinute: Double {
        recordedSeconds > 0 ? Double(jump.unjudged + duck.unjudged) / recordedSeconds * 60 : 0
    }

    public static let walkingKinds: Set<String> = ["walk", "jog", "stairs"]

    /// Adds one recording: its labels, its length and the gestures the game fired (times from its first sample).
    public mutating func add(labels: [GestureLabel], recording: String = "", seconds: Double,
                             fires: [(t: Double, gesture: CartReplayEvent.Gesture)]) {
        recordedSeconds += seconds
        // Only a label that can make a gesture fire (wanted or not called) is late: a fire 0.2 s
        // after a tip away or a roll ends comes from whatever follows it.
        func covers(_ label: GestureLabel, _ t: Double) -> Bool {
            t >= label.start && t <= label.end + (label.expect == .none ? 0 : Self.lateness)
        }
        func kinds(_ here: [Int]) -> String {
            here.isEmpty ? "no label" : here.map { labels[$0].kind }.joined(separator: ", ")
        }
        var matched = Set<Int>()
        for label in labels {
            if label.kind == "roll" { rollSeconds += label.duration }
            if Self.walkingKinds.contains(label.kind) { walkSeconds += label.duration }
            if label.expect == .jump { jump.labels += 1 }
            if label.expect == .duck { duck.labels += 1 }
        }
        for fire in fires.sorted(by: { $0.t < $1.t }) {
            let here = labels.indices.filter { covers(labels[$0], fire.t) }
            if here.contains(where: { labels[$0].kind == "roll" }) { rollFires += 1 }
            if here.contains(where: { Self.walkingKinds.contains(labels[$0].kind) }) { walkFires += 1 }
            let wanted: GestureLabel.Expect = fire.gesture == .jump ? .jump : .duck
            let allowed: GestureLabel.Expect? = fire.gesture == .jump ? .jumpAllowed : nil
            // The earliest unmatched label that wants this gesture takes the fire, else one that allows
            // it (right, though not required: once per label, as a label that wants it).
            let open = here.filter { !matched.contains($0) }
            if let hit = open.first(where: { labels[$0].expect == wanted }) ?? open.first(where: { labels[$0].expect == allowed }) {
                matched.insert(hit)
                let required = labels[hit].expect == wanted
                update(fire.gesture) { g in
                    g.fires += 1; g.trueFires += 1
                    guard required else { return }
                    g.found += 1
                    if labels[hit].onset.isFinite { g.latencies.append(fire.t - labels[hit].onset) }
                }
            } else if (here.contains(where: { labels[$0].expect == .ignore }) && !here.contains(where: { labels[$0].expect == .none }))
                        || (fire.gesture == .duck && here.isEmpty) {
                update(fire.gesture) { $0.unjudged += 1 }   // the truth cannot call it either way
                unjudgedFires.append("unjudged \(fire.gesture.rawValue) \(recording) \(fixed(fire.t)) s in: \(kinds(here))")
            } else {
                update(fire.gesture) { $0.fires += 1 }
                mistakes.append("false \(fire.gesture.rawValue) \(recording) \(fixed(fire.t)) s in: \(kinds(here))")
            }
        }
        for (index, label) in labels.enumerated() where (label.expect == .jump || label.expect == .duck) && !matched.contains(index) {
            mistakes.append("missed \(label.expect.rawValue) \(recording) \(fixed(label.start))–\(fixed(label.end)) s (\(label.kind))")
        }
    }

    private func fixed(_ t: Double) -> String { String(format: "%.3f", t) }

    private mutating func update(_ gesture: CartReplayEvent.Gesture, _ change: (inout PerGesture) -> Void) {
        switch gesture {
        case .jump: change(&jump)
        case .duck: change(&duck)
        }
    }
}

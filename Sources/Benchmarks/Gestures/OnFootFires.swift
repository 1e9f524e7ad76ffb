import CartGame
import Demo
import Foundation
import Motion

/// `tiltkit bench on-foot`: what the cart game fires over recordings in which the player only walks,
/// jogs or climbs stairs (every fire is false), one row per recording and a line per subject, never
/// pooled: a gate fitted to a few people must hold for each of the others.
///
///     let rows = try OnFootFires.measure(urls)            // each replayed through the game's headless path
///     print(OnFootFires.table(rows))
public enum OnFootFires {
    public struct Row: Sendable, Encodable {
        public var recording: String
        /// From a MotionSense-style name (`wlk_7_sub_5.csv`), else the file name.
        public var subject: String
        /// The name's activity code (wlk, jog, ups, dws), else "-".
        public var activity: String
        public var seconds: Double
        public var jumps: Int
        public var ducks: Int
        /// Times the gestures went from held to running after the first hold (each one a gap in the gate).
        public var reopenings: Int
        /// Seconds the gestures ran (the gate open), from the first hold to the end.
        public var secondsOpen: Double

        public var firesPerMinute: Double { seconds > 0 ? Double(jumps + ducks) * 60 / seconds : 0 }
    }

    /// A labelled stretch of a recording in which the player walks or climbs (the rest, such as the
    /// turns between them, is not judged).
    public struct Stretch: Sendable, Hashable {
        public var activity: String
        public var start: Double
        public var end: Double
    }

    /// One recording to replay: the whole of it on foot, or only its `stretches`, from its notes.
    public struct Recording: Sendable {
        public var url: URL
        /// The `# subject:` note, else from the file name.
        public var subject: String?
        /// From the `# on_foot_spans:` note (`wlk 10.00 21.64; ups ...`, seconds in the trace);
        /// empty: the whole recording is on foot.
        public var stretches: [Stretch]

        public init(url: URL, notes: [String: String] = [:]) throws {
            self.url = url
            subject = notes["subject"]
            stretches = []
            guard let spans = notes["on_foot_spans"] else { return }
            for part in spans.split(separator: ";") {
                let cells = part.split(separator: " ")
                guard cells.count == 3, let start = Double(cells[1]), let end = Double(cells[2]),
                      start.isFinite, end.isFinite, start < end else {
                    throw OnFootError(file: url.path, problem: "on_foot_spans: '\(part.trimmingCharacters(in: .whitespaces))' is not ACTIVITY START END (seconds, start before end)")
                }
                stretches.append(Stretch(activity: String(cells[0]), start: start, end: end))
            }
            if stretches.isEmpty { throw OnFootError(file: url.path, problem: "on_foot_spans: no stretch") }
            // overlapping stretches would count their shared seconds twice
            let ordered = stretches.sorted { $0.start < $1.start }
            for (before, after) in zip(ordered, ordered.dropFirst()) where after.start < before.end {
                throw OnFootError(file: url.path, problem: "on_foot_spans: \(after.activity) from \(after.start) s overlaps \(before.activity) until \(before.end) s")
            }
        }
    }

    public struct OnFootError: Error, CustomStringConvertible {
        public var file: String
        public var problem: String
        public var description: String { "\(file): \(problem)" }
    }

    /// Replays each recording through the game (pose detected, as a player who chose none).
    public static func measure(_ urls: [URL], progress: (String) -> Void = { _ in }) throws -> [Row] {
        try measure(urls.map { try Recording(url: $0) }, progress: progress)
    }

    /// As `measure(_:)`; a recording with stretches gives a row per activity, judged in its stretches only.
    public static func measure(_ recordings: [Recording], progress: (String) -> Void = { _ in }) throws -> [Row] {
        try recordings.flatMap { recording in
            progress(recording.url.lastPathComponent)
            let trace = try Trace.load(contentsOf: recording.url)
            let result = try CartReplay.run(trace: trace, options: CartReplay.Options(seed: 1))
            let name = recording.url.lastPathComponent
            var rows = recording.stretches.isEmpty ? [row(name: name, events: result.events, seconds: trace.duration)]
                : inFirstOrder(recording.stretches.map(\.activity)).map { activity in
                    let judged = recording.stretches.filter { $0.activity == activity }
                    var part = row(name: name, events: result.events, seconds: trace.duration, judged: judged)
                    part.recording += " " + activity
                    part.activity = activity
                    return part
                }
            if let subject = recording.subject { for i in rows.indices { rows[i].subject = subject } }
            return rows
        }
    }

    /// `names` without repeats, each where it first appears.
    static func inFirstOrder(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// The row for `events`, counted over the whole recording or, given `judged`, inside those stretches only.
    static func row(name: String, events: [CartReplayEvent], seconds: Double, judged: [Stretch]? = nil) -> Row {
        let stretches = judged ?? [Stretch(activity: "-", start: -.infinity, end: .infinity)]
        func inside(_ t: Double) -> Bool { stretches.contains { $0.start <= t && t <= $0.end } }
        /// Seconds of `from...to` inside the stretches.
        func overlap(_ from: Double, _ to: Double) -> Double {
            stretches.reduce(0) { $0 + max(0, min(to, $1.end) - max(from, $1.start)) }
        }
        var jumps = 0, ducks = 0, reopenings = 0
        var everHeld = false
        var openSince: Double?
        var secondsOpen = 0.0
        for event in events {
            switch event {
            case .gesture(let t, .jump, _, _) where inside(t): jumps += 1
            case .gesture(let t, .duck, _, _) where inside(t): ducks += 1
            case .gestureHold(let t, .some):
                if let since = openSince { secondsOpen += overlap(since, t) }
                openSince = nil
                everHeld = true
            case .gestureHold(let t, nil):
                if everHeld {
                    if inside(t) { reopenings += 1 }
                    openSince = t
                }
            default: break
            }
        }
        if let since = openSince { secondsOpen += overlap(since, seconds) }
        let judgedSeconds = judged.map { $0.reduce(0) { $0 + ($1.end - $1.start) } } ?? seconds
        let stem = name.replacingOccurrences(of: ".csv", with: "")
        let parts = stem.split(separator: "_")
        let subject = parts.count >= 4 && parts[parts.count - 2] == "sub" ? String(parts.last!) : stem
        let activity = parts.count >= 4 && ["wlk", "jog", "ups", "dws"].contains(String(parts[0])) ? String(parts[0]) : "-"
        return Row(recording: stem, subject: subject, activity: activity, seconds: judgedSeconds, jumps: jumps, ducks: ducks,
                   reopenings: reopenings, secondsOpen: secondsOpen)
    }

    /// One line per recording, grouped by subject, each subject's worst recording after its rows.
    public static func table(_ rows: [Row], limitPerMinute: Double = 1) -> String {
        var table = TextTable(["subject", "recording", "min", "jumps", "ducks", "fires/min", "reopened", "open s"],
                              alignments: [.left, .left, .right, .right, .right, .right, .right, .right])
        let subjects = Dictionary(grouping: rows, by: \.subject)
        // "2" before "10", "HAPT 2" before "HAPT 10": by the name before a trailing number, then the number
        func key(_ subject: String) -> (String, Int, String) {
            let digits = subject.reversed().prefix { $0.isNumber }
            return (String(subject.dropLast(digits.count)), Int(String(digits.reversed())) ?? .max, subject)
        }
        let order = subjects.keys.sorted { key($0) < key($1) }
        var over: [String] = []
        for subject in order {
            for row in subjects[subject]! {
                table.append([row.subject, row.recording, String(format: "%.1f", row.seconds / 60), "\(row.jumps)", "\(row.ducks)",
                              String(format: "%.2f", row.firesPerMinute), "\(row.reopenings)", String(format: "%.1f", row.secondsOpen)])
                if row.firesPerMinute > limitPerMinute { over.append(row.recording) }
            }
        }
        let summary = order.map { subject in
            let worst = subjects[subject]!.map(\.firesPerMinute).max() ?? 0
            return String(format: "%@ %.2f", subject, worst)
        }
        // Each subject over all its recordings, and each activity over every subject's: a total, never pooled further.
        let subjectsOver = order.filter { Self.firesPerMinute(subjects[$0]!) > limitPerMinute }
        let byActivity = inFirstOrder(rows.map(\.activity)).map { activity in
            let its = rows.filter { $0.activity == activity }
            return String(format: "%@ %d in %.1f min (%.2f/min)", activity, its.reduce(0) { $0 + $1.jumps + $1.ducks },
                          its.reduce(0) { $0 + $1.seconds } / 60, Self.firesPerMinute(its))
        }
        return table.rendered + "\nworst fires/min per subject: " + summary.joined(separator: ", ")
            + String(format: "\nrecordings over %.1f fires/min: %d of %d", limitPerMinute, over.count, rows.count)
            + (over.isEmpty ? "" : " (" + over.joined(separator: ", ") + ")")
            + String(format: "\nsubjects over %.1f fires/min over all their recordings: %d of %d", limitPerMinute, subjectsOver.count, order.count)
            + (subjectsOver.isEmpty ? "" : " (" + subjectsOver.joined(separator: ", ") + ")")
            + String(format: "\nall: %d jumps, %d ducks in %.1f min (%.2f/min); by activity: ",
                     rows.reduce(0) { $0 + $1.jumps }, rows.reduce(0) { $0 + $1.ducks }, rows.reduce(0) { $0 + $1.seconds } / 60,
                     Self.firesPerMinute(rows))
            + byActivity.joined(separator: ", ") + "\n"
    }

    /// Fires per minute over `rows` together.
    static func firesPerMinute(_ rows: [Row]) -> Double {
        let seconds = rows.reduce(0) { $0 + $1.seconds }
        return seconds > 0 ? Double(rows.reduce(0) { $0 + $1.jumps + $1.ducks }) * 60 / seconds : 0
    }
}

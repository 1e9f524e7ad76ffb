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

    /// Replays each recording through the game (pose detected, as a player who chose none).
    public static func measure(_ urls: [URL], progress: (String) -> Void = { _ in }) throws -> [Row] {
        try urls.map { url in
            progress(url.lastPathComponent)
            let trace = try Trace.load(contentsOf: url)
            let result = try CartReplay.run(trace: trace, options: CartReplay.Options(seed: 1))
            return row(name: url.lastPathComponent, events: result.events, seconds: trace.duration)
        }
    }

    static func row(name: String, events: [CartReplayEvent], seconds: Double) -> Row {
        var jumps = 0, ducks = 0, reopenings = 0
        var everHeld = false
        var openSince: Double?
        var secondsOpen = 0.0
        for event in events {
            switch event {
            case .gesture(_, .jump, _, _): jumps += 1
            case .gesture(_, .duck, _, _): ducks += 1
            case .gestureHold(let t, .some):
                if let since = openSince { secondsOpen += t - since }
                openSince = nil
                everHeld = true
            case .gestureHold(let t, nil):
                if everHeld {
                    reopenings += 1
                    openSince = t
                }
            default: break
            }
        }
        if let since = openSince { secondsOpen += seconds - since }
        let stem = name.replacingOccurrences(of: ".csv", with: "")
        let parts = stem.split(separator: "_")
        let subject = parts.count >= 4 && parts[parts.count - 2] == "sub" ? String(parts.last!) : stem
        let activity = parts.count >= 4 && ["wlk", "jog", "ups", "dws"].contains(String(parts[0])) ? String(parts[0]) : "-"
        return Row(recording: stem, subject: subject, activity: activity, seconds: seconds, jumps: jumps, ducks: ducks,
                   reopenings: reopenings, secondsOpen: secondsOpen)
    }

    /// One line per recording, grouped by subject, each subject's worst recording after its rows.
    public static func table(_ rows: [Row], limitPerMinute: Double = 1) -> String {
        var table = TextTable(["subject", "recording", "min", "jumps", "ducks", "fires/min", "reopened", "open s"],
                              alignments: [.left, .left, .right, .right, .right, .right, .right, .right])
        let subjects = Dictionary(grouping: rows, by: \.subject)
        let order = subjects.keys.sorted { (Int($0) ?? .max, $0) < (Int($1) ?? .max, $1) }
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
        return table.rendered + "\nworst fires/min per subject: " + summary.joined(separator: ", ")
            + String(format: "\nrecordings over %.1f fires/min: %d of %d", limitPerMinute, over.count, rows.count)
            + (over.isEmpty ? "" : " (" + over.joined(separator: ", ") + ")") + "\n"
    }
}

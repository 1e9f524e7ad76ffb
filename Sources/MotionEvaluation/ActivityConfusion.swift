import Foundation
import Motion

/// `tiltkit bench activity`: the classifier against labelled recordings, per second of data.
///
///     let report = try ActivityConfusion.score(folder: URL(fileURLWithPath: "motionsense"), label: nil, joined: true)
///     print(report.table, terminator: "")
public enum ActivityConfusion {
    /// A folder that holds no recording with a truth.
    public struct NoLabelledRecordings: Error, CustomStringConvertible, Equatable {
        public var folder: String
        public init(folder: String) { self.folder = folder }
        public var description: String {
            "no labelled recordings in \(folder): name them as MotionSense does (wlk_…, jog_…, sit_…), "
                + "put them in a folder named after the activity, or give --label"
        }
    }

    /// The truth a file's name or folder gives: MotionSense's activity codes, or a folder named after an activity.
    public static func label(of url: URL) -> MotionActivityKind? {
        let code = url.lastPathComponent.split(separator: "_").first.map(String.init) ?? ""
        switch code {
        case "dws", "ups", "wlk": return .walking
        case "jog": return .running
        case "sit", "std": return .stationary
        default: return MotionActivityKind(rawValue: url.deletingLastPathComponent().lastPathComponent)
        }
    }

    public struct Report: Sendable {
        /// Seconds, [truth][call], in `MotionActivityKind.allCases` order.
        public var seconds: [[Int]]
        /// Each recording's share of seconds called as its truth, 0…1.
        public var files: [(name: String, truth: MotionActivityKind, agreement: Double)]

        public var table: String {
            let kinds = MotionActivityKind.allCases
            var out = "per second of data: truth (rows) against the call (columns)\n"
            out += "truth".padding(toLength: 12, withPad: " ", startingAt: 0)
                + kinds.map { $0.rawValue.leftPadded(11) }.joined() + "   agreement\n"
            for (i, truth) in kinds.enumerated() where seconds[i].reduce(0, +) > 0 {
                let total = seconds[i].reduce(0, +)
                out += truth.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + seconds[i].map { String($0).leftPadded(11) }.joined()
                    + String(format: "   %5.1f %% of %d s\n", 100 * Double(seconds[i][i]) / Double(total), total)
            }
            out += "\nper file\n"
            for f in files {
                out += f.name.padding(toLength: 40, withPad: " ", startingAt: 0)
                    + f.truth.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(format: "%5.1f %%\n", 100 * f.agreement)
            }
            return out
        }
    }

    /// Each labelled trace alone (`joined` false: its first call is backdated to its start), or all of
    /// them in name order as one stream (`joined`: each change of activity must be found, late).
    /// `live`: the call as it stood at each second's middle, not the segments found later (whose
    /// starts are backdated to their first evidence). `load` reads one recording (the CLI's says
    /// the reader's warnings).
    public static func score(folder: URL, label fixed: MotionActivityKind?, joined: Bool = false, live: Bool = false,
                             load: (URL) throws -> Trace = { try Trace.load(contentsOf: $0) }) throws -> Report {
        let kinds = MotionActivityKind.allCases
        var seconds = Array(repeating: Array(repeating: 0, count: kinds.count), count: kinds.count)
        var files: [(String, MotionActivityKind, Double)] = []
        var recordings: [(name: String, truth: MotionActivityKind, trace: Trace)] = []
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        for name in names where name.hasSuffix(".csv") {
            let url = folder.appendingPathComponent(name)
            guard let truth = fixed ?? label(of: url) else { continue }
            recordings.append((name, truth, try load(url)))
        }
        guard !recordings.isEmpty else {
            throw NoLabelledRecordings(folder: folder.path)
        }
        func count(_ calls: ArraySlice<MotionActivityKind>, truth: MotionActivityKind, name: String) {
            let t = kinds.firstIndex(of: truth)!
            for call in calls { seconds[t][kinds.firstIndex(of: call)!] += 1 }
            files.append((name, truth, calls.isEmpty ? 0 : Double(calls.filter { $0 == truth }.count) / Double(calls.count)))
        }
        if joined {
            // Whole seconds per recording, back to back, so each second has one truth.
            var samples: [MotionSample] = []
            var spans: [Range<Int>] = []
            for r in recordings {
                let whole = Int(r.trace.duration)
                guard whole >= 1, let first = r.trace.samples.first?.timestamp else { continue }
                let offset = Double(spans.last?.upperBound ?? 0)
                for var sample in r.trace.samples where sample.timestamp - first < Double(whole) {
                    sample.timestamp = sample.timestamp - first + offset
                    samples.append(sample)
                }
                spans.append(Int(offset)..<(Int(offset) + whole))
            }
            let calls = calls(samples, from: 0, duration: Double(spans.last?.upperBound ?? 0), live: live)
            for (r, span) in zip(recordings, spans) { count(calls[span], truth: r.truth, name: r.name) }
        } else {
            for r in recordings {
                let calls = calls(r.trace.samples, from: r.trace.samples.first?.timestamp ?? 0, duration: r.trace.duration, live: live)
                count(calls[...], truth: r.truth, name: r.name)
            }
        }
        return Report(seconds: seconds, files: files)
    }

    /// The call at the middle of each whole second from `first`: from the final segments, or live.
    public static func calls(_ samples: [MotionSample], from first: Double, duration: Double, live: Bool) -> [MotionActivityKind] {
        var classifier = MotionActivityClassifier()
        guard live else {
            for sample in samples { classifier.push(sample) }
            return perSecond(classifier.allSegments, from: first, duration: duration)
        }
        var calls: [MotionActivityKind] = []
        let seconds = Int(max(0, duration))
        for sample in samples {
            while calls.count < seconds && sample.timestamp > first + Double(calls.count) + 0.5 {
                calls.append(classifier.current.kind)
            }
            classifier.push(sample)
        }
        while calls.count < seconds { calls.append(classifier.current.kind) }
        return calls
    }

    /// The call at the middle of each whole second of the trace (unknown where no segment covers it).
    public static func perSecond(_ segments: [MotionActivitySegment], from first: Double, duration: Double) -> [MotionActivityKind] {
        guard duration >= 1 else { return [] }
        return (0..<Int(duration)).map { second in
            let t = first + Double(second) + 0.5
            return segments.first { $0.start <= t && t < $0.end }?.kind ?? .unknown
        }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

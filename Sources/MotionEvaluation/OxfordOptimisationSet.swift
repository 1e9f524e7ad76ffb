import Foundation
import Motion

/// The Oxford Step Counter dataset's `optimisation` half (Salvi et al., CC BY 4.0,
/// github.com/Oxford-step-counter/DataSet), read where it was extracted: `stats.csv` (dir, user,
/// phone, position, surface, duration, true steps) and `data/<dir>/accelerometer.csv` (ns, accuracy,
/// x, y, z in m/s², Android's sign). The pedometer was tuned on these; not bundled. The truth is
/// the foot sensor's log (`data/<dir>/stepcounter.csv`) recounted with its bounces left out and its
/// missed landings in (`OxfordFootSensor`), beside stats.csv's own count.
public enum OxfordOptimisationSet {
    public struct Recording: Sendable {
        public var name: String
        public var placement: String
        /// Landings by the foot sensor, its faults mended (`OxfordFootSensor`); stats.csv's count without its log.
        public var truth: Int
        /// stats.csv's count: every rise of either foot's contact.
        public var statsTruth: Int
        public var samples: [MotionSample]
    }

    /// m/s² per g (CGPM 1901), the factor Android's SensorManager.STANDARD_GRAVITY uses too.
    public static let standardGravity = 9.80665

    public static func load(_ folder: String) throws -> [Recording] {
        let root = URL(fileURLWithPath: folder)
        let statsURL = root.appendingPathComponent("stats.csv")
        let stats = try String(contentsOf: statsURL, encoding: .utf8)
        var recordings: [Recording] = []
        for (index, line) in stats.split(whereSeparator: \.isNewline).enumerated() where !line.hasPrefix("#") {
            let cells = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 7, let truth = Int(cells[6]) else {
                throw TraceError(file: statsURL.path, line: index + 1, problem: .badMetadata("expected 7 columns ending in a step count"))
            }
            let folder = root.appendingPathComponent("data").appendingPathComponent(cells[0])
            let log = folder.appendingPathComponent("stepcounter.csv")
            var footTruth = truth
            if let text = try? String(contentsOf: log, encoding: .utf8) {
                guard let recount = OxfordFootSensor.count(log: text) else {
                    throw TraceError(file: log.path, line: nil, problem: .badMetadata("expected ns,0|1,0|1 on every line"))
                }
                footTruth = recount.steps
            }
            recordings.append(Recording(name: cells[0], placement: cells[3], truth: footTruth, statsTruth: truth,
                                        samples: try samples(folder.appendingPathComponent("accelerometer.csv"))))
        }
        return recordings
    }

    private static func samples(_ url: URL) throws -> [MotionSample] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var samples: [MotionSample] = []
        var first: Int64?
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
        where !line.isEmpty {
            let c = line.split(separator: ",")
            guard c.count == 5, let ns = Int64(c[0]), let x = Double(c[2]), let y = Double(c[3]), let z = Double(c[4]) else {
                throw TraceError(file: url.path, line: index + 1, problem: .badMetadata("expected ns,accuracy,x,y,z"))
            }
            let t0 = first ?? ns
            first = t0
            // Android reads +1 g up at rest, Core Motion −1 g: negate.
            samples.append(MotionSample(timestamp: Double(ns - t0) / 1e9,
                                        acceleration: Vector3(-x, -y, -z) / standardGravity))
        }
        return samples
    }
}

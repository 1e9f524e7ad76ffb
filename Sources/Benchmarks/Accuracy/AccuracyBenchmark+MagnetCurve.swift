import Foundation
import Motion
import MotionEvaluation

/// The magnet curve: every trial's magnetometer distorted by iron that rides along with the sensor
/// (`MagnetometerDistortion`: hard-iron offsets of growing strength, a soft-iron matrix), Tiltkit
/// and VQF run on the same altered data in the same run, the 9D total per strength. Each hard-iron
/// strength is run along the six `MagnetometerDistortion.hardIronDirections` and a trial's 9D total
/// is the RMS over them (BROAD's metric pooled), so no one direction's chance agreement with a
/// trial decides its row.
///
/// Like for like: "Tiltkit 9D + gyro delay" (the fusion given BROAD's gyro delay) is compared with
/// "VQF 9D + gyro delay" (VQF's output given the same, `GyroDelayMeasurement.advanced`), and the
/// default rows (no device property) with each other.
extension AccuracyBenchmark {
    public struct MagnetCurveRow: Codable, Sendable {
        public var distortion: String
        public var hardIronStrength: Double
        public var softIron: Bool
        public var filter: String
        /// The VQF row this one is compared with, like for like (nil for VQF's own rows).
        public var comparedWith: String?
        public var trials: [String]
        /// Offset directions pooled into each trial's figure (1 without hard iron).
        public var directions: Int
        /// 9D total per trial, degrees RMS (BROAD's metric; over every direction's run).
        public var total9D: [Double]
        /// Per trial, this row's 9D total over `comparedWith`'s (nil without VQF).
        public var ratioToVQF: [Double]?

        public var median: Double { Self.median(total9D) }
        public var worst: Double { total9D.max() ?? .nan }
        public var worstTrial: String? { total9D.indices.max { total9D[$0] < total9D[$1] }.map { trials[$0] } }
        public var medianRatio: Double? { ratioToVQF.map(Self.median) }
        public var worstRatio: Double? { ratioToVQF?.max() }

        static func median(_ values: [Double]) -> Double {
            let s = values.sorted()
            guard !s.isEmpty else { return .nan }
            return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
        }
    }

    /// The distortions of `tiltkit bench accuracy --hard-iron LIST --soft-iron`: the undistorted
    /// trial first (the curve's origin), then each hard-iron strength along every direction, then the
    /// soft-iron case.
    public static func magnetDistortions(hardIron strengths: [Double], softIron: Bool) -> [MagnetometerDistortion] {
        let hardIron = strengths.flatMap { k in
            MagnetometerDistortion.hardIronDirections.indices.map { MagnetometerDistortion.hardIron(k, direction: $0) }
        }
        return [MagnetometerDistortion()] + hardIron + (softIron ? [.softIronCase] : [])
    }

    static let tiltkitDelayed = "Tiltkit 9D + gyro delay", tiltkitDefault = "Tiltkit 9D"
    static let vqfDelayed = "VQF 9D + gyro delay", vqfDefault = "VQF 9D"

    /// Runs the curve over `trials` (already cut as the settings say); VQF where `peers` runs it.
    static func magnetCurve(_ trials: [BroadTrial], distortions: [MagnetometerDistortion], peers: PeerRunner?)
        throws(BenchError) -> (rows: [MagnetCurveRow], missing: [String: String])
    {
        var altered: [[BroadTrial]] = []
        for d in distortions { altered.append(trials.map { d.applied(to: $0) }) }
        var vqf: [String: [Quaternion]] = [:]
        var missing: [String: String] = [:]
        if var runner = peers {
            runner.peers = ["vqf"]
            let result = try runner.run(altered.flatMap { $0 })
            for output in result.outputs where output.filter == vqfDefault { vqf[output.trial] = output.estimates }
            missing = result.missing
        }
        func errors(_ trial: BroadTrial, _ estimates: [Quaternion]) -> Double {
            BroadMetric.errors(estimates: estimates, groundTruth: trial.groundTruth, movement: trial.movement).total
        }
        // Per distortion and trial: Tiltkit given the gyro delay, Tiltkit's defaults, and VQF likewise where it ran.
        struct Totals { var delayed: [Double], plain: [Double], vqfDelayed: [Double]?, vqfPlain: [Double]? }
        var totals: [Totals] = []
        for set in altered {
            let delayed = set.map { errors($0, estimates($0.samples, AHRS(frame: .xMagneticNorthZVertical, settings: BroadTrial.fusionSettings))) }
            let plain = set.map { errors($0, estimates($0.samples, AHRS(frame: .xMagneticNorthZVertical, settings: .default))) }
            let vqfOutputs = set.compactMap { vqf[$0.name] }
            guard vqfOutputs.count == set.count else {
                totals.append(Totals(delayed: delayed, plain: plain, vqfDelayed: nil, vqfPlain: nil))
                continue
            }
            totals.append(Totals(delayed: delayed, plain: plain, vqfDelayed: zip(set, vqfOutputs).map { trial, q in
                errors(trial, GyroDelayMeasurement.advanced(q, samples: trial.samples, delay: BroadTrial.gyroDelay))
            }, vqfPlain: zip(set, vqfOutputs).map { errors($0, $1) }))
        }
        var rows: [MagnetCurveRow] = []
        // One row per label: a hard-iron strength's directions pooled, per trial, as one RMS.
        var labels: [String] = []
        for d in distortions where !labels.contains(d.label) { labels.append(d.label) }
        for label in labels {
            let members = distortions.indices.filter { distortions[$0].label == label }
            let d = distortions[members[0]]
            func pooled(_ pick: (Totals) -> [Double]?) -> [Double]? {
                let each = members.compactMap { pick(totals[$0]) }
                guard each.count == members.count else { return nil }
                return trials.indices.map { t in (each.reduce(0) { $0 + $1[t] * $1[t] } / Double(each.count)).squareRoot() }
            }
            func row(_ filter: String, _ comparedWith: String?, _ values: [Double]) -> MagnetCurveRow {
                MagnetCurveRow(distortion: label, hardIronStrength: d.hardIronStrength, softIron: d.softIron != nil,
                               filter: filter, comparedWith: comparedWith, trials: trials.map(\.name),
                               directions: members.count, total9D: values)
            }
            var tiltkitRows = [row(tiltkitDelayed, vqfDelayed, pooled(\.delayed)!), row(tiltkitDefault, vqfDefault, pooled(\.plain)!)]
            if let vqfDelayedTotals = pooled(\.vqfDelayed), let vqfPlain = pooled(\.vqfPlain) {
                tiltkitRows[0].ratioToVQF = zip(tiltkitRows[0].total9D, vqfDelayedTotals).map { $0 / $1 }
                tiltkitRows[1].ratioToVQF = zip(tiltkitRows[1].total9D, vqfPlain).map { $0 / $1 }
                rows += tiltkitRows + [row(vqfDelayed, nil, vqfDelayedTotals), row(vqfDefault, nil, vqfPlain)]
            } else {
                rows += tiltkitRows
            }
        }
        return (rows, missing)
    }
}

extension AccuracyBenchmark.Report {
    /// The magnet curve: one line per distortion and filter.
    var magnetCurveTable: String? {
        guard !magnetCurve.isEmpty else { return nil }
        func o(_ v: Double?) -> String { v.map { Figure.fixed($0, 2) } ?? "—" }
        var t = TextTable(["distortion (sensor frame)", "filter", "9D median", "9D worst", "worst trial",
                           "× VQF median", "× VQF worst"])
        for r in magnetCurve {
            t.append([r.distortion, r.filter, o(r.median), o(r.worst), r.worstTrial ?? "—",
                      r.medianRatio.map(Figure.ratio) ?? "—", r.worstRatio.map(Figure.ratio) ?? "—"])
        }
        let trialNames = magnetCurve.first?.trials ?? []
        let delayed = magnetCurve.filter { $0.filter == AccuracyBenchmark.tiltkitDelayed && $0.ratioToVQF != nil }
        var perTrial = TextTable(["\(AccuracyBenchmark.tiltkitDelayed) × \(AccuracyBenchmark.vqfDelayed)"] + delayed.map(\.distortion))
        for (i, name) in trialNames.enumerated() {
            perTrial.append([name] + delayed.map { Figure.ratio($0.ratioToVQF![i]) })
        }
        let trials = trialNames.count
        let directions = MagnetometerDistortion.hardIronDirections.count
        return "Magnet curve: iron riding along with the sensor, m' = S·m + k·|m|·u with |m| the trial's mean field strength "
            + "and u each of \(directions) directions, (1, −2, 2)/3, (2, 2, 1)/3, (−2, 1, 2)/3 and their opposites "
            + "(MagnetometerDistortion), 9D total over \(trials) trials, degrees RMS (a hard-iron trial's over its \(directions) runs); "
            + "× VQF is per trial against VQF like for like (+ gyro delay against + gyro delay)\n" + t.rendered
            + (delayed.isEmpty ? "" : "\n\nPer trial\n" + perTrial.rendered)
    }
}

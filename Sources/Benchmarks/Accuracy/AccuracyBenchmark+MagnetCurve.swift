import Foundation
import Motion
import MotionEvaluation

/// The magnet curve: every trial's magnetometer distorted by iron that rides along with the sensor
/// (`MagnetometerDistortion`: hard-iron offsets of growing strength, a soft-iron matrix), Tiltkit
/// and VQF run on the same altered data in the same run, the 9D total per strength.
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
        /// 9D total per trial, degrees RMS (BROAD's metric).
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
    /// trial first (the curve's origin), then each hard-iron strength, then the soft-iron case.
    public static func magnetDistortions(hardIron strengths: [Double], softIron: Bool) -> [MagnetometerDistortion] {
        [MagnetometerDistortion()] + strengths.map(MagnetometerDistortion.hardIron) + (softIron ? [.softIronCase] : [])
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
        var rows: [MagnetCurveRow] = []
        for (d, set) in zip(distortions, altered) {
            func errors(_ trial: BroadTrial, _ estimates: [Quaternion]) -> Double {
                BroadMetric.errors(estimates: estimates, groundTruth: trial.groundTruth, movement: trial.movement).total
            }
            func row(_ filter: String, _ comparedWith: String?, _ totals: [Double]) -> MagnetCurveRow {
                MagnetCurveRow(distortion: d.label, hardIronStrength: d.hardIronStrength, softIron: d.softIron != nil,
                               filter: filter, comparedWith: comparedWith, trials: trials.map(\.name), total9D: totals)
            }
            let delayed = set.map { errors($0, estimates($0.samples, AHRS(frame: .xMagneticNorthZVertical, settings: BroadTrial.fusionSettings))) }
            let plain = set.map { errors($0, estimates($0.samples, AHRS(frame: .xMagneticNorthZVertical, settings: .default))) }
            var tiltkitRows = [row(tiltkitDelayed, vqfDelayed, delayed), row(tiltkitDefault, vqfDefault, plain)]
            let vqfOutputs = set.compactMap { vqf[$0.name] }
            if vqfOutputs.count == set.count {
                let vqfPlain = zip(set, vqfOutputs).map { errors($0, $1) }
                let vqfDelayedTotals = zip(set, vqfOutputs).map { trial, q in
                    errors(trial, GyroDelayMeasurement.advanced(q, samples: trial.samples, delay: BroadTrial.gyroDelay))
                }
                tiltkitRows[0].ratioToVQF = zip(delayed, vqfDelayedTotals).map { $0 / $1 }
                tiltkitRows[1].ratioToVQF = zip(plain, vqfPlain).map { $0 / $1 }
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
        return "Magnet curve: iron riding along with the sensor, m' = S·m + k·|m|·(1, −2, 2)/3 with |m| the trial's mean "
            + "field strength (MagnetometerDistortion), 9D total over \(trials) trials, degrees RMS; × VQF is per trial "
            + "against VQF like for like (+ gyro delay against + gyro delay)\n" + t.rendered
            + (delayed.isEmpty ? "" : "\n\nPer trial\n" + perTrial.rendered)
    }
}

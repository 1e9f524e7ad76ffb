import Motion
import MotionEvaluation

/// One peer filter's BROAD figures (one trial, or the mean over trials), measured in this run.
public struct PeerRow: Codable, Sendable, Hashable {
    public var filter: String
    public var axes: Int
    /// 9D only (a 6D filter's heading is arbitrary).
    public var total: Double?
    public var inclination: Double
    public var totalHeadingCorrected: Double
    /// Time per sample as the package's interface costs it (see `timing`).
    public var nanosecondsPerSample: Double
    public var timing: String
}

extension AccuracyBenchmark.Settings {
    /// How the trials were changed, for the report.
    var variant: String {
        let rateText = rate.map { "\(Figure.fixed($0, 0)) Hz" } ?? "285.7 Hz (BROAD's own)"
        return jitter > 0 ? "\(rateText), sample intervals jittered ±\(Figure.fixed(jitter * 100, 0)) %" : rateText
    }
}

extension AccuracyBenchmark {
    /// Scores every peer output with `BroadMetric`, the code Tiltkit is scored with, into its trial's row.
    static func score(_ result: PeerRunner.Result, trials: [BroadTrial], into rows: inout [BroadRow]) {
        for output in result.outputs {
            guard let i = trials.firstIndex(where: { $0.name == output.trial }) else { continue }
            let trial = trials[i]
            let e = BroadMetric.errors(estimates: output.estimates, groundTruth: trial.groundTruth, movement: trial.movement)
            rows[i].peers.append(PeerRow(filter: output.filter, axes: output.axes, total: output.axes == 9 ? e.total : nil,
                                         inclination: e.inclination, totalHeadingCorrected: e.totalHeadingCorrected,
                                         nanosecondsPerSample: output.nanosecondsPerSample, timing: output.timing))
            // what Tiltkit's output gets from BroadTrial.gyroDelay, given to VQF's: is the gain the filter's?
            let delayed = output.filter.hasPrefix("VQF") ? BroadMetric.errors(
                estimates: GyroDelayMeasurement.advanced(output.estimates, samples: trial.samples, delay: BroadTrial.gyroDelay),
                groundTruth: trial.groundTruth, movement: trial.movement) : nil
            if let d = delayed {
                rows[i].peers.append(PeerRow(filter: "\(output.filter) + gyro delay", axes: output.axes,
                                             total: output.axes == 9 ? d.total : nil, inclination: d.inclination,
                                             totalHeadingCorrected: d.totalHeadingCorrected,
                                             nanosecondsPerSample: output.nanosecondsPerSample, timing: output.timing))
            }
            switch output.filter {
            case "VQF 9D":
                rows[i].vqfTotal9D = e.total
                rows[i].vqfDelayedTotal9D = delayed?.total
            case "VQF 6D":
                rows[i].vqfInclination = e.inclination
                rows[i].vqfTotalHeadingCorrected6D = e.totalHeadingCorrected
                rows[i].vqfDelayedTotalHeadingCorrected6D = delayed?.totalHeadingCorrected
            default: break
            }
        }
    }

    /// Each peer's mean over the trials that have it (BROAD's way: the mean of per-trial RMS);
    /// time per sample weighted by samples.
    static func peerMeans(_ rows: [BroadRow]) -> [PeerRow] {
        var order: [String] = []
        var byFilter: [String: [(PeerRow, Int)]] = [:]
        for row in rows {
            for peer in row.peers {
                if byFilter[peer.filter] == nil { order.append(peer.filter) }
                byFilter[peer.filter, default: []].append((peer, row.samples))
            }
        }
        return order.compactMap { name in
            guard let all = byFilter[name], let first = all.first?.0 else { return nil }
            let n = Double(all.count), samples = Double(all.reduce(0) { $0 + $1.1 })
            let totals = all.compactMap(\.0.total)
            return PeerRow(filter: name, axes: first.axes,
                           total: totals.count == all.count ? totals.reduce(0, +) / n : nil,
                           inclination: all.map(\.0.inclination).reduce(0, +) / n,
                           totalHeadingCorrected: all.map(\.0.totalHeadingCorrected).reduce(0, +) / n,
                           nanosecondsPerSample: all.reduce(0) { $0 + $1.0.nanosecondsPerSample * Double($1.1) } / samples,
                           timing: first.timing)
        }
    }
}

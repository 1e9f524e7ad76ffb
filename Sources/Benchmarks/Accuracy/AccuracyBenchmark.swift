import Foundation
import Motion
import MotionEvaluation

/// `bench accuracy`: how wrong the fused attitude is, per file and in total.
///
/// BROAD trials (optical ground truth): BROAD's own metric for 9-axis and 6-axis fusion and the
/// accelerometer-only inclination, beside VQF per trial and the peer averages. Core Motion
/// recordings: the angle between our gravity and Core Motion's, fusion against accelerometer-only.
public struct AccuracyBenchmark: Sendable {
    public struct Settings: Sendable {
        /// BROAD trials used (nil: all).
        public var trialLimit: Int?
        /// Samples per trace or trial (nil: all), for brief runs.
        public var samplesPerFile: Int?
        /// BROAD resampled to this rate, Hz (nil: its own 285.7 Hz), and its sample intervals
        /// jittered by ± this fraction (see `BroadTrial.resampled`).
        public var rate: Double?
        public var jitter = 0.0
        /// The peer filters run from their PyPI packages on the same trials (nil: none).
        public var peers: PeerRunner?
        /// Run the leave-one-out check of the fusion's settings (`leaveOneOut`).
        public var leaveOut = false
        /// The magnet curve's distortions (`magnetDistortions`); empty: no curve.
        public var magnetDistortions: [MagnetometerDistortion] = []

        public init() {}

        public static var quick: Settings {
            var s = Settings()
            s.trialLimit = 1
            s.samplesPerFile = 20_000
            return s
        }
    }

    public struct BroadRow: Codable, Sendable {
        public var trial: String
        public var samples: Int
        /// 9-axis (x-magnetic-north-z-vertical), degrees RMS.
        public var total9D: Double
        public var heading9D: Double
        public var inclination9D: Double
        public var totalHeadingCorrected9D: Double
        /// 6-axis (x-arbitrary-z-vertical), degrees RMS.
        public var inclination6D: Double
        public var totalHeadingCorrected6D: Double
        /// Accelerometer-only inclination, degrees RMS.
        public var inclinationAccelerometerOnly: Double
        /// The same fusion with the gyro scale estimate switched off (what it buys), degrees RMS.
        public var total9DWithoutScale: Double
        public var inclination6DWithoutScale: Double
        public var totalHeadingCorrected6DWithoutScale: Double
        /// The same fusion without the cross-axis sensitivity allowed for (what the allowance buys), degrees RMS.
        public var total9DWithoutCrossAxis: Double
        public var inclination6DWithoutCrossAxis: Double
        public var totalHeadingCorrected6DWithoutCrossAxis: Double
        /// The fusion at its defaults, without BROAD's gyro delay (what VQF at its defaults is set against), degrees RMS.
        public var total9DWithoutGyroDelay: Double
        public var totalHeadingCorrected6DWithoutGyroDelay: Double
        /// VQF on the same trial, measured in this run (nil when its package is not installed).
        public var vqfTotal9D: Double?
        public var vqfInclination: Double?
        public var vqfTotalHeadingCorrected6D: Double?
        /// VQF's output given the same gyro delay as the fusion (`GyroDelayMeasurement.advanced`): like for like.
        public var vqfDelayedTotal9D: Double?
        public var vqfDelayedTotalHeadingCorrected6D: Double?
        /// Every peer measured on this trial in this run.
        public var peers: [PeerRow] = []
        /// How late the trial's gyro is against its reference, s (`GyroDelayMeasurement`), measured
        /// in this run; the fusion is given `BroadTrial.gyroDelay` whatever this says.
        public var gyroDelay: Double?
        /// The gyro's scale error (x, y, z) and cross-axis sensitivity (xy, xz, yz) against the
        /// reference, as fractions (`GyroErrorFit`), measured in this run; nil without enough reference.
        public var gyroScale: [Double]?
        public var gyroCrossAxis: [Double]?
    }

    public struct TraceRow: Codable, Sendable {
        public var file: String
        public var samples: Int
        /// Gravity angle against Core Motion after 2 s, degrees.
        public var fusionMedian: Double
        public var fusionP95: Double
        public var accelerometerOnlyMedian: Double
        public var accelerometerOnlyP95: Double
        public var vqf6DMedian: Double?
        public var vqf6DP95: Double?
        public var peerAccelerometerOnlyMedian: Double?
        public var peerAccelerometerOnlyP95: Double?
    }

    public struct Report: Codable, Sendable {
        public var data: String
        /// The BROAD variant scored: "285.7 Hz (BROAD's own)", "100 Hz, jitter ±20 %".
        public var variant: String
        public var broad: [BroadRow]
        /// The peers' means over the trials (measured in this run).
        public var peerMeans: [PeerRow]
        /// Peer package versions, and peers not run with why.
        public var peerPackages: [String: String]
        public var peersMissing: [String: String]
        /// The leave-one-out check, when asked for.
        public var leaveOut: [LeaveOutRow]
        /// The magnet curve, when asked for (`magnetCurve`).
        public var magnetCurve: [MagnetCurveRow]
        /// BROAD's summary: mean over trials of each per-trial figure (nil without trials).
        public var broadMean: BroadRow?
        public var traces: [TraceRow]
        /// Traces skipped (no Core Motion reference), with why.
        public var skipped: [String]
        public var targets: [TargetCheck]
    }

    /// Error over time for the plots, per file and estimator: (seconds, degrees).
    public struct Series: Sendable {
        public var file: String
        public var kind: String
        public var curves: [(name: String, points: [(Double, Double)])]
    }

    public var settings: Settings
    public var data: BenchData

    public init(settings: Settings = Settings(), data: BenchData) {
        self.settings = settings
        self.data = data
    }

    public func run(keepSeries: Bool, progress: (String, Double) -> Void = { _, _ in })
        throws(BenchError) -> (Report, [Series])
    {
        let (broadFiles, traceFiles) = try data.recordings()
        let trials = Array(broadFiles.prefix(settings.trialLimit ?? broadFiles.count))
        let steps = Double(trials.count + traceFiles.count)
        var step = 0.0
        var series: [Series] = []

        var broadRows: [BroadRow] = []
        var loaded: [BroadTrial] = []
        for url in trials {
            progress(data.shortName(url), step / steps); step += 1
            var trial = try data.loadBroad(url)
            if let n = settings.samplesPerFile, trial.samples.count > n {
                trial.samples = Array(trial.samples.prefix(n))
                trial.groundTruth = Array(trial.groundTruth.prefix(n))
                trial.movement = Array(trial.movement.prefix(n))
            }
            if settings.rate != nil || settings.jitter > 0 {
                trial = trial.resampled(rate: settings.rate, jitter: settings.jitter)
            }
            let (row, curves) = AccuracyBenchmark.evaluate(trial, keepSeries: keepSeries)
            broadRows.append(row)
            loaded.append(trial)
            if keepSeries { series.append(Series(file: trial.name, kind: "broad", curves: curves)) }
        }
        var peerResult = PeerRunner.Result(outputs: [], packages: [:], missing: [:])
        if let peers = settings.peers, !loaded.isEmpty {
            progress("peers (Python)", step / steps)
            peerResult = try peers.run(loaded)
            AccuracyBenchmark.score(peerResult, trials: loaded, into: &broadRows)
        }

        var curve: [MagnetCurveRow] = []
        if !settings.magnetDistortions.isEmpty, !loaded.isEmpty {
            progress("magnet curve", step / steps)
            let (rows, missing) = try AccuracyBenchmark.magnetCurve(loaded, distortions: settings.magnetDistortions, peers: settings.peers)
            curve = rows
            peerResult.missing.merge(missing) { a, _ in a }
        }

        var traceRows: [TraceRow] = []
        var skipped: [String] = []
        for url in traceFiles {
            progress(data.shortName(url), step / steps); step += 1
            var recording = try data.loadTrace(url)
            if let n = settings.samplesPerFile { recording.samples = Array(recording.samples.prefix(n)) }
            guard recording.samples.contains(where: { $0.reference?.gravity != nil }) else {
                skipped.append("\(recording.name): no Core Motion gravity to compare with")
                continue
            }
            let (row, curves) = AccuracyBenchmark.evaluate(recording, keepSeries: keepSeries)
            traceRows.append(row)
            if keepSeries { series.append(Series(file: recording.name, kind: "trace", curves: curves)) }
        }
        progress("done", 1)

        var leaveOutRows: [LeaveOutRow] = []
        if settings.leaveOut, loaded.count > 1 {
            progress("leave one out", step / steps)
            leaveOutRows = AccuracyBenchmark.leaveOneOut(loaded)
        }
        let mean = broadRows.isEmpty ? nil : AccuracyBenchmark.mean(broadRows)
        let native = settings.rate == nil && settings.jitter == 0 && settings.samplesPerFile == nil
        return (Report(data: data.root.path, variant: settings.variant, broad: broadRows,
                       peerMeans: AccuracyBenchmark.peerMeans(broadRows), peerPackages: peerResult.packages,
                       peersMissing: peerResult.missing, leaveOut: leaveOutRows, magnetCurve: curve, broadMean: mean, traces: traceRows, skipped: skipped,
                       targets: AccuracyBenchmark.targets(mean: mean, rows: broadRows, traces: traceRows, native: native)),
                series)
    }

    // MARK: BROAD

    static func evaluate(_ trial: BroadTrial, keepSeries: Bool) -> (BroadRow, [(name: String, points: [(Double, Double)])]) {
        let settings = BroadTrial.fusionSettings
        let nine = estimates(trial.samples, AHRS(frame: .xMagneticNorthZVertical, settings: settings))
        let six = estimates(trial.samples, AHRS(frame: .xArbitraryZVertical, settings: settings))
        let accel = estimates(trial.samples, DeviceMotionEstimatorKind.accelerometer.make())
        var withoutScale = settings
        withoutScale.gyroScaleInitialUncertainty = 0
        let nineWithoutScale = estimates(trial.samples, AHRS(frame: .xMagneticNorthZVertical, settings: withoutScale))
        let sixWithoutScale = estimates(trial.samples, AHRS(frame: .xArbitraryZVertical, settings: withoutScale))
        var withoutCrossAxis = settings
        withoutCrossAxis.gyroCrossAxisUncertainty = 0
        let nineWithoutCrossAxis = estimates(trial.samples, AHRS(frame: .xMagneticNorthZVertical, settings: withoutCrossAxis))
        let sixWithoutCrossAxis = estimates(trial.samples, AHRS(frame: .xArbitraryZVertical, settings: withoutCrossAxis))
        let nineDefault = estimates(trial.samples, AHRS(frame: .xMagneticNorthZVertical, settings: .default))
        let sixDefault = estimates(trial.samples, AHRS(frame: .xArbitraryZVertical, settings: .default))
        func errors(_ estimates: [Quaternion]) -> OrientationErrors {
            BroadMetric.errors(estimates: estimates, groundTruth: trial.groundTruth, movement: trial.movement)
        }
        let e9 = errors(nine), e6 = errors(six), ea = errors(accel)
        let e9WithoutScale = errors(nineWithoutScale), e6WithoutScale = errors(sixWithoutScale)
        let e9WithoutCrossAxis = errors(nineWithoutCrossAxis), e6WithoutCrossAxis = errors(sixWithoutCrossAxis)
        var row = BroadRow(trial: trial.name, samples: trial.samples.count, total9D: e9.total, heading9D: e9.heading,
                           inclination9D: e9.inclination, totalHeadingCorrected9D: e9.totalHeadingCorrected,
                           inclination6D: e6.inclination, totalHeadingCorrected6D: e6.totalHeadingCorrected,
                           inclinationAccelerometerOnly: ea.inclination, total9DWithoutScale: e9WithoutScale.total,
                           inclination6DWithoutScale: e6WithoutScale.inclination,
                           totalHeadingCorrected6DWithoutScale: e6WithoutScale.totalHeadingCorrected,
                           total9DWithoutCrossAxis: e9WithoutCrossAxis.total, inclination6DWithoutCrossAxis: e6WithoutCrossAxis.inclination,
                           totalHeadingCorrected6DWithoutCrossAxis: e6WithoutCrossAxis.totalHeadingCorrected,
                           total9DWithoutGyroDelay: errors(nineDefault).total,
                           totalHeadingCorrected6DWithoutGyroDelay: errors(sixDefault).totalHeadingCorrected)
        row.gyroDelay = GyroDelayMeasurement.delay(of: trial)
        if let fit = GyroErrorFit.fit(trial, delay: row.gyroDelay ?? BroadTrial.gyroDelay) {
            row.gyroScale = [fit.scale.x, fit.scale.y, fit.scale.z]
            row.gyroCrossAxis = [fit.crossAxis.x, fit.crossAxis.y, fit.crossAxis.z]
        }
        guard keepSeries else { return (row, []) }
        let t = trial.samples.map(\.timestamp)
        return (row, [
            ("9-axis total", errorSeries(t, nine, trial) { 2 * acos(Swift.min(1, abs($0.w))) }),
            ("6-axis inclination", errorSeries(t, six, trial, inclination)),
            ("accelerometer-only inclination", errorSeries(t, accel, trial, inclination)),
        ])
    }

    /// The attitude after every sample in BROAD's earth frame; a rejected sample keeps the last one,
    /// as `BroadEvaluation` scores it.
    static func estimates(_ samples: [MotionSample], _ made: any DeviceMotionEstimator) -> [Quaternion] {
        var estimator = made
        let toEarth = BroadEvaluation.earthRotation(from: estimator.referenceFrame)
        var out: [Quaternion] = []
        out.reserveCapacity(samples.count)
        var last = Quaternion.identity
        for s in samples {
            if let m = estimator.update(s) { last = toEarth * m.attitude.quaternion }
            out.append(last)
        }
        return out
    }

    /// BROAD's inclination of an error quaternion, radians: 2·acos√(w² + z²).
    static func inclination(_ e: Quaternion) -> Double { 2 * acos(Swift.min(1, (e.w * e.w + e.z * e.z).squareRoot())) }

    /// Per-sample error in degrees over the evaluated samples (moving, finite ground truth).
    static func errorSeries(_ t: [Double], _ estimates: [Quaternion], _ trial: BroadTrial,
                            _ measure: (Quaternion) -> Double) -> [(Double, Double)] {
        var points: [(Double, Double)] = []
        for i in estimates.indices where trial.movement[i] && trial.groundTruth[i].isFinite {
            let e = (estimates[i].normalized * trial.groundTruth[i].normalized.conjugate).normalized
            if e.isFinite { points.append((t[i], measure(e) * 180 / .pi)) }
        }
        return points
    }

    static func mean(_ rows: [BroadRow]) -> BroadRow {
        func m(_ f: (BroadRow) -> Double) -> Double { rows.map(f).reduce(0, +) / Double(rows.count) }
        func mOptional(_ f: (BroadRow) -> Double?) -> Double? {
            let values = rows.compactMap(f)
            return values.count == rows.count ? values.reduce(0, +) / Double(values.count) : nil
        }
        return BroadRow(trial: "mean of \(rows.count) trials", samples: rows.reduce(0) { $0 + $1.samples },
                        total9D: m(\.total9D), heading9D: m(\.heading9D), inclination9D: m(\.inclination9D),
                        totalHeadingCorrected9D: m(\.totalHeadingCorrected9D), inclination6D: m(\.inclination6D),
                        totalHeadingCorrected6D: m(\.totalHeadingCorrected6D),
                        inclinationAccelerometerOnly: m(\.inclinationAccelerometerOnly),
                        total9DWithoutScale: m(\.total9DWithoutScale), inclination6DWithoutScale: m(\.inclination6DWithoutScale),
                        totalHeadingCorrected6DWithoutScale: m(\.totalHeadingCorrected6DWithoutScale),
                        total9DWithoutCrossAxis: m(\.total9DWithoutCrossAxis), inclination6DWithoutCrossAxis: m(\.inclination6DWithoutCrossAxis),
                        totalHeadingCorrected6DWithoutCrossAxis: m(\.totalHeadingCorrected6DWithoutCrossAxis),
                        total9DWithoutGyroDelay: m(\.total9DWithoutGyroDelay),
                        totalHeadingCorrected6DWithoutGyroDelay: m(\.totalHeadingCorrected6DWithoutGyroDelay),
                        vqfTotal9D: mOptional(\.vqfTotal9D), vqfInclination: mOptional(\.vqfInclination),
                        vqfTotalHeadingCorrected6D: mOptional(\.vqfTotalHeadingCorrected6D),
                        vqfDelayedTotal9D: mOptional(\.vqfDelayedTotal9D),
                        vqfDelayedTotalHeadingCorrected6D: mOptional(\.vqfDelayedTotalHeadingCorrected6D), peers: peerMeans(rows),
                        gyroDelay: mOptional(\.gyroDelay))
    }

    // MARK: Core Motion recordings

    static func evaluate(_ recording: Recording, keepSeries: Bool) -> (TraceRow, [(name: String, points: [(Double, Double)])]) {
        var fusion = DeviceMotionEstimatorKind.fusion.make(frame: .xArbitraryZVertical)
        var accel = DeviceMotionEstimatorKind.accelerometer.make()
        let f = GravityAgreement.evaluate(recording.samples, estimator: &fusion)
        let a = GravityAgreement.evaluate(recording.samples, estimator: &accel)
        let peer = CoreMotionPeers.figures(for: recording.name)
        let row = TraceRow(file: recording.name, samples: recording.samples.count,
                           fusionMedian: f.median, fusionP95: f.percentile95,
                           accelerometerOnlyMedian: a.median, accelerometerOnlyP95: a.percentile95,
                           vqf6DMedian: peer?.vqf6DMedian, vqf6DP95: peer?.vqf6DP95,
                           peerAccelerometerOnlyMedian: peer?.accelerometerOnlyMedian,
                           peerAccelerometerOnlyP95: peer?.accelerometerOnlyP95)
        guard keepSeries else { return (row, []) }
        return (row, [("6-axis fusion", gravitySeries(recording.samples, .fusion)),
                      ("accelerometer-only", gravitySeries(recording.samples, .accelerometer))])
    }

    /// Gravity angle against the reference per sample, degrees, from 2 s on (as `GravityAgreement`).
    static func gravitySeries(_ samples: [MotionSample], _ kind: DeviceMotionEstimatorKind) -> [(Double, Double)] {
        var estimator = kind.make(frame: .xArbitraryZVertical)
        guard let start = samples.first?.timestamp else { return [] }
        var points: [(Double, Double)] = []
        for s in samples {
            guard let m = estimator.update(s), s.timestamp - start >= 2, let g = s.reference?.gravity, g.isFinite else { continue }
            points.append((s.timestamp - start, m.gravity.angle(to: g) * 180 / .pi))
        }
        return points
    }

    // MARK: Targets

    /// Accuracy goals on the public ten at BROAD's own rate (better than VQF's): the means, and no trial
    /// worse than VQF measured in the same run, like for like (both given BROAD's gyro delay, and both
    /// at their defaults); and "fusion beats accelerometer-only".
    static func targets(mean: BroadRow?, rows: [BroadRow], traces: [TraceRow], native: Bool) -> [TargetCheck] {
        var checks: [TargetCheck] = []
        if let mean, native, rows.count == 10 {
            checks.append(TargetCheck(name: "BROAD 9D total ≤ 2.40°", measured: Figure.fixed(mean.total9D, 2) + "°", met: mean.total9D <= 2.40))
            checks.append(TargetCheck(name: "BROAD inclination ≤ 0.65°", measured: Figure.fixed(mean.inclination9D, 2) + "°", met: mean.inclination9D <= 0.65))
            checks.append(TargetCheck(name: "BROAD 6D heading-corrected total ≤ 1.90°", measured: Figure.fixed(mean.totalHeadingCorrected6D, 2) + "°", met: mean.totalHeadingCorrected6D <= 1.90))
        }
        let delayed = "both given the gyro delay", defaults = "neither given it"
        let pairs: [(String, String, KeyPath<BroadRow, Double>, KeyPath<BroadRow, Double?>)] = [
            ("9D total", delayed, \.total9D, \.vqfDelayedTotal9D),
            ("6D total_hc", delayed, \.totalHeadingCorrected6D, \.vqfDelayedTotalHeadingCorrected6D),
            ("9D total at the defaults", defaults, \.total9DWithoutGyroDelay, \.vqfTotal9D),
            ("6D total_hc at the defaults", defaults, \.totalHeadingCorrected6DWithoutGyroDelay, \.vqfTotalHeadingCorrected6D),
        ]
        for (name, how, ours, theirs) in pairs {
            let worst = rows.compactMap { r -> (String, Double)? in r[keyPath: theirs].map { (r.trial, r[keyPath: ours] / $0) } }
                .max { $0.1 < $1.1 }
            if let worst, rows.count > 1 {
                checks.append(TargetCheck(name: "no trial's \(name) worse than VQF's (\(how), measured in this run)",
                                          measured: "worst \(worst.0): \(Figure.ratio(worst.1)) VQF", met: worst.1 <= 1.0))
            }
        }
        // "Moving": accelerometer-only is off by more than 5° at the median, so there is motion to fuse.
        let moving = traces.filter { $0.accelerometerOnlyMedian > 5 }
        if !moving.isEmpty {
            let beaten = moving.filter { $0.fusionMedian < $0.accelerometerOnlyMedian }.count
            checks.append(TargetCheck(name: "fusion beats accelerometer-only on the moving Core Motion recordings",
                                      measured: "\(beaten) of \(moving.count)", met: beaten == moving.count))
        }
        return checks
    }
}

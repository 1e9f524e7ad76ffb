import CartGame
import Foundation

/// The trade between latency and precision over the detectors' main threshold: the labelled set
/// scored again with the jump's and the duck's thresholds (the turning duck's too) scaled by each
/// factor, everything else as `controls`. A lower threshold crosses earlier in a motion's rise and
/// fires on more that was not meant; factor 1 is the game's own point.
public struct GestureThresholdCurve: Sendable, Encodable {
    /// Latency from the truth's onset is counted for gestures found only, so it is read beside recall.
    public struct Gesture: Sendable, Encodable {
        public var threshold: Double
        public var precision: Double
        public var recall: Double
        public var fires: Int
        public var unjudged: Int
        /// Seconds; nil when nothing with an onset was found.
        public var medianLatency: Double?
        public var p90Latency: Double?
        /// `GestureThresholdCurve.meetsTargets`, written out for readers of the JSON.
        public private(set) var meetsAims = false

        init(threshold: Double, _ score: GestureScore.PerGesture) {
            self.threshold = threshold
            precision = score.precision
            recall = score.recall
            fires = score.fires
            unjudged = score.unjudged
            medianLatency = score.latency(at: 0.5)
            p90Latency = score.latency(at: 0.9)
            meetsAims = GestureThresholdCurve.meetsTargets(self)
        }
    }

    public struct Point: Sendable, Encodable {
        public var factor: Double
        public var jump: Gesture
        public var duck: Gesture
        public var unjudgedPerMinute: Double
    }

    public var points: [Point]

    /// The aims the curve is read against: median and p90 latency from the onset at a precision.
    public static let latencyMedianTarget = 0.060
    public static let latencyP90Target = 0.150
    public static let precisionTarget = 0.95

    /// Scores `bench` once per factor.
    public static func measure(_ bench: GestureBenchmark, factors: [Double], progress: (String) -> Void = { _ in }) throws -> Self {
        var points: [Point] = []
        for factor in factors {
            var scaled = bench
            scaled.controls = scaled.controls.scalingThresholds(by: factor)
            let score = try scaled.run { progress(String(format: "×%.2f %@", factor, $0)) }.score
            points.append(Point(factor: factor, jump: Gesture(threshold: scaled.controls.jump.threshold, score.jump),
                                duck: Gesture(threshold: scaled.controls.duck.threshold, score.duck),
                                unjudgedPerMinute: score.unjudgedPerMinute))
        }
        return Self(points: points)
    }

    /// Whether a gesture at a point meets every aim: precision, then latency's median and p90.
    public static func meetsTargets(_ g: Gesture) -> Bool {
        g.precision >= precisionTarget && (g.medianLatency ?? .infinity) <= latencyMedianTarget
            && (g.p90Latency ?? .infinity) <= latencyP90Target
    }

    /// One row per factor and gesture, then which factors meet the aims.
    public var text: String {
        func ms(_ s: Double?) -> String { s.map { String(format: "%.0f", $0 * 1000) } ?? "-" }
        var lines = ["threshold ×  gesture  threshold  precision  recall  fires  unjudged  latency ms (median / p90)"]
        for point in points {
            for (name, g) in [("jump", point.jump), ("duck", point.duck)] {
                lines.append(String(format: "%11.2f  %-7@  %9.3f  %9.3f  %6.3f  %5d  %8d  %@ / %@%@", point.factor, name as NSString,
                                    g.threshold, g.precision, g.recall, g.fires, g.unjudged, ms(g.medianLatency) as NSString,
                                    ms(g.p90Latency) as NSString, Self.meetsTargets(g) ? "  (meets the aims)" : ""))
            }
        }
        lines.append(String(format: "aims: precision ≥ %.2f with latency from the onset ≤ %.0f ms median, ≤ %.0f ms p90; ×1 is the game's setting",
                            Self.precisionTarget, Self.latencyMedianTarget * 1000, Self.latencyP90Target * 1000))
        return lines.joined(separator: "\n")
    }

    /// Precision against median latency, one line per gesture, a point per factor (`--plot`).
    public var chart: SVGChart {
        var chart = SVGChart(title: "Gestures: precision against median latency over the threshold",
                             xLabel: "median latency from the truth's onset (ms)", yLabel: "precision")
        for (name, pick) in [("jump", \Point.jump), ("duck", \Point.duck)] {
            chart.series.append(.init(name: name, points: points.compactMap { point in
                point[keyPath: pick].medianLatency.map { ($0 * 1000, point[keyPath: pick].precision) }
            }))
        }
        chart.markers = [.init(x: Self.latencyMedianTarget * 1000, label: "median aim")]
        return chart
    }
}

extension MotionControlSettings {
    /// The same controls with both detectors' thresholds (and the turning duck's) times `factor`.
    public func scalingThresholds(by factor: Double) -> Self {
        var scaled = self
        scaled.jump.threshold *= factor
        scaled.duck.threshold *= factor
        scaled.duckTurningThreshold *= factor
        return scaled
    }
}

import Benchmarks
import CartGame
import Foundation
import Testing
import TestSupport

/// The latency and precision curve over the detectors' threshold, on x-io's bundled recording:
/// its two tips toward the player and two knocks, each labelled from 0.5 s before the game's fire
/// (the onset taken as the window's start), and its still, rolling and turning stretches.
@Suite struct GestureThresholdCurveTests {
    static func xioLabels() throws -> [GestureLabel] {
        let rows = """
        recording,pose,kind,start_s,end_s,onset_s,expect
        traces/xio/sensor_data.csv,auto,tip-toward,14.850,15.450,14.850,jump
        traces/xio/sensor_data.csv,auto,tip-toward,24.320,24.920,24.320,jump
        traces/xio/sensor_data.csv,auto,knock,80.570,81.170,80.570,duck
        traces/xio/sensor_data.csv,auto,knock,100.420,101.020,100.420,duck
        traces/xio/sensor_data.csv,auto,still,0.000,10.000,0.000,none
        traces/xio/sensor_data.csv,auto,roll,30.000,45.000,30.000,none
        traces/xio/sensor_data.csv,auto,yaw,45.000,60.000,45.000,none
        """
        return try GestureLabel.parse(rows + "\n")
    }

    @Test func scalingTheThresholdsScalesBothDetectorsAndTheTurningDuckOnly() {
        let standard = MotionControlSettings.standard
        let scaled = standard.scalingThresholds(by: 1.5)
        #expect(scaled.jump.threshold == standard.jump.threshold * 1.5)
        #expect(scaled.duck.threshold == standard.duck.threshold * 1.5)
        #expect(scaled.duckTurningThreshold == standard.duckTurningThreshold * 1.5)
        #expect(scaled.jump.window == standard.jump.window && scaled.duck.refractory == standard.duck.refractory)
        #expect(scaled.duckMaximumRotation == standard.duckMaximumRotation && scaled.jumpAxisShare == standard.jumpAxisShare)
    }

    @Test func aLowerThresholdFiresEarlierAndAHigherOneMissesTheGentleMotions() throws {
        let bench = GestureBenchmark(labels: try Self.xioLabels(), data: TestData.assets)
        let curve = try GestureThresholdCurve.measure(bench, factors: [0.7, 1, 3])
        #expect(curve.points.map(\.factor) == [0.7, 1, 3])
        let (low, standard, high) = (curve.points[0], curve.points[1], curve.points[2])
        // The game's own point finds every event, and only those.
        #expect(standard.jump.recall == 1 && standard.duck.recall == 1, "\(curve.text)")
        #expect(standard.jump.precision == 1 && standard.duck.precision == 1, "\(curve.text)")
        #expect(standard.jump.threshold == MotionControlSettings.standard.jump.threshold)
        // Crossing a lower level comes earlier in the same rise.
        let lowLatency = try #require(low.jump.medianLatency), standardLatency = try #require(standard.jump.medianLatency)
        #expect(lowLatency <= standardLatency, "\(curve.text)")
        // x-io's tips peak at 2.4–2.6 rad/s and its knocks at −0.31 g: three times the thresholds reach neither.
        #expect(high.jump.recall == 0 && high.duck.recall == 0, "\(curve.text)")
        #expect(high.jump.medianLatency == nil)
        #expect(curve.text.contains("threshold ×") && curve.chart.series.count == 2)
    }
}

import Benchmarks
import Foundation
import Mapper
import Motion

/// `tiltkit map --plot`: a trace mapped as fast as it reads, the view's turn from the mouse counts
/// the mapper sent set against the pad's own turn in the profile's space, times its sensitivity.
/// With real-world sensitivity the two lines should lie on each other; where they part, the
/// profile's smoothing, cutoff or acceleration is at work.
enum MapPlot {
    struct Result {
        var chart: SVGChart
        /// Largest gap between the view's and the pad's turn, degrees (yaw, pitch).
        var largestGap: (yaw: Double, pitch: Double)
        var samples: Int
    }

    /// Maps the samples `forEachSample` hands over, in time order (a trace read from its file a
    /// piece at a time); the chart's lines keep evenly spread points (`DecimatedSeries`), the gap
    /// and the count are over every sample.
    static func map(profile: MapperProfile, name: String,
                    forEachSample: (_ visit: (MotionSample) -> Void) throws -> Void) rethrows -> Result {
        var mapper = Mapper(profile: profile)
        var estimator = DeviceMotionEstimatorKind.fusion.make()
        let countsPerDegree = profile.countsPerDegree
        let degrees = 180 / Double.pi
        var view = (yaw: 0.0, pitch: 0.0), pad = (yaw: 0.0, pitch: 0.0)
        var gap = (yaw: 0.0, pitch: 0.0)
        var series = (viewYaw: DecimatedSeries(), padYaw: DecimatedSeries(), viewPitch: DecimatedSeries(), padPitch: DecimatedSeries())
        var previous: Double?
        var start: Double?
        var count = 0
        try forEachSample { sample in
            count += 1
            if start == nil { start = sample.timestamp }
            let output = mapper.step(sample: sample, controls: .idle)
            view.yaw += Double(output.mouseX) / countsPerDegree
            view.pitch -= Double(output.mouseY) / countsPerDegree
            let motion = estimator.update(sample)
            if let motion, let last = previous, let w = sample.rotationRate, w.isFinite {
                let dt = sample.timestamp - last
                // The mapper's own rule: no motion across a gap (a stall, a replay's loop).
                if dt > 0, dt <= Mapper.maximumSampleInterval {
                    let rate = profile.gyroSpace.aimRate(rotationRate: w, gravity: motion.gravity)
                    // Aim yaw is positive to the left; the mouse's x to the right.
                    pad.yaw -= rate.yaw * dt * degrees * profile.gyroSensitivity * (profile.gyroInvertX ? -1 : 1)
                    pad.pitch += rate.pitch * dt * degrees * profile.gyroSensitivity * (profile.gyroInvertY ? -1 : 1)
                }
            }
            previous = sample.timestamp
            let t = sample.timestamp - start!
            series.viewYaw.append((t, view.yaw)); series.padYaw.append((t, pad.yaw))
            series.viewPitch.append((t, view.pitch)); series.padPitch.append((t, pad.pitch))
            gap = (max(gap.yaw, abs(view.yaw - pad.yaw)), max(gap.pitch, abs(view.pitch - pad.pitch)))
        }
        var chart = SVGChart(title: "tiltkit map: \(name), \(profile.gyroSpace.rawValue) space, sensitivity \(String(format: "%g", profile.gyroSensitivity))",
                             xLabel: "time (s)", yLabel: "turn (deg)")
        chart.series = [
            .init(name: "view right (mouse counts)", points: series.viewYaw.points),
            .init(name: "pad right × sensitivity", points: series.padYaw.points),
            .init(name: "view up (mouse counts)", points: series.viewPitch.points),
            .init(name: "pad up × sensitivity", points: series.padPitch.points),
        ]
        return Result(chart: chart, largestGap: gap, samples: count)
    }
}

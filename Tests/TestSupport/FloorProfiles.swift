import Foundation
import Motion

/// Constructed rides and climbs for the floor tests: a real walk's acceleration (the bundled Oxford
/// `user2_hand`, held in the hand) or a device held still, with the barometer's pressure of a
/// height profile (ICAO atmosphere: one 3 m floor is ≈0.036 kPa near sea level) on every sample.
public enum FloorProfiles {
    /// Height, m, at time t, s.
    public typealias Altitude = @Sendable (Double) -> Double

    /// Climbs (or, with a negative `rate`, descends) `metres` at `rate` m/s from `start` s, level before and after.
    public static func ramp(from start: Double, metres: Double, rate: Double) -> Altitude {
        let duration = abs(metres / rate)
        return { t in metres * min(1, max(0, (t - start) / duration)) }
    }

    /// The first `seconds` of the Oxford walk, about 1.7 steps/s all through.
    public static func walk(seconds: Double) throws -> [MotionSample] {
        try OxfordTraces.trace("user2_hand").samples.filter { $0.timestamp < seconds }
    }

    /// A device held still (face up, 0.005 g of noise) for `seconds` at 100 Hz, from `start` s.
    public static func still(seconds: Double, from start: Double = 0) -> [MotionSample] {
        var random = SplitMix64(seed: 11)
        return (0..<Int(seconds * 100)).map { i in
            let noise = Vector3(random.nextUnit() - 0.5, random.nextUnit() - 0.5, random.nextUnit() - 0.5) * 0.01
            return MotionSample(timestamp: start + Double(i) / 100, acceleration: Vector3(0, 0, -1) + noise)
        }
    }

    /// `samples` each with the pressure, kPa, of `altitude` at its time.
    public static func withPressure(_ samples: [MotionSample], _ altitude: Altitude) -> [MotionSample] {
        samples.map { s in
            var s = s
            s.pressure = BarometricAltitude.pressure(altitude: altitude(s.timestamp))
            return s
        }
    }

    /// Walk `seconds`, ride a lift up `metres` (1.2 m/s, a few seconds after the doors close) while
    /// standing still for `seconds`, then walk out for `seconds`: walking, but not while the height changes.
    public static func walkRideWalk(seconds: Double, metres: Double) throws -> [MotionSample] {
        let walk = try Self.walk(seconds: 3 * seconds)
        let samples = walk.filter { $0.timestamp < seconds } + still(seconds: seconds, from: seconds)
            + walk.filter { $0.timestamp >= 2 * seconds }
        return withPressure(samples, ramp(from: seconds + 3, metres: metres, rate: 1.2))
    }

    /// 7 m (two floors and some) walked up the stairs from 10 s to 30 s, then, standing still from
    /// 40 s to 70 s, three 3.2 m storeys by lift from 45 s: two floors walked, three ridden.
    public static func stairsThenLift() throws -> [MotionSample] {
        let climb = ramp(from: 10, metres: 7, rate: 0.35)
        let lift = ramp(from: 45, metres: 9.6, rate: 1.2)
        return withPressure(try walk(seconds: 40) + still(seconds: 30, from: 40)) { climb($0) + lift($0) }
    }
}

import CartGame
import Foundation
import Motion
import Testing

/// A hand's strokes against a gait's steps, by their cause: where the jolts point, how sharp they are,
/// and whether the vertical motion one step apart repeats (steps) or reverses (a stroke down, then up).
@Suite struct HandStrokesTests {
    /// 4 s at 100 Hz of user acceleration `a(t)` (g) under gravity straight down.
    static func strokes(_ a: (Double) -> Vector3) -> HandStrokes {
        var strokes = HandStrokes()
        for i in 0..<400 {
            let t = Double(i) * 0.01
            strokes.push(DeviceMotion(timestamp: t, attitude: .identity, rotationRate: .zero,
                                      gravity: Vector3(0, 0, -1), userAcceleration: a(t)))
        }
        return strokes
    }

    @Test func sidewaysStrokesAreAHand() {
        let s = Self.strokes { t in Vector3(0.5 * sin(2 * .pi * t), 0, 0) }
        #expect(s.measures.map { $0.verticalShare < 0.01 } == true)
        #expect(s.areHandStrokes(stepRate: 2))
    }

    /// Up and down at 1 Hz: |a| repeats each second, which the classifier reads as a stride of two
    /// steps (2 steps/s), but half a second apart the vertical acceleration is reversed.
    @Test func verticalStrokesReverseOneStepApart() throws {
        let s = Self.strokes { t in Vector3(0, 0, -0.3 * sin(2 * .pi * t)) }
        let c = try #require(s.verticalCorrelation(lag: 0.5))
        #expect(c < -0.9)
        #expect(s.areHandStrokes(stepRate: 2))
    }

    /// Steps at 2 per second, each a sharp heel strike (a 30 ms spike) and a flat swing: along gravity,
    /// skewed, and alike one step apart.
    @Test func stepsAreNoStrokes() throws {
        let s = Self.strokes { t in
            let phase = t.truncatingRemainder(dividingBy: 0.5)
            return Vector3(0.05 * sin(2 * .pi * t), 0, phase < 0.03 ? -1.5 : 0.1)
        }
        let m = try #require(s.measures)
        #expect(m.verticalShare > 0.9 && m.magnitudeSkew > 1)
        #expect(try #require(s.verticalCorrelation(lag: 0.5)) > 0.9)
        #expect(!s.areHandStrokes(stepRate: 2))
    }

    @Test func tooFewSamplesSayNothing() {
        var s = HandStrokes()
        s.push(DeviceMotion(timestamp: 0, attitude: .identity, rotationRate: .zero, gravity: Vector3(0, 0, -1),
                            userAcceleration: Vector3(1, 0, 0)))
        #expect(s.measures == nil && !s.areHandStrokes(stepRate: 2))
    }
}

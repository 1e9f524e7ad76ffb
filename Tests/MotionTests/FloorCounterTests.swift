import Foundation
import Testing
import TestSupport
@testable import Motion

@Suite("Floors from relative altitude")
struct FloorCounterTests {
    /// Three floors up a staircase (≈3.2 m a floor, 12 s each), a minute on the landing, two
    /// floors down; barometer noise of ±0.4 m (a phone's BMP-class sensor at 1 Hz reads ≈0.1 hPa).
    @Test("a staircase with barometric noise counts its floors, the noise none")
    func staircase() {
        var random = SplitMix64(seed: 3)
        var floors = FloorCounter()
        var t = 0.0
        func feed(_ altitude: Double, for seconds: Double) {
            let end = t + seconds
            while t < end {
                floors.update(time: t, relativeAltitude: altitude + (random.nextUnit() - 0.5) * 0.8)
                t += 0.1
            }
        }
        feed(0, for: 30)
        #expect(floors.ascended == 0 && floors.descended == 0, "noise alone")
        for step in 1...36 { feed(Double(step) * 9.6 / 36, for: 1) }
        feed(9.6, for: 60)
        for step in 1...24 { feed(9.6 - Double(step) * 6.4 / 24, for: 1) }
        feed(3.2, for: 30)
        #expect(floors.ascended == 3)
        #expect(floors.descended == 2)
    }

    @Test("weather drift of 8 m in 3 hours adds no floors; NaN and time going back are ignored")
    func drift() {
        var floors = FloorCounter()
        for i in 0...10_800 {
            let t = Double(i)
            floors.update(time: t, relativeAltitude: 8 * t / 10_800)
            if i % 100 == 0 { floors.update(time: t, relativeAltitude: .nan) }
            if i % 150 == 0 { floors.update(time: t - 5, relativeAltitude: 100) }
        }
        #expect(floors.ascended == 0 && floors.descended == 0)
    }

    @Test("the step counter turns MotionSample.pressure into floors (ICAO atmosphere)")
    func fromPressure() {
        var counter = StepCounter()
        // One floor is ≈3 m ≈ 0.036 kPa near sea level; climb 7 m over 20 s at 10 Hz readings.
        for i in 0...600 {
            let t = Double(i) / 10
            let altitude = min(7, max(0, (t - 10) * 0.35))
            let pressure = BarometricAltitude.pressure(altitude: altitude)
            counter.update(MotionSample(timestamp: t, acceleration: Vector3(0, 0, -1), pressure: pressure))
        }
        let data = counter.data()
        #expect(data.floorsAscended == 2 && data.floorsDescended == 0)
        #expect(data.numberOfSteps == 0)
    }
}

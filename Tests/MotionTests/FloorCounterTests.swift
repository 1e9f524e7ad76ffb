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

    /// Counts `samples` as the trace path does (`tiltkit pedometer FILE`).
    static func count(_ samples: [MotionSample]) -> PedometerData { OxfordTraces.count(samples).data() }

    @Test("the step counter counts MotionSample.pressure's floors walked up or down the stairs (a real walk's steps)")
    func walkedStairs() throws {
        let walk = try FloorProfiles.walk(seconds: 60)
        // 7 m up over 20 s at 0.35 m/s, and 9.6 m (three 3.2 m storeys) down over 30 s.
        let up = Self.count(FloorProfiles.withPressure(walk, FloorProfiles.ramp(from: 10, metres: 7, rate: 0.35)))
        #expect(up.floorsAscended == 2 && up.floorsDescended == 0)
        #expect(up.numberOfSteps > 80)
        let down = Self.count(FloorProfiles.withPressure(walk, FloorProfiles.ramp(from: 10, metres: -9.6, rate: -0.32)))
        #expect(down.floorsAscended == 0 && down.floorsDescended == 3)
    }

    @Test("a lift up or down three storeys, the device still, counts no floors; nor does one ridden between two walks")
    func liftRides() throws {
        let still = FloorProfiles.still(seconds: 60)
        let lift = FloorProfiles.withPressure(still, FloorProfiles.ramp(from: 10, metres: 9.6, rate: 1.2))
        let up = Self.count(lift)
        #expect(up.floorsAscended == 0 && up.floorsDescended == 0 && up.numberOfSteps == 0)
        let down = Self.count(FloorProfiles.withPressure(still, FloorProfiles.ramp(from: 10, metres: -9.6, rate: -1.2)))
        #expect(down.floorsAscended == 0 && down.floorsDescended == 0)
        // Walked to the lift and out of it: steps just before and after the ride, none during it.
        let between = Self.count(try FloorProfiles.walkRideWalk(seconds: 20, metres: 9.6))
        #expect(between.floorsAscended == 0 && between.floorsDescended == 0)
        #expect(between.numberOfSteps > 40)
        // The altitude alone counts floors there, each from when the ride began: the steps leave them out.
        var altitude = StepCounter()
        for s in lift { altitude.update(s) }
        #expect(altitude.floors.ascended >= 2 && altitude.floorChanges.allSatisfy { $0.start >= 10 }, "\(altitude.floorChanges)")
    }
}

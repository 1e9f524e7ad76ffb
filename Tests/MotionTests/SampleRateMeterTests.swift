import Foundation
import Testing
@testable import Motion

@Suite("Measured sample rate")
struct SampleRateMeterTests {
    @Test("jittery 100 Hz timestamps measure 100 Hz; nothing before a full second")
    func jitteryRate() {
        var meter = SampleRateMeter()
        var generator = SystemRandomNumberGenerator()
        for i in 0..<99 { meter.add(timestamp: Double(i) / 100 + Double.random(in: -0.002...0.002, using: &generator)) }
        #expect(meter.rate == nil)
        for i in 99..<1000 { meter.add(timestamp: Double(i) / 100 + Double.random(in: -0.002...0.002, using: &generator)) }
        let rate = try! #require(meter.rate)
        #expect(abs(rate - 100) < 0.7, "\(rate) Hz")
    }

    @Test("a Bluetooth pad dropping every other report measures half its rate")
    func droppedReports() {
        var meter = SampleRateMeter()
        for i in stride(from: 0, to: 2500, by: 2) { meter.add(timestamp: Double(i) / 250) }
        #expect(abs(meter.rate! - 125) < 0.01)
    }

    @Test("NaN is ignored; time going backwards (a looping replay) starts a new window")
    func badTimestamps() {
        var meter = SampleRateMeter()
        for i in 0...200 { meter.add(timestamp: Double(i) / 50) }
        #expect(abs(meter.rate! - 50) < 1e-9)
        meter.add(timestamp: .nan)
        for i in 0...400 { meter.add(timestamp: Double(i) / 200) }  // loops back to 0 at a new rate
        #expect(abs(meter.rate! - 200) < 1e-9)
        meter.reset()
        #expect(meter.rate == nil)
    }

    @Test("the manager measures what a source delivers and forgets it on disconnect")
    func managerMeasures() throws {
        let plan = PacedTestSource.Plan(count: 3000, rate: 500, realTime: false, disconnectAt: 2990)
        let done = DispatchSemaphore(value: 0)
        let manager = MotionManager(source: PacedTestSource(plan) { done.signal() })
        manager.startAccelerometerUpdates()
        #expect(done.wait(timeout: .now() + 10) == .success)
        // the 2990 samples before the disconnect measured 500 Hz; the disconnect forgot it
        #expect(manager.measuredSampleRate == nil)
        manager.stopAccelerometerUpdates()

        let manager2 = MotionManager(source: PacedTestSource(PacedTestSource.Plan(count: 1200, rate: 500, realTime: false)) { done.signal() })
        manager2.startAccelerometerUpdates()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let rate = try #require(manager2.measuredSampleRate)
        #expect(abs(rate - 500) < 1e-6, "\(rate) Hz")
        #expect(manager2.source.info.nominalRate == 500)
        manager2.stopAccelerometerUpdates()
    }
}

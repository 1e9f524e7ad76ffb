import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Motion

/// The README's library example, run as written (with a replay that runs as fast as possible).
@Suite struct ReadmeExampleTests {
    @Test func theReadmeExampleRunsOnTheBundledTrace() throws {
        let url = TestData.assets.appendingPathComponent("traces/mpower/balance_data.csv")
        let trace = try Trace.load(contentsOf: url)
        let source = ReplaySource(trace: trace, pacing: .asFastAsPossible, loop: false)
        let manager = MotionManager(source: source)

        let received = Mutex(0)
        let done = DispatchSemaphore(value: 0)
        manager.deviceMotionUpdateInterval = 0
        manager.startDeviceMotionUpdates(using: .xArbitraryZVertical, to: DispatchQueue(label: "motion")) { motion, error in
            guard motion != nil else { return }
            if received.withLock({ $0 += 1; return $0 }) == trace.samples.count { done.signal() }
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        let pulled = try #require(manager.deviceMotion)
        // The recording ends with the phone still: the pulled gravity is unit length and sums with
        // user acceleration to the last measured acceleration.
        #expect(abs(pulled.gravity.length - 1) < 1e-9)
        let last = try #require(trace.samples.last)
        #expect((pulled.gravity + pulled.userAcceleration - last.acceleration).length < 1e-9)
        manager.resetReferenceAttitude()
        manager.stopDeviceMotionUpdates()
        #expect(received.withLock { $0 } == trace.samples.count)
    }
}

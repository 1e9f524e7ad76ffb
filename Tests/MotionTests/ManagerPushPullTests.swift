import CAllocationCounter
import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Motion

@Suite("MotionManager push and pull")
struct ManagerPushPullTests {
    @Test("push: every sample of a 1 kHz producer exactly once, in order, to a slow consumer; producer never waits")
    func pushEverySampleToSlowConsumer() throws {
        let count = 1000
        let collector = Collector<AccelerometerData>()
        let consumedWhenProducerFinished = Atomic<Int>(-1)
        let source = PacedTestSource(PacedTestSource.Plan(count: count, rate: 1000)) {
            consumedWhenProducerFinished.store(collector.count, ordering: .relaxed)
        }
        let manager = MotionManager(source: source)
        let queue = DispatchQueue(label: "slow consumer")
        manager.startAccelerometerUpdates(to: queue) { data, error in
            usleep(2000)  // 2 ms per sample: half the producer's rate
            collector.append(data, error)
        }
        #expect(collector.wait(for: count, seconds: 30))
        manager.stopAccelerometerUpdates()

        let timestamps = collector.all.map(\.timestamp)
        #expect(timestamps.count == count, "none missed, none duplicated")
        #expect(timestamps == (0..<count).map { Double($0) / 1000 }, "in order, each exactly once")
        #expect(collector.errorMessages.isEmpty)
        // The producer ran at its own pace: it finished while the consumer was far behind.
        let behind = consumedWhenProducerFinished.load(ordering: .relaxed)
        #expect(behind >= 0 && behind < count * 3 / 4, "consumer had \(behind) of \(count) when the producer ended")
    }

    @Test("push on a concurrent queue still delivers one at a time, in order")
    func pushOnConcurrentQueue() throws {
        let count = 3000
        let source = PacedTestSource(PacedTestSource.Plan(count: count, realTime: false))
        let manager = MotionManager(source: source)
        let inHandler = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let collector = Collector<GyroData>()
        manager.startGyroUpdates(to: DispatchQueue(label: "concurrent", attributes: .concurrent)) { data, error in
            if inHandler.add(1, ordering: .relaxed).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
            collector.append(data, error)
            inHandler.subtract(1, ordering: .relaxed)
        }
        #expect(collector.wait(for: count))
        manager.stopGyroUpdates()
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(collector.all.map(\.timestamp) == (0..<count).map { Double($0) / 1000 })
    }

    @Test("push through an OperationQueue, as Core Motion's API takes")
    func pushOnOperationQueue() throws {
        let count = 500
        let manager = MotionManager(source: PacedTestSource(PacedTestSource.Plan(count: count, realTime: false)))
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let collector = Collector<AccelerometerData>()
        manager.startAccelerometerUpdates(to: queue) { data, error in collector.append(data, error) }
        #expect(collector.wait(for: count))
        manager.stopAccelerometerUpdates()
        #expect(collector.all.map(\.timestamp) == (0..<count).map { Double($0) / 1000 })
    }

    @Test("push: every device-motion sample of a real trace, once, in order (x-io, 13 500 samples)")
    func pushDeviceMotionFromRealTrace() throws {
        let url = TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv")
        let trace = try Trace.load(contentsOf: url)
        let replay = ReplaySource(trace: trace, pacing: .asFastAsPossible)
        let manager = MotionManager(source: replay)
        let collector = Collector<DeviceMotion>()
        manager.startDeviceMotionUpdates(using: .xArbitraryZVertical, to: DispatchQueue(label: "recorder")) {
            motion, error in collector.append(motion, error)
        }
        let expected = trace.samples.count - manager.deviceMotionRejectionsAfterWaiting(for: trace.samples.count,
                                                                                         collector: collector)
        manager.stopDeviceMotionUpdates()
        let stamps = collector.all.map(\.timestamp)
        #expect(stamps.count == expected)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "strictly increasing: no duplicates, in order")
        let traceTimes = Set(trace.samples.map(\.timestamp))
        #expect(stamps.allSatisfy { traceTimes.contains($0) }, "each pushed sample is one of the trace's")
    }

    @Test("pull: nil before the first sample, then the latest; pulls never allocate")
    func pullLatestWithoutAllocation() throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope, .magnetometer])
        let manager = MotionManager(source: source)
        #expect(manager.accelerometerData == nil)
        #expect(manager.deviceMotion == nil)
        manager.startAccelerometerUpdates()
        manager.startGyroUpdates()
        manager.startMagnetometerUpdates()
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        for i in 0..<50 {
            source.emit(MotionSample(timestamp: Double(i) * 0.01, acceleration: Vector3(0, 0, -1),
                                     rotationRate: Vector3(0, 0, 0.1), magneticField: Vector3(20, 0, -40)))
        }
        #expect(manager.accelerometerData == AccelerometerData(timestamp: 0.49, acceleration: Vector3(0, 0, -1)))
        #expect(manager.gyroData?.rotationRate == Vector3(0, 0, 0.1))
        #expect(manager.magnetometerData?.magneticField == Vector3(20, 0, -40))
        let motion = try #require(manager.deviceMotion)
        #expect(motion.timestamp == 0.49)
        #expect(motion.gravity.angle(to: Vector3(0, 0, -1)) < 0.01)

        _ = manager.latestDeviceMotion
        let before = tk_allocation_count()
        var stamps = 0.0
        for _ in 0..<10_000 {
            stamps += manager.deviceMotion?.timestamp ?? 0
            stamps += manager.accelerometerData?.timestamp ?? 0
            stamps += manager.latestDeviceMotion?.arrivalTime ?? 0
        }
        let allocations = tk_allocation_count() - before
        // Counted only in a build with TILTKIT_ALLOCATION_COUNTER=1 (not under the sanitizers).
        #expect(allocations == 0, "\(allocations) heap allocations in 10 000 pulls of each kind")
        #expect(stamps > 0)
        manager.stopDeviceMotionUpdates()
        manager.stopAccelerometerUpdates()
        manager.stopGyroUpdates()
        manager.stopMagnetometerUpdates()
    }

    @Test("pull stamps arrival on the injected clock, so sample age is measurable")
    func arrivalTimeFromInjectedClock() throws {
        let source = SteppedTestSource(sensors: [.accelerometer])
        let clock = ManualClock(now: 100)
        let manager = MotionManager(source: source, clock: clock)
        manager.startAccelerometerUpdates()
        source.emit(MotionSample(timestamp: 3, acceleration: Vector3(0, 0, -1)))
        clock.advance(by: 0.25)
        let received = try #require(manager.latestAccelerometerData)
        #expect(received.arrivalTime == 100)
        #expect(clock.now() - received.arrivalTime == 0.25)
        #expect(received.value.timestamp == 3)
    }

    @Test("a reader hammering pull while a 1 kHz producer runs: every sample still pushed, pulls monotonic")
    func pullHammeringDoesNotDisturbProducer() throws {
        let count = 1000
        let source = PacedTestSource(PacedTestSource.Plan(count: count, rate: 1000))
        let manager = MotionManager(source: source)
        let collector = Collector<DeviceMotion>()
        let done = Atomic<Bool>(false)
        let pulls = Atomic<Int>(0)
        let backwards = Atomic<Int>(0)
        let reader = TestThread("render loop") {
            var last = -1.0
            var n = 0
            while !done.load(ordering: .acquiring) {
                if let m = manager.deviceMotion {
                    if m.timestamp < last { backwards.add(1, ordering: .relaxed) }
                    last = m.timestamp
                    n += 1
                }
            }
            pulls.store(n, ordering: .relaxed)
        }
        manager.startDeviceMotionUpdates(to: DispatchQueue(label: "recorder")) { m, e in collector.append(m, e) }
        #expect(collector.wait(for: count))
        done.store(true, ordering: .releasing)
        reader.wait()
        manager.stopDeviceMotionUpdates()
        #expect(collector.count == count)
        #expect(backwards.load(ordering: .relaxed) == 0)
        #expect(pulls.load(ordering: .relaxed) > count)
    }
}

extension MotionManager {
    /// Waits until the collector holds every sample the estimator accepted; returns the rejections.
    fileprivate func deviceMotionRejectionsAfterWaiting(for total: Int, collector: Collector<DeviceMotion>) -> Int {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let rejected = deviceMotionRejections.total
            if connectionState == .ended && collector.count == total - rejected { return rejected }
            usleep(2000)
        }
        return deviceMotionRejections.total
    }
}

import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Motion

/// Samples a source delivers together (`.samples` with several) go through the manager as one
/// batch: one arrival-clock read, one pipeline lock, one hand-off per channel. These tests fail if
/// that loses, duplicates or reorders a sample, stamps a batch other than documented, or keeps a
/// sample's result from the pull slots.
@Suite("MotionManager: batches of samples")
struct ManagerBatchTests {
    /// 9-axis samples at 100 Hz turning slowly about z, so fusion accepts each and its output moves.
    static func samples(_ count: Int) -> [MotionSample] {
        (0..<count).map { i in
            let angle = Double(i) * 0.002
            return MotionSample(timestamp: Double(i) * 0.01, acceleration: Vector3(0.01 * sin(angle), 0, -1),
                                rotationRate: Vector3(0, 0, 0.2), magneticField: Vector3(20 * cos(angle), 20 * sin(angle), -40))
        }
    }

    /// Batch sizes covering one, a few, more than a replay's cap and more than a channel's wake-up.
    static let sizes = [1, 5, 64, 2, 300, 1, 1, 17, 3]

    static func batches(_ samples: [MotionSample]) -> [[MotionSample]] {
        var out: [[MotionSample]] = []
        var start = 0, k = 0
        while start < samples.count {
            let end = min(samples.count, start + sizes[k % sizes.count])
            out.append(Array(samples[start..<end]))
            start = end
            k += 1
        }
        return out
    }

    /// Everything the manager pushes for `events`: accelerometer, gyro, device motion and an
    /// observer, on serial queues with a handler slower than the producer now and then.
    static func pushed(_ events: [MotionSourceEvent], interval: Double = 0)
        -> (accelerometer: [AccelerometerData], gyro: [GyroData], motion: [DeviceMotion], observed: [MotionSample]) {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope, .magnetometer])
        let manager = MotionManager(source: source, clock: ManualClock())
        manager.accelerometerUpdateInterval = interval
        let accelerometer = Collector<AccelerometerData>(), gyro = Collector<GyroData>()
        let motion = Collector<DeviceMotion>(), observed = Collector<MotionSample>()
        let slowEvery = Atomic<Int>(0)
        manager.startAccelerometerUpdates(to: DispatchQueue(label: "accelerometer")) { data, error in
            if slowEvery.add(1, ordering: .relaxed).newValue % 97 == 0 { usleep(200) }
            accelerometer.append(data, error)
        }
        manager.startGyroUpdates(to: DispatchQueue(label: "gyro")) { data, error in gyro.append(data, error) }
        manager.startDeviceMotionUpdates(using: .xArbitraryCorrectedZVertical, to: DispatchQueue(label: "motion")) {
            data, error in motion.append(data, error)
        }
        let observation = manager.observeSamples(on: DispatchQueue(label: "observer")) { observed.append($0, nil) }
        for event in events { source.emit(event) }
        let n = events.samples.count
        _ = gyro.wait(for: n, seconds: 20)
        _ = observed.wait(for: n, seconds: 20)
        _ = motion.wait(for: n - manager.deviceMotionRejections.total, seconds: 20)
        let accelerometerExpected = interval == 0 ? n : 0
        if accelerometerExpected > 0 { _ = accelerometer.wait(for: accelerometerExpected, seconds: 20) }
        Thread.sleep(forTimeInterval: 0.05)  // anything duplicated would arrive meanwhile
        observation.cancel()
        manager.stopAccelerometerUpdates()
        manager.stopGyroUpdates()
        manager.stopDeviceMotionUpdates()
        #expect(accelerometer.errorMessages.isEmpty && gyro.errorMessages.isEmpty && motion.errorMessages.isEmpty)
        return (accelerometer.all, gyro.all, motion.all, observed.all)
    }

    @Test("every sample of batches of 1 to 300 pushed once, in order, to every handler and observer")
    func batchesDeliverEverySampleOnceInOrder() throws {
        let samples = Self.samples(2000)
        let got = Self.pushed(Self.batches(samples).map { .samples($0) })
        let timestamps = samples.map(\.timestamp)
        #expect(got.accelerometer.map(\.timestamp) == timestamps)
        #expect(got.accelerometer.map(\.acceleration) == samples.map(\.acceleration))
        #expect(got.gyro.map(\.timestamp) == timestamps)
        #expect(got.observed == samples)
        #expect(got.motion.map(\.timestamp) == timestamps)
    }

    @Test("batched or one by one, the manager pushes the same results (fusion, update intervals)")
    func batchingChangesNoResult() throws {
        let samples = Self.samples(1500)
        for interval in [0, 0.025] {
            let single = Self.pushed(samples.map { .samples([$0]) }, interval: interval)
            let batched = Self.pushed(Self.batches(samples).map { .samples($0) }, interval: interval)
            #expect(!single.motion.isEmpty && batched.motion == single.motion)
            #expect(!single.accelerometer.isEmpty && batched.accelerometer == single.accelerometer)
            #expect(batched.gyro == single.gyro && batched.observed == single.observed)
        }
    }

    @Test("a batch reads the arrival clock once; each of its samples is stamped with that time")
    func oneArrivalTimePerBatch() throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope])
        let clock = CountingClock(now: 100)
        let manager = MotionManager(source: source, clock: clock)
        manager.startAccelerometerUpdates()
        manager.startDeviceMotionUpdates()
        let samples = Self.samples(40).map { MotionSample(timestamp: $0.timestamp, acceleration: $0.acceleration, rotationRate: $0.rotationRate) }

        let readsBefore = clock.reads
        source.emit(.samples(Array(samples[0..<25])))
        #expect(clock.reads == readsBefore + 1)
        let first = try #require(manager.latestAccelerometerData)
        #expect(first.value.timestamp == samples[24].timestamp && first.arrivalTime == 100)
        #expect(manager.latestDeviceMotion?.arrivalTime == 100)

        clock.manual.advance(by: 0.5)
        source.emit(.samples(Array(samples[25...])))
        #expect(clock.reads == readsBefore + 2)
        let second = try #require(manager.latestAccelerometerData)
        #expect(second.value.timestamp == samples[39].timestamp && second.arrivalTime == 100.5)
        #expect(manager.latestDeviceMotion?.arrivalTime == 100.5)
    }

    @Test("pull slots get a batch's newest output once the batch is processed, one publish a batch")
    func pullSlotsPublishTheBatchsNewest() throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope, .magnetometer])
        let manager = MotionManager(source: source, clock: ManualClock())
        manager.startAccelerometerUpdates()
        manager.startGyroUpdates()
        manager.startMagnetometerUpdates()
        manager.startDeviceMotionUpdates()
        let samples = Self.samples(200)
        var batches: UInt64 = 0
        for batch in Self.batches(samples) {
            source.emit(.samples(batch))
            batches += 1
            #expect(manager.slots.accelerometer.publishCount == batches)
            #expect(manager.slots.gyro.publishCount == batches)
            #expect(manager.slots.magnetometer.publishCount == batches)
            #expect(manager.slots.deviceMotion.publishCount == batches)
            #expect(manager.accelerometerData?.timestamp == batch.last?.timestamp)
            #expect(manager.gyroData?.timestamp == batch.last?.timestamp)
            #expect(manager.magnetometerData?.timestamp == batch.last?.timestamp)
            #expect(manager.deviceMotion?.timestamp == batch.last?.timestamp)
        }
    }

    @Test("a batch whose last sample fusion refuses publishes the newest it took")
    func refusedLastSampleLeavesTheNewestTaken() throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope])
        let manager = MotionManager(source: source, clock: ManualClock())
        manager.startDeviceMotionUpdates()
        var batch = Self.samples(4).map { MotionSample(timestamp: $0.timestamp, acceleration: $0.acceleration, rotationRate: $0.rotationRate) }
        batch[3].acceleration = Vector3(.nan, 0, -1)
        source.emit(.samples(batch))
        #expect(manager.deviceMotionRejections.nonFinite == 1)
        #expect(manager.deviceMotion?.timestamp == batch[2].timestamp)
        #expect(manager.slots.deviceMotion.publishCount == 1)
    }

    @Test("an empty batch is nothing: no clock read, no publish")
    func emptyBatchIsIgnored() throws {
        let source = SteppedTestSource(sensors: [.accelerometer])
        let clock = CountingClock(now: 0)
        let manager = MotionManager(source: source, clock: clock)
        manager.startAccelerometerUpdates()
        let reads = clock.reads
        source.emit(.samples([]))
        #expect(clock.reads == reads && manager.accelerometerData == nil)
    }
}

/// A manual clock that counts `now()` calls: how many arrival stamps the manager took.
final class CountingClock: MotionClock, @unchecked Sendable {
    let manual: ManualClock
    private let count = Atomic<Int>(0)

    init(now: Double) { manual = ManualClock(now: now) }

    var reads: Int { count.load(ordering: .relaxed) }

    func now() -> Double {
        count.add(1, ordering: .relaxed)
        return manual.now()
    }

    func sleep(until deadline: Double) { manual.sleep(until: deadline) }
}

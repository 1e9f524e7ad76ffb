import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Motion

/// The update types as `AsyncStream`s (`for await motion in try manager.deviceMotionUpdates()`),
/// fed by real sources: a recording replayed, or samples emitted by the test on the source's behalf.
@Suite("MotionManager updates as async sequences")
struct ManagerAsyncUpdatesTests {
    /// Waits (on the test's task) until `count` reaches `target` or 10 s pass.
    static func wait(until count: @Sendable () -> Int, reaches target: Int) async throws {
        let deadline = Date().addingTimeInterval(10)
        while count() < target, Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
    }

    /// Waits until `condition` holds or 10 s pass: a cancelled consumer's stop runs on a thread of its own.
    static func wait(until condition: @Sendable () -> Bool) async throws {
        try await wait(until: { condition() ? 1 : 0 }, reaches: 1)
    }

    @Test("every accelerometer sample of a recording, in order; the stream finishes when the replay ends")
    func accelerometerFromRecording() async throws {
        let trace = try Recordings.xio()
        let manager = MotionManager(source: ReplaySource(trace: trace, pacing: .asFastAsPossible))
        var stamps: [Double] = []
        for await data in try manager.accelerometerUpdates() { stamps.append(data.timestamp) }
        #expect(stamps == trace.samples.map(\.timestamp), "each sample exactly once, in the trace's order")
        #expect(!manager.isAccelerometerActive, "the source's end stops the update type")
    }

    @Test("device motion of a recording: one per accepted sample, strictly increasing")
    func deviceMotionFromRecording() async throws {
        let trace = try Recordings.xio()
        let manager = MotionManager(source: ReplaySource(trace: trace, pacing: .asFastAsPossible))
        var stamps: [Double] = []
        for await motion in try manager.deviceMotionUpdates(using: .xArbitraryZVertical) { stamps.append(motion.timestamp) }
        #expect(stamps.count >= trace.samples.count * 99 / 100, "\(stamps.count) of \(trace.samples.count)")
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "strictly increasing: none twice, in order")
        let traceTimes = Set(trace.samples.map(\.timestamp))
        #expect(stamps.allSatisfy { traceTimes.contains($0) }, "each one of the trace's samples")
        #expect(!manager.isDeviceMotionActive)
    }

    @Test("cancelling the consuming task stops the update type, and the source when it was the last")
    func cancellingStops() async throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope])
        let manager = MotionManager(source: source)
        manager.startAccelerometerUpdates()  // a second consumer, pulling
        let gyro = try manager.gyroUpdates()
        let received = Mutex<[Double]>([])
        let task = Task {
            for await data in gyro { received.withLock { $0.append(data.timestamp) } }
        }
        func emit(_ i: Int) {
            source.emit(MotionSample(timestamp: Double(i) * 0.01, acceleration: Vector3(0, 0, -1),
                                     rotationRate: Vector3(0, 0, 0.1)))
        }
        for i in 0..<5 { emit(i) }
        try await Self.wait(until: { received.withLock { $0.count } }, reaches: 5)
        #expect(received.withLock { $0 } == [0, 0.01, 0.02, 0.03, 0.04])

        task.cancel()
        await task.value
        try await Self.wait(until: { !manager.isGyroActive })
        #expect(!manager.isGyroActive, "the stream's end stopped gyro updates")
        #expect(manager.isAccelerometerActive && source.isRunning, "the pulled accelerometer keeps the source")
        for i in 5..<8 { emit(i) }
        #expect(manager.accelerometerData?.timestamp == 0.07)
        #expect(received.withLock { $0.count } == 5, "nothing reaches a cancelled stream")

        let accelerometer = try manager.accelerometerUpdates()  // replaces the pull
        let only = Task { for await _ in accelerometer {} }
        only.cancel()
        await only.value
        try await Self.wait(until: { !source.isRunning })
        #expect(!manager.isAccelerometerActive)
        #expect(!source.isRunning && source.stopCount == 1, "the last consumer gone, the source is released")
    }

    @Test("cancelling a consumer while the source's thread yields to it returns: the stop does not wait there")
    func cancellingWhileTheSourceYieldsReturns() async throws {
        let trace = try Recordings.xio()
        for round in 0..<40 {
            let manager = MotionManager(source: ReplaySource(trace: trace, pacing: .asFastAsPossible, loop: true))
            let motion = try manager.deviceMotionUpdates()
            let received = Mutex(0)
            let task = Task { for await _ in motion { received.withLock { $0 += 1 } } }
            try await Self.wait(until: { received.withLock { $0 } }, reaches: 20 + round)
            // Cancelled from a thread of its own, so a deadlock fails the test instead of hanging the run.
            // The bound is generous: a deadlock never returns, while a machine busy with the rest of the
            // parallel run can hold a fresh thread back for seconds.
            let cancelled = DispatchSemaphore(value: 0)
            Thread { task.cancel(); cancelled.signal() }.start()
            try #require(cancelled.wait(timeout: .now() + 60) == .success,
                         "round \(round): cancelling the consumer never returned (its stream's stop waited for the source's thread)")
            await task.value
            // Until the stop has run to its end (the source released): a stop still under way when the run
            // exits would hold the stream's feed, which the leak checker then reports.
            try await Self.wait(until: { manager.connectionState == .stopped })
            #expect(!manager.isDeviceMotionActive && manager.connectionState == .stopped,
                    "round \(round): the cancelled consumer's update type still runs")
        }
    }

    @Test("starting errors are thrown; a new start or a stop finishes the stream before")
    func errorsAndReplacement() async throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope])
        let manager = MotionManager(source: source)
        #expect(throws: MotionManagerError.sensorUnavailable("magnetometer")) { try manager.magnetometerUpdates() }
        #expect(throws: MotionManagerError.referenceFrameUnavailable(.xMagneticNorthZVertical)) {
            try manager.deviceMotionUpdates(using: .xMagneticNorthZVertical)
        }
        #expect(!source.isRunning)
        let failing = MotionManager(source: SteppedTestSource(sensors: [.accelerometer], failsToStart: true))
        #expect(throws: MotionManagerError.self) { try failing.accelerometerUpdates() }
        #expect(!failing.isAccelerometerActive)

        let first = try manager.deviceMotionUpdates()
        let second = try manager.deviceMotionUpdates()
        var firstCount = 0
        for await _ in first { firstCount += 1 }  // finished by the second start: does not wait
        #expect(firstCount == 0 && manager.isDeviceMotionActive, "the second stream still runs")
        source.emit(MotionSample(timestamp: 0, acceleration: Vector3(0, 0, -1), rotationRate: Vector3(0, 0, 0)))
        manager.stopDeviceMotionUpdates()
        var secondStamps: [Double] = []
        for await motion in second { secondStamps.append(motion.timestamp) }
        #expect(secondStamps == [0], "what was yielded before the stop is still read")
        #expect(!source.isRunning)
    }

    @Test("relative altitude as a stream: one per new reading")
    func altitudeStream() async throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .barometer])
        let manager = MotionManager(source: source)
        let altitudes = try manager.relativeAltitudeUpdates()
        let floor = BarometricAltitude.pressure(altitude: 3.2, reference: 100.5)
        for (i, p) in [100.5, 100.5, floor, floor].enumerated() {
            source.emit(MotionSample(timestamp: Double(i) * 0.01, acceleration: Vector3(0, 0, -1), pressure: p))
        }
        source.emit(.ended)
        var received: [AltitudeData] = []
        for await data in altitudes { received.append(data) }
        #expect(received.map(\.timestamp) == [0, 0.02])
        #expect(abs((received.last?.relativeAltitude ?? 0) - 3.2) < 1e-6)
    }

    @Test("pedometer updates as a stream; cancelling stops the counting and the source")
    func pedometerStream() async throws {
        let samples = try FloorProfiles.stairsThenLift()
        let trace = Trace(samples: samples, metadata: TraceMetadata(source: "stairs, then a lift"))
        let replay = SteppedReplaySource(trace: trace, loop: false)
        let manager = MotionManager(source: replay, clock: replay.clock)
        let pedometer = Pedometer(manager: manager)
        let updates = try pedometer.updates(from: 0)
        let received = Mutex<[PedometerData]>([])
        let task = Task {
            for await data in updates { received.withLock { $0.append(data) } }
        }
        var t = 0.0
        while t < trace.duration / 2 {
            t += 1.0 / 60
            replay.advance(to: t)
        }
        try await Self.wait(until: { received.withLock { $0.count } }, reaches: 5)
        let steps = received.withLock { $0.map(\.numberOfSteps) }
        #expect(steps.count >= 5)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 <= $1 }, "in order")
        task.cancel()
        await task.value
        try await Self.wait(until: { manager.connectionState == .stopped })
        #expect(manager.connectionState == .stopped, "the pedometer was the manager's only consumer")
    }

    @Test("activity calls as a stream; cancelling stops the updates")
    func activityStream() async throws {
        let trace = try Recordings.xio()
        let replay = SteppedReplaySource(trace: trace, loop: false)
        let activities = MotionActivityManager(source: replay, clock: replay.clock)
        let calls = try activities.activityUpdates()
        replay.advance(to: trace.duration / 2)
        var first: MotionActivity?
        for await call in calls {
            first = call
            break
        }
        #expect(first?.stationary == true, "the board at rest is called stationary")
        #expect(activities.motionManager.connectionState == .running)
        activities.stopActivityUpdates()
        #expect(activities.motionManager.connectionState == .stopped)
    }
}

import Foundation
import Synchronization
import TestSupport
@testable import Motion

/// A motion source that produces synthetic samples from its own thread at a set rate, on
/// CLOCK_MONOTONIC deadlines (as a live 1 kHz IMU would), with optional seeded timestamp jitter.
/// Sample `i` has timestamp `i / rate` (+ jitter); acceleration is a fixed attitude's gravity.
final class PacedTestSource: MotionSource, @unchecked Sendable {
    struct Plan: Sendable {
        var count: Int
        var rate: Double = 1000
        var sensors: SensorSet = [.accelerometer, .gyroscope]
        /// Wait for each sample's deadline (true) or emit back to back (false).
        var realTime = true
        /// Peak timestamp jitter, seconds (uniform, seeded).
        var jitter: Double = 0
        /// Gravity the samples carry (device frame, g).
        var gravity = Vector3(0, 0, -1)
        /// Emit `.disconnected` before sample `disconnectAt` and `.reconnected` before `reconnectAt`.
        var disconnectAt: Int?
        var reconnectAt: Int?
    }

    let plan: Plan
    let info: MotionSourceInfo
    /// Runs on the source thread right after the last sample, before `.ended`.
    let onLastSample: @Sendable () -> Void

    private let state = Mutex(State())
    private struct State {
        var running = false
        var startCount = 0
        var stopCount = 0
        var stopRequested = false
        var worker: TestThread?
    }

    init(_ plan: Plan, onLastSample: @escaping @Sendable () -> Void = {}) {
        self.plan = plan
        self.info = MotionSourceInfo(name: "paced test source", kind: "test", sensors: plan.sensors,
                                     nominalRate: plan.rate)
        self.onLastSample = onLastSample
    }

    var isRunning: Bool { state.withLock { $0.running } }
    var startCount: Int { state.withLock { $0.startCount } }
    var stopCount: Int { state.withLock { $0.stopCount } }

    /// The sample the source emits as number `i`, without jitter.
    static func sample(_ i: Int, plan: Plan, jitter: Double = 0) -> MotionSample {
        MotionSample(timestamp: Double(i) / plan.rate + jitter, acceleration: plan.gravity,
                     rotationRate: plan.sensors.contains(.gyroscope) ? Vector3(0.001, -0.002, 0.003) : nil,
                     magneticField: plan.sensors.contains(.magnetometer) ? Vector3(20, 0, -40) : nil)
    }

    func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        let plan = plan, onLastSample = onLastSample
        state.withLock {
            $0.running = true
            $0.startCount += 1
            $0.stopRequested = false
            $0.worker = TestThread("paced test source") { [self] in
                var random = SplitMix64(seed: 42)
                let clock = MonotonicClock()
                let origin = clock.now()
                for i in 0..<plan.count {
                    if state.withLock({ $0.stopRequested }) { return }
                    if i == plan.disconnectAt { deliver(.disconnected(reason: "test unplug")) }
                    if i == plan.reconnectAt { deliver(.reconnected) }
                    if plan.realTime { clock.sleep(until: origin + Double(i) / plan.rate) }
                    let jitter = plan.jitter * (2 * random.nextUnit() - 1)
                    deliver(.samples([Self.sample(i, plan: plan, jitter: jitter)]))
                }
                onLastSample()
                deliver(.ended)
            }
        }
    }

    func stop() {
        let worker = state.withLock { s -> TestThread? in
            s.stopRequested = true
            return s.worker
        }
        worker?.wait()
        state.withLock {
            if $0.running { $0.stopCount += 1 }
            $0.running = false
            $0.worker = nil
        }
    }
}

/// A motion source the test drives by hand: `emit` delivers on the calling thread, so a pull
/// right after it sees the result (events are still serialised, as the protocol requires).
final class SteppedTestSource: MotionSource, @unchecked Sendable {
    struct StartFailure: Error, CustomStringConvertible {
        var description: String { "permission denied on /dev/hidraw9 (add the udev rule)" }
    }

    let info: MotionSourceInfo
    private let failsToStart: Bool
    private let lock = NSLock()
    private var deliver: (@Sendable (MotionSourceEvent) -> Void)?
    private var counts = (starts: 0, stops: 0)

    init(sensors: SensorSet, failsToStart: Bool = false) {
        info = MotionSourceInfo(name: "stepped test source", kind: "test", sensors: sensors)
        self.failsToStart = failsToStart
    }

    var isRunning: Bool { lock.withLock { deliver != nil } }
    var startCount: Int { lock.withLock { counts.starts } }
    var stopCount: Int { lock.withLock { counts.stops } }

    func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        if failsToStart { throw StartFailure() }
        lock.withLock {
            counts.starts += 1
            self.deliver = deliver
        }
    }

    func stop() {
        lock.withLock {
            if deliver != nil { counts.stops += 1 }
            deliver = nil
        }
    }

    func emit(_ event: MotionSourceEvent) {
        let target = lock.withLock { deliver }
        target?(event)
    }

    func emit(_ sample: MotionSample) { emit(.samples([sample])) }
}

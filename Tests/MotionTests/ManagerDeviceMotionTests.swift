import Dispatch
import Foundation
import Testing
import TestSupport
@testable import Motion

@Suite("MotionManager update intervals and device motion")
struct ManagerDeviceMotionTests {
    static let degree = Double.pi / 180

    @Test("update intervals thin a 1 kHz source by timestamp, per type")
    func decimation() throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope])
        let manager = MotionManager(source: source)
        manager.accelerometerUpdateInterval = 0.01
        manager.gyroUpdateInterval = 0.004
        let accelerometer = Collector<AccelerometerData>()
        let gyro = Collector<GyroData>()
        manager.startAccelerometerUpdates(to: DispatchQueue(label: "a")) { d, e in accelerometer.append(d, e) }
        manager.startGyroUpdates(to: DispatchQueue(label: "g")) { d, e in gyro.append(d, e) }
        let plan = PacedTestSource.Plan(count: 1000)
        for i in 0..<1000 { source.emit(PacedTestSource.sample(i, plan: plan)) }
        #expect(accelerometer.wait(for: 100) && gyro.wait(for: 250))
        manager.stopAccelerometerUpdates()
        manager.stopGyroUpdates()
        #expect(accelerometer.count == 100)
        #expect(gyro.count == 250)
        let spacing = zip(accelerometer.all, accelerometer.all.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(spacing.allSatisfy { abs($0 - 0.01) < 1e-9 })
        #expect(manager.accelerometerUpdateInterval == 0.01)
    }

    @Test("with timestamp jitter the interval holds on average and each gap stays near it")
    func decimationWithJitter() {
        let source = SteppedTestSource(sensors: [.accelerometer])
        let manager = MotionManager(source: source)
        manager.accelerometerUpdateInterval = 0.01
        let collector = Collector<AccelerometerData>()
        manager.startAccelerometerUpdates(to: DispatchQueue(label: "a")) { d, e in collector.append(d, e) }
        var random = SplitMix64(seed: 3)
        let plan = PacedTestSource.Plan(count: 2000)
        for i in 0..<2000 {
            source.emit(PacedTestSource.sample(i, plan: plan, jitter: 0.0002 * (2 * random.nextUnit() - 1)))
        }
        #expect(collector.wait(for: 199))
        manager.stopAccelerometerUpdates()
        #expect((199...201).contains(collector.count))
        let gaps = zip(collector.all, collector.all.dropFirst()).map { $1.timestamp - $0.timestamp }
        #expect(gaps.allSatisfy { $0 > 0.0085 && $0 < 0.0115 }, "\(gaps.min() ?? 0)…\(gaps.max() ?? 0)")
    }

    @Test("device motion decimates its output but fuses every sample")
    func deviceMotionInterval() throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope])
        let manager = MotionManager(source: source)
        manager.deviceMotionUpdateInterval = 0.02
        let collector = Collector<DeviceMotion>()
        manager.startDeviceMotionUpdates(to: DispatchQueue(label: "d")) { d, e in collector.append(d, e) }
        let plan = PacedTestSource.Plan(count: 400, rate: 200)
        for i in 0..<400 { source.emit(PacedTestSource.sample(i, plan: plan)) }
        #expect(collector.wait(for: 100))
        #expect(collector.count == 100)
        #expect(manager.deviceMotion?.timestamp == collector.all.last?.timestamp)
        manager.stopDeviceMotionUpdates()
    }

    @Test("a NaN or infinite field loses no sample in either frame; the published field stays finite")
    func badFieldsInEachFrame() throws {
        let url = TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv")
        var samples = Array(try Trace.load(contentsOf: url).samples.prefix(600))
        let bad = Array(stride(from: 50, to: samples.count, by: 50))
        for i in bad { samples[i].magneticField!.y = i % 100 == 0 ? .nan : .infinity }
        for frame in [AttitudeReferenceFrame.xArbitraryZVertical, .xMagneticNorthZVertical] {
            let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope, .magnetometer])
            let manager = MotionManager(source: source)
            let collector = Collector<DeviceMotion>()
            manager.startDeviceMotionUpdates(using: frame, to: DispatchQueue(label: "d")) { d, e in collector.append(d, e) }
            for sample in samples { source.emit(sample) }
            #expect(collector.wait(for: samples.count), "\(frame)")
            manager.stopDeviceMotionUpdates()
            #expect(collector.all.map(\.timestamp) == samples.map(\.timestamp), "\(frame)")
            #expect(manager.deviceMotionRejections.total == 0, "\(frame)")
            #expect(collector.all.allSatisfy { $0.magneticField.field.isFinite && $0.attitude.quaternion.isFinite }, "\(frame)")
        }
    }

    @Test("reset reference: later attitudes are relative to the stored one; clear undoes it")
    func referenceAttitude() throws {
        let source = SteppedTestSource(sensors: [.accelerometer])
        let manager = MotionManager(source: source)
        manager.deviceMotionEstimation = .accelerometer
        manager.resetReferenceAttitude()  // before any sample: the first attitude becomes the reference
        manager.startDeviceMotionUpdates()
        let tilted = Attitude(roll: 30 * Self.degree, pitch: 0, yaw: 0)
        var t = 0.0
        func emit(_ attitude: Attitude, count: Int = 1) {
            for _ in 0..<count {
                source.emit(MotionSample(timestamp: t, acceleration: attitude.gravity))
                t += 0.01
            }
        }
        emit(.identity)
        #expect(try #require(manager.referenceAttitude).quaternion.angle(to: .identity) < 1e-9)
        emit(tilted, count: 400)  // 4 s: the 2 Hz low-pass has settled
        let absolute = try #require(manager.deviceMotion).attitude
        #expect(abs(absolute.roll - 30 * Self.degree) < 0.001)

        manager.resetReferenceAttitude()
        emit(tilted)
        let relative = try #require(manager.deviceMotion).attitude
        #expect(relative.quaternion.angle < 0.001, "right after the reset the relative attitude is identity")
        #expect(try #require(manager.deviceMotion).gravity.angle(to: tilted.gravity) < 0.001, "gravity stays in the device frame")

        emit(.identity, count: 400)
        let back = try #require(manager.deviceMotion).attitude
        #expect(abs(back.roll - -30 * Self.degree) < 0.001, "flat again is −30° from the tilted reference")

        manager.clearReferenceAttitude()
        emit(.identity)
        #expect(try #require(manager.deviceMotion).attitude.quaternion.angle < 0.001)
        #expect(manager.referenceAttitude == nil)
        manager.stopDeviceMotionUpdates()
    }

    @Test("re-referencing a fused real trace (x-io): relative attitude is identity at the reset and follows the motion after")
    func referenceOnRealTrace() throws {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
        let source = SteppedTestSource(sensors: trace.sensors)
        let manager = MotionManager(source: source)
        manager.startDeviceMotionUpdates()
        var absoluteAtReset: Attitude?
        var relativeAfterReset: Attitude?
        var absoluteLater: Attitude?
        for sample in trace.samples where sample.timestamp < 20 {
            source.emit(sample)
            if absoluteAtReset == nil && sample.timestamp >= 10 {
                absoluteAtReset = manager.deviceMotion?.attitude
                manager.resetReferenceAttitude()
            } else if absoluteAtReset != nil && relativeAfterReset == nil {
                relativeAfterReset = manager.deviceMotion?.attitude
            }
        }
        manager.clearReferenceAttitude()
        let lastSample = try #require(trace.samples.first { $0.timestamp >= 20 })
        source.emit(lastSample)
        absoluteLater = manager.deviceMotion?.attitude
        let relative = try #require(relativeAfterReset)
        #expect(relative.quaternion.angle < 1 * Self.degree)
        // By 20 s the board is pitched ≈ 60°: relative to the still pose at 10 s it has turned as much.
        let reference = try #require(absoluteAtReset), later = try #require(absoluteLater)
        let turned = later.multiplied(byInverseOf: reference).quaternion.angle
        #expect(turned > 40 * Self.degree)
        manager.stopDeviceMotionUpdates()
    }

    @Test("accelerometer-only mode, with the gravity cut-off changed while running")
    func accelerometerOnlyCutoff() throws {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope])
        let manager = MotionManager(source: source)
        manager.deviceMotionEstimation = .accelerometer
        manager.gravityFilterCutoff = 0.1
        manager.startDeviceMotionUpdates()
        let tilted = Attitude(roll: 0, pitch: 45 * Self.degree, yaw: 0)
        var t = 0.0
        func emit(_ attitude: Attitude, count: Int) {
            for _ in 0..<count {
                source.emit(MotionSample(timestamp: t, acceleration: attitude.gravity, rotationRate: .zero))
                t += 0.01
            }
        }
        emit(.identity, count: 10)
        emit(tilted, count: 10)  // 0.1 s at 0.1 Hz: gravity has hardly moved
        let slow = try #require(manager.deviceMotion)
        #expect(slow.gravity.angle(to: Vector3(0, 0, -1)) < 5 * Self.degree)
        #expect(slow.attitude.yaw == 0, "no yaw without a gyro estimate")
        // gravity + user acceleration is what was measured
        #expect(((slow.gravity + slow.userAcceleration) - tilted.gravity).length < 1e-9)

        manager.gravityFilterCutoff = 20  // while running
        #expect(manager.gravityFilterCutoff == 20)
        emit(tilted, count: 40)
        let fast = try #require(manager.deviceMotion)
        #expect(fast.gravity.angle(to: tilted.gravity) < 1 * Self.degree)
        #expect(abs(fast.attitude.pitch - 45 * Self.degree) < 1 * Self.degree)
        manager.stopDeviceMotionUpdates()
    }

    @Test("fusion and accelerometer-only differ on real motion (x-io pitch section)")
    func fusionVersusAccelerometerOnly() throws {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
        func gravityTrack(_ kind: DeviceMotionEstimatorKind) -> [Vector3] {
            let source = SteppedTestSource(sensors: trace.sensors)
            let manager = MotionManager(source: source)
            manager.deviceMotionEstimation = kind
            manager.startDeviceMotionUpdates()
            var track: [Vector3] = []
            for sample in trace.samples where sample.timestamp < 30 {
                source.emit(sample)
                if let m = manager.deviceMotion { track.append(m.gravity) }
            }
            manager.stopDeviceMotionUpdates()
            return track
        }
        let fused = gravityTrack(.fusion), lowPassed = gravityTrack(.accelerometer)
        #expect(fused.count == lowPassed.count)
        let largest = zip(fused, lowPassed).map { $0.angle(to: $1) }.max() ?? 0
        #expect(largest > 10 * Self.degree, "the 2 Hz low-pass lags fast tilts that fusion follows")
    }

    @Test("a gyro delay set on the manager reaches fusion: its attitude is AHRS's with that delay; bad values are ignored")
    func gyroDelay() throws {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
        let samples = trace.samples.filter { $0.timestamp < 20 }
        func attitude(delay: Double) throws -> Quaternion {
            let source = SteppedTestSource(sensors: trace.sensors)
            let manager = MotionManager(source: source)
            manager.gyroDelay = delay
            manager.gyroDelay = -1      // ignored
            manager.gyroDelay = .nan    // ignored
            #expect(manager.gyroDelay == delay)
            manager.startDeviceMotionUpdates()
            defer { manager.stopDeviceMotionUpdates() }
            for sample in samples { source.emit(sample) }
            return try #require(manager.deviceMotion).attitude.quaternion
        }
        var settings = AHRSSettings.default
        settings.gyroDelay = 0.004
        var ahrs = AHRS(frame: .xArbitraryZVertical, settings: settings)
        var expected = Quaternion.identity
        for sample in samples { if let m = ahrs.update(sample) { expected = m.attitude.quaternion } }
        let delayed = try attitude(delay: 0.004), plain = try attitude(delay: 0)
        #expect(delayed.angle(to: expected) < 1e-9, "the manager's fusion is AHRS with the delay")
        #expect(delayed.angle(to: plain) > 1e-6, "and the delay changed it")
    }

    @Test("true north: the same samples give headings that differ by the WMM declination")
    func trueNorth() throws {
        let trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
        // Seattle: declination ≈ +15° (east), large enough to see.
        let location = GeodeticLocation(latitude: 47.6, longitude: -122.3, altitude: 0.05, decimalYear: 2026.5)
        let declination = location.magneticDeclination
        func heading(_ frame: AttitudeReferenceFrame) throws -> Double {
            let source = SteppedTestSource(sensors: trace.sensors)
            let manager = MotionManager(source: source)
            manager.location = location
            manager.startDeviceMotionUpdates(using: frame)
            for sample in trace.samples where sample.timestamp < 10 { source.emit(sample) }
            defer { manager.stopDeviceMotionUpdates() }
            return try #require(manager.deviceMotion).heading
        }
        let magnetic = try heading(.xMagneticNorthZVertical), geographic = try heading(.xTrueNorthZVertical)
        #expect(magnetic >= 0 && magnetic < 360 && geographic >= 0 && geographic < 360)
        var difference = (geographic - magnetic).truncatingRemainder(dividingBy: 360)
        if difference > 180 { difference -= 360 } else if difference < -180 { difference += 360 }
        // Magnetic north lies `declination` east of true north, so true heading = magnetic + declination.
        #expect(declination > 10)
        #expect(abs(difference - declination) < 0.2, "heading moved by \(difference)°, declination \(declination)°")
    }
}

import Dispatch
import Foundation
import Testing
import TestSupport
@testable import Motion

@Suite("MotionManager availability, lifecycle and connection")
struct ManagerLifecycleTests {
    @Test("availability follows the source's sensors; frames need a magnetometer, true north a location")
    func availability() {
        let sixAxis = MotionManager(source: SteppedTestSource(sensors: [.accelerometer, .gyroscope]))
        #expect(sixAxis.isAccelerometerAvailable && sixAxis.isGyroAvailable && sixAxis.isDeviceMotionAvailable)
        #expect(!sixAxis.isMagnetometerAvailable)
        #expect(sixAxis.availableAttitudeReferenceFrames == [.xArbitraryZVertical])

        let nineAxis = MotionManager(source: SteppedTestSource(sensors: [.accelerometer, .gyroscope, .magnetometer]))
        #expect(nineAxis.availableAttitudeReferenceFrames
                == [.xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical])
        nineAxis.location = GeodeticLocation(latitude: 51.5, longitude: -0.1, decimalYear: 2026.5)
        #expect(nineAxis.availableAttitudeReferenceFrames.contains(.xTrueNorthZVertical))

        let gyroless = MotionManager(source: SteppedTestSource(sensors: [.accelerometer]))
        #expect(!gyroless.isGyroAvailable && !gyroless.isDeviceMotionAvailable, "device motion needs a gyro")
        #expect(gyroless.isAccelerometerOnlyDeviceMotionAvailable)
        let nothing = MotionManager(source: SteppedTestSource(sensors: []))
        #expect(!nothing.isDeviceMotionAvailable && nothing.availableAttitudeReferenceFrames.isEmpty)
        #expect(!nothing.isAccelerometerOnlyDeviceMotionAvailable)
    }

    @Test("fusion on a gyro-less source fails and says why; the accelerometer-only estimate runs, and says so")
    func fusionNeedsGyro() {
        let source = SteppedTestSource(sensors: [.accelerometer])
        let manager = MotionManager(source: source)
        let collector = Collector<DeviceMotion>()
        manager.startDeviceMotionUpdates(to: DispatchQueue(label: "d")) { d, e in collector.append(d, e) }
        let deadline = Date().addingTimeInterval(5)
        while collector.errorMessages.isEmpty && Date() < deadline { usleep(1000) }
        #expect(collector.errorMessages == [MotionManagerError.fusionNeedsGyroscope.description])
        #expect(collector.errorMessages.first?.contains("needs a gyroscope") == true)
        #expect(!manager.isDeviceMotionActive && !source.isRunning && manager.deviceMotionEstimationInUse == nil)

        manager.deviceMotionEstimation = .accelerometer
        manager.startDeviceMotionUpdates()
        #expect(manager.isDeviceMotionActive && manager.deviceMotionEstimationInUse == .accelerometer)
        source.emit(MotionSample(timestamp: 0, acceleration: Vector3(0, 0, -1)))
        #expect(manager.deviceMotion?.heading == -1)
        manager.stopDeviceMotionUpdates()
    }

    @Test("the first start starts the source, the last stop stops (releases) it, and it restarts")
    func lifecycle() {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope])
        let manager = MotionManager(source: source)
        #expect(manager.connectionState == .stopped)
        manager.startAccelerometerUpdates()
        #expect(source.isRunning && source.startCount == 1)
        #expect(manager.isAccelerometerActive && !manager.isGyroActive)
        #expect(manager.connectionState == .running)
        manager.startGyroUpdates()
        manager.startDeviceMotionUpdates()
        #expect(source.startCount == 1, "one source start for all update types")
        manager.stopAccelerometerUpdates()
        manager.stopDeviceMotionUpdates()
        #expect(source.isRunning, "gyro still active")
        manager.stopGyroUpdates()
        #expect(!source.isRunning && source.stopCount == 1)
        #expect(!manager.isGyroActive && !manager.isDeviceMotionActive)
        #expect(manager.connectionState == .stopped)
        manager.stopGyroUpdates()  // stopping twice is harmless
        #expect(source.stopCount == 1)

        manager.startGyroUpdates()
        #expect(source.isRunning && source.startCount == 2)
        manager.stopGyroUpdates()
    }

    @Test("a manager that goes away stops its source")
    func deinitStopsSource() {
        let source = SteppedTestSource(sensors: [.accelerometer])
        do {
            let manager = MotionManager(source: source)
            manager.startAccelerometerUpdates()
            #expect(source.isRunning)
        }
        #expect(!source.isRunning)
    }

    @Test("starting what the source lacks reports an error and starts nothing")
    func unavailableSensor() {
        let source = SteppedTestSource(sensors: [.accelerometer, .gyroscope])
        let manager = MotionManager(source: source)
        let magnetometer = Collector<MagnetometerData>()
        manager.startMagnetometerUpdates(to: DispatchQueue(label: "m")) { d, e in magnetometer.append(d, e) }
        let motion = Collector<DeviceMotion>()
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: DispatchQueue(label: "d")) { d, e in
            motion.append(d, e)
        }
        let deadline = Date().addingTimeInterval(5)
        while (magnetometer.errorMessages.isEmpty || motion.errorMessages.isEmpty) && Date() < deadline { usleep(1000) }
        #expect(magnetometer.errorMessages == [MotionManagerError.sensorUnavailable("magnetometer").description])
        #expect(motion.errorMessages == [MotionManagerError.referenceFrameUnavailable(.xMagneticNorthZVertical).description])
        #expect(!manager.isMagnetometerActive && !manager.isDeviceMotionActive)
        #expect(source.startCount == 0)
    }

    @Test("a source that cannot start: the handler hears why, the state says failed, nothing stays active")
    func sourceFailsToStart() {
        let source = SteppedTestSource(sensors: [.accelerometer], failsToStart: true)
        let manager = MotionManager(source: source)
        let collector = Collector<AccelerometerData>()
        manager.startAccelerometerUpdates(to: DispatchQueue(label: "a")) { d, e in collector.append(d, e) }
        let deadline = Date().addingTimeInterval(5)
        while collector.errorMessages.isEmpty && Date() < deadline { usleep(1000) }
        #expect(collector.errorMessages.first?.contains("udev rule") == true)
        #expect(manager.connectionState == .failed(reason: "permission denied on /dev/hidraw9 (add the udev rule)"))
        #expect(!manager.isAccelerometerActive)
    }

    @Test("unplug, replug and end are observable by pull and by a handler, in order")
    func connectionEvents() {
        let source = SteppedTestSource(sensors: [.accelerometer])
        let manager = MotionManager(source: source)
        let states = Collector<MotionConnectionState>()
        manager.startConnectionStateUpdates(to: DispatchQueue(label: "status")) { states.append($0, nil) }
        let data = Collector<AccelerometerData>()
        manager.startAccelerometerUpdates(to: DispatchQueue(label: "data")) { d, e in data.append(d, e) }
        source.emit(MotionSample(timestamp: 0, acceleration: Vector3(0, 0, -1)))
        source.emit(.disconnected(reason: "controller unplugged"))
        #expect(manager.connectionState == .disconnected(reason: "controller unplugged"))
        source.emit(.reconnected)
        #expect(manager.connectionState == .running)
        source.emit(MotionSample(timestamp: 5, acceleration: Vector3(0, 0, -1)))
        source.emit(.ended)
        #expect(manager.connectionState == .ended)
        manager.stopAccelerometerUpdates()
        #expect(states.wait(for: 5))
        #expect(states.all == [.running, .disconnected(reason: "controller unplugged"), .running, .ended, .stopped])
        #expect(data.wait(for: 2))
        #expect(data.errorMessages == [MotionManagerError.sourceDisconnected(reason: "controller unplugged").description])
    }
}

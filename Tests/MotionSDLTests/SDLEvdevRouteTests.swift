import CSDL2
import Motion
import MotionDevices
@testable import MotionSDL
import Testing

/// SDL ≥ 2.30's evdev route, without a pad: SDL's events as its Linux joystick driver fills them
/// (zeros for an axis the kernel has not sent since SDL opened the node), the node's values given.
@Suite("SDL's evdev sensor route")
struct SDLEvdevRouteTests {
    /// ABS_X…ABS_RZ resolutions of hid-playstation's node: 8192 per g, 1024 per deg/s.
    static let playStation: [Int32] = [8192, 8192, 8192, 1024, 1024, 1024]

    @Test("the route from the node SDL names: hidraw is HIDAPI, an event node the Linux driver")
    func route() {
        #expect(SDLSensorRoute(joystickPath: "/dev/hidraw3") == .hidapi)
        #expect(SDLSensorRoute(joystickPath: "/dev/input/event12") == .evdev)
        #expect(SDLSensorRoute(joystickPath: nil) == .unknown)
        #expect(SDLSensorRoute(joystickPath: "virtual") == .unknown)
    }

    @Test("an axis SDL shows at zero is the kernel's value: held still since SDL opened the node, or SDL's cache zeroed after a drop")
    func zerosFromTheKernel() {
        var reads = 0
        var kernel: [Int32] = [8192, 0, -4096, 1024, 0, 0]
        let axes = SDLEvdevSensorAxes(driver: .playStation, resolutions: Self.playStation) { reads += 1; return kernel }
        // Held still since SDL opened the node: SDL says zeros; the kernel holds 1 g on x, −0.5 g on z.
        let g = Float(SDLSensorConversion.standardGravity)
        let accel = axes.correct(sensor: SDL_SENSOR_ACCEL.rawValue, data: SIMD3(0, 0, 0))
        #expect(abs(accel.x - g) < 1e-5 && accel.y == 0 && abs(accel.z + g / 2) < 1e-5)
        let gyro = axes.correct(sensor: SDL_SENSOR_GYRO.rawValue, data: SIMD3(0, 0, 0))
        #expect(abs(gyro.x - Float.pi / 180) < 1e-6 && gyro.y == 0 && gyro.z == 0)
        // Axes SDL reports are SDL's; the one it shows at zero is still the kernel's.
        kernel = [0, 0, -4096, 0, 0, 0]
        #expect(axes.correct(sensor: SDL_SENSOR_ACCEL.rawValue, data: SIMD3(2, 0, 0)) == SIMD3(2, 0, -g / 2))
        // Nothing at zero: the node is not read.
        let before = reads
        #expect(axes.correct(sensor: SDL_SENSOR_ACCEL.rawValue, data: SIMD3(2, 1, -3)) == SIMD3(2, 1, -3))
        #expect(reads == before, "the node read though SDL showed no zero")
        // After values were SDL's, its cache falls back to zero (SYN_DROPPED): the kernel's again.
        kernel = [0, 4096, 0, 0, 0, 2048]
        let back = axes.correct(sensor: SDL_SENSOR_GYRO.rawValue, data: SIMD3(0, 0, 0))
        #expect(back.x == 0 && back.y == 0 && abs(back.z - 2 * Float.pi / 180) < 1e-6)
    }

    @Test("hid-nintendo's frame becomes SDL's (−Y, Z, −X), as SDL's HIDAPI Switch driver gives it")
    func nintendoFrame() {
        let axes = SDLEvdevSensorAxes(driver: .nintendo, resolutions: [4096, 4096, 4096, 14247, 14247, 14247]) { [1, 1, 1, 1, 1, 1] }
        #expect(axes.correct(sensor: SDL_SENSOR_GYRO.rawValue, data: SIMD3(1, 2, 3)) == SIMD3(-2, 3, -1))
    }

    @Test("an unreadable node leaves SDL's values as they are")
    func unreadable() {
        let axes = SDLEvdevSensorAxes(driver: .playStation, resolutions: Self.playStation) { nil }
        #expect(axes.correct(sensor: SDL_SENSOR_ACCEL.rawValue, data: SIMD3(0, 0, 0)) == SIMD3(0, 0, 0))
    }

    @Test("the controller handler corrects the evdev route's events before pairing them")
    func handlerUsesTheRoute() {
        var handler = SDLControllerEvents(instanceID: 7)
        handler.evdevAxes = SDLEvdevSensorAxes(driver: .playStation, resolutions: Self.playStation) { [0, 8192, 0, 0, 0, 0] }
        _ = handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_GYRO, (0, 0, 0), us: 4000), hostTime: 1)
        guard case .sample(let s) = handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_ACCEL, (0, 0, 0), us: 4000), hostTime: 1)
        else { Issue.record("no sample"); return }
        // 1 g up on the PlayStation +y (a pad lying face up): Core Motion's (0, 0, −1).
        #expect((s.acceleration - Vector3(0, 0, -1)).length < 1e-6)
    }

    @Test("a zero filled from the node after it moved on to a later report drops that report: no sample mixes two")
    func aLateFillDropsTheReport() {
        // The report SDL sends: gyro 1 deg/s on x (1024 counts), the accelerometer at zeros, its axes not
        // sent since SDL opened the node. The node now holds the next report (gyro 2 deg/s on x).
        var kernel: [Int32] = [0, 8192, 0, 2048, 0, 0]
        var handler = SDLControllerEvents(instanceID: 7)
        handler.evdevAxes = SDLEvdevSensorAxes(driver: .playStation, resolutions: Self.playStation) { kernel }
        let degree = Float.pi / 180
        _ = handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_GYRO, (degree, 0, 0), us: 4000), hostTime: 1)
        #expect(handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_ACCEL, (0, 0, 0), us: 4000), hostTime: 1) == .none,
                "the accelerometer filled from a later report than the gyro's made a sample")
        // The next report, the node still on it: its halves agree and make one sample with the node's accelerometer.
        kernel = [0, 8192, 0, 2048, 0, 0]
        _ = handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_GYRO, (2 * degree, 0, 0), us: 8000), hostTime: 1.004)
        guard case .sample(let s) = handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_ACCEL, (0, 0, 0), us: 8000), hostTime: 1.004)
        else { Issue.record("no sample from a report whose halves agree"); return }
        #expect((s.acceleration - Vector3(0, 0, -1)).length < 1e-6)
        #expect(abs((s.rotationRate?.length ?? 0) - Double(2 * degree)) < 1e-6)
        // A gyro filled from the node, then SDL's accelerometer of an earlier report than the node holds: dropped too.
        kernel = [4096, 0, 0, 0, 0, 0]
        _ = handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_GYRO, (0, 0, 0), us: 12000), hostTime: 1.008)
        let g = Float(SDLSensorConversion.standardGravity)
        #expect(handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_ACCEL, (0, g, 0), us: 12000), hostTime: 1.008) == .none)
    }

    @Test("both halves at zeros, each filled from the node, the node moving on between them: the report is dropped")
    func twoFillsFromTwoReportsDropTheReport() {
        // SDL's first report after opening the node: every axis at zero, so both halves come from the
        // node, read once per half. Between the reads the node moved on to the next report.
        var kernel: [Int32] = [0, 8192, 0, 1024, 0, 0]
        var handler = SDLControllerEvents(instanceID: 7)
        handler.evdevAxes = SDLEvdevSensorAxes(driver: .playStation, resolutions: Self.playStation) { kernel }
        _ = handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_GYRO, (0, 0, 0), us: 4000), hostTime: 1)
        kernel = [4096, 0, 0, 2048, 0, 0]
        #expect(handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_ACCEL, (0, 0, 0), us: 4000), hostTime: 1) == .none,
                "one report's gyro and the next one's accelerometer made a sample")
        // Both fills read while the node holds one report: one sample, all of it that report's.
        _ = handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_GYRO, (0, 0, 0), us: 8000), hostTime: 1.004)
        guard case .sample(let s) = handler.handle(SDLSensorTests.sensorEvent(SDL_SENSOR_ACCEL, (0, 0, 0), us: 8000), hostTime: 1.004)
        else { Issue.record("no sample from a report whose fills agree"); return }
        #expect(abs((s.rotationRate?.length ?? 0) - Double(2 * Float.pi / 180)) < 1e-6)
        #expect(abs(s.acceleration.length - 0.5) < 1e-6)
    }
}

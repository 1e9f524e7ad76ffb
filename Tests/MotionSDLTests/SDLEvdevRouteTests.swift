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

    @Test("an axis SDL still holds at zero is the kernel's value until SDL reports it")
    func zerosUntilFirstChange() {
        var reads = 0
        var kernel: [Int32] = [8192, 0, -4096, 1024, 0, 0]
        var axes = SDLEvdevSensorAxes(driver: .playStation, resolutions: Self.playStation) { reads += 1; return kernel }
        // Held still since SDL opened the node: SDL says zeros; the kernel holds 1 g on x, −0.5 g on z.
        let g = Float(SDLSensorConversion.standardGravity)
        let accel = axes.correct(sensor: SDL_SENSOR_ACCEL.rawValue, data: SIMD3(0, 0, 0))
        #expect(abs(accel.x - g) < 1e-5 && accel.y == 0 && abs(accel.z + g / 2) < 1e-5)
        let gyro = axes.correct(sensor: SDL_SENSOR_GYRO.rawValue, data: SIMD3(0, 0, 0))
        #expect(abs(gyro.x - Float.pi / 180) < 1e-6 && gyro.y == 0 && gyro.z == 0)
        // Axes the kernel holds at zero are SDL's from now on; x moves: SDL's value, no more reads for it.
        kernel = [0, 0, -4096, 0, 0, 0]
        #expect(axes.correct(sensor: SDL_SENSOR_ACCEL.rawValue, data: SIMD3(2, 0, 0)) == SIMD3(2, 0, -g / 2))
        #expect(!axes.settled)
        #expect(axes.correct(sensor: SDL_SENSOR_ACCEL.rawValue, data: SIMD3(2, 0, -3)) == SIMD3(2, 0, -3))
        #expect(axes.correct(sensor: SDL_SENSOR_GYRO.rawValue, data: SIMD3(0, 0, 0)) == SIMD3(0, 0, 0))
        #expect(axes.settled)
        let before = reads
        _ = axes.correct(sensor: SDL_SENSOR_GYRO.rawValue, data: SIMD3(0, 0, 0))
        #expect(reads == before, "a settled route still reads the node")
    }

    @Test("hid-nintendo's frame becomes SDL's (−Y, Z, −X), as SDL's HIDAPI Switch driver gives it")
    func nintendoFrame() {
        var axes = SDLEvdevSensorAxes(driver: .nintendo, resolutions: [4096, 4096, 4096, 14247, 14247, 14247]) { [1, 1, 1, 1, 1, 1] }
        #expect(axes.correct(sensor: SDL_SENSOR_GYRO.rawValue, data: SIMD3(1, 2, 3)) == SIMD3(-2, 3, -1))
    }

    @Test("an unreadable node leaves SDL's values as they are")
    func unreadable() {
        var axes = SDLEvdevSensorAxes(driver: .playStation, resolutions: Self.playStation) { nil }
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
}

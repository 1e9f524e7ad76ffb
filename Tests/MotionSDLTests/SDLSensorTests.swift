import CSDL2
import Motion
@testable import MotionSDL
import Testing

/// No controller is attached here: these drive the event → sample path with constructed
/// `SDL_Event`s, exactly as SDL 2.26 fills them (SDL_events.h).
/// SDL's values are Float: 9.80665 as Float is off by ~2e-8 relative.
private func close(_ a: Vector3, _ b: Vector3) -> Bool { (a - b).length < 1e-6 }

@Suite("SDL controller sensors")
struct SDLSensorTests {
    static func sensorEvent(_ sensor: SDL_SensorType, _ data: (Float, Float, Float), us: UInt64, which: SDL_JoystickID = 7) -> SDL_Event {
        var event = SDL_Event()
        event.csensor = SDL_ControllerSensorEvent(type: SDL_CONTROLLERSENSORUPDATE.rawValue, timestamp: 0, which: which,
                                                  sensor: sensor.rawValue, data: data, timestamp_us: us)
        return event
    }

    static func deviceEvent(_ type: SDL_EventType, which: Int32) -> SDL_Event {
        var event = SDL_Event()
        event.cdevice = SDL_ControllerDeviceEvent(type: type.rawValue, timestamp: 0, which: which)
        return event
    }

    @Test("SDL frame → Core Motion: a pad lying face up reads (0, 0, −1) g; axes permute as (x, −z, y)")
    func conversion() {
        // SDL: at rest the accelerometer points away from Earth: +9.80665 on +y for a flat pad.
        #expect(close(SDLSensorConversion.acceleration(SIMD3(0, 9.80665, 0)), Vector3(0, 0, -1)))
        // Standing on its grips (+z of SDL up) → the top edge is down: Core Motion +1 g on y.
        #expect(close(SDLSensorConversion.acceleration(SIMD3(0, 0, 9.80665)), Vector3(0, 1, 0)))
        #expect(SDLSensorConversion.rotationRate(SIMD3(1, 2, 3)) == Vector3(1, -3, 2))
    }

    @Test("gyro and accel events of one reading become one sample on the device clock")
    func pairing() throws {
        var handler = SDLControllerEvents(instanceID: 7)
        #expect(handler.handle(Self.sensorEvent(SDL_SENSOR_GYRO, (0.5, 0, 0), us: 48_501), hostTime: 100) == .none)
        guard case .sample(let first) = handler.handle(Self.sensorEvent(SDL_SENSOR_ACCEL, (0, 9.80665, 0), us: 48_501), hostTime: 100)
        else { Issue.record("no sample"); return }
        #expect(first.timestamp == 100 && first.rotationRate == Vector3(0.5, 0, 0) && close(first.acceleration, Vector3(0, 0, -1)))
        _ = handler.handle(Self.sensorEvent(SDL_SENSOR_GYRO, (0, 0, 0.25), us: 52_501), hostTime: 100.02)
        guard case .sample(let second) = handler.handle(Self.sensorEvent(SDL_SENSOR_ACCEL, (0, 9.80665, 0), us: 52_501), hostTime: 100.02)
        else { Issue.record("no sample"); return }
        // Device time, not the (late) host time: 4 ms after the first.
        #expect(abs(second.timestamp - 100.004) < 1e-9)
        #expect(second.rotationRate == Vector3(0, -0.25, 0))
        // An accel whose report's gyro never came makes no sample rather than one with another report's gyro.
        #expect(handler.handle(Self.sensorEvent(SDL_SENSOR_ACCEL, (0, 9.80665, 0), us: 56_501), hostTime: 100.03) == .none)
        // The left/right sensors of combined Joy-Cons are left out: the pair reports ACCEL/GYRO too.
        #expect(handler.handle(Self.sensorEvent(SDL_SENSOR_GYRO_L, (1, 1, 1), us: 60_501), hostTime: 100.04) == .none)
    }

    @Test("other controllers' events are ignored; removal and re-adding are reported")
    func hotPlug() {
        var handler = SDLControllerEvents(instanceID: 7)
        #expect(handler.handle(Self.sensorEvent(SDL_SENSOR_ACCEL, (0, 9.8, 0), us: 1, which: 3), hostTime: 0) == .none)
        #expect(handler.handle(Self.deviceEvent(SDL_CONTROLLERDEVICEREMOVED, which: 3), hostTime: 0) == .none)
        #expect(handler.handle(Self.deviceEvent(SDL_CONTROLLERDEVICEREMOVED, which: 7), hostTime: 0) == .removed)
        #expect(handler.instanceID == nil)
        #expect(handler.handle(Self.sensorEvent(SDL_SENSOR_ACCEL, (0, 9.8, 0), us: 1), hostTime: 0) == .none)
        #expect(handler.handle(Self.deviceEvent(SDL_CONTROLLERDEVICEADDED, which: 0), hostTime: 0) == .added(deviceIndex: 0))
    }

    @Test("headless start without a controller fails with a message, and the SDL subsystem is released")
    func noController() {
        let source = SDLControllerSource()
        #expect { try source.start { _ in } } throws: { "\($0)".contains("no game controller") || "\($0)".contains("SDL") }
    }
}

import CSDL2
import Motion

/// SDL controller sensor values into Core Motion's frame and units, in one place.
///
/// SDL reports accelerometer in m/s² with gravity pointing away from Earth and gyro in rad/s,
/// both in its controller frame (+x right, +y out of the face, +z toward the player;
/// SDL_sensor.h, INPUT_FACTS §1). Core Motion's pad frame is (x, −z, y) of that, and its
/// acceleration is in g with the gravity-direction sign.
public enum SDLSensorConversion {
    /// SDL_STANDARD_GRAVITY
    public static let standardGravity = 9.80665

    public static func acceleration(_ data: SIMD3<Float>) -> Vector3 {
        let v = Vector3(Double(data.x), Double(data.y), Double(data.z)) / standardGravity
        return -Vector3(v.x, -v.z, v.y)
    }

    public static func rotationRate(_ data: SIMD3<Float>) -> Vector3 {
        Vector3(Double(data.x), -Double(data.z), Double(data.y))
    }

    /// The three values of a `SDL_ControllerSensorEvent`.
    public static func values(_ event: SDL_ControllerSensorEvent) -> SIMD3<Float> {
        SIMD3(event.data.0, event.data.1, event.data.2)
    }
}

/// How SDL reads a controller, from the node `SDL_JoystickPath` names (SDL ≥ 2.24): its HIDAPI
/// driver on the pad's hidraw node (the pad's own reports; every SDL since 2.0.14 for DualShock 4,
/// DualSense and Switch pads), or its Linux joystick driver on an evdev node, which since SDL 2.30
/// pairs the pad with the kernel's separate "Motion Sensors" node for gyro and accelerometer.
///
///     SDLSensorRoute(joystickPath: "/dev/hidraw3")        // .hidapi
///     SDLSensorRoute(joystickPath: "/dev/input/event7")   // .evdev
public enum SDLSensorRoute: String, Equatable, Sendable {
    case hidapi
    case evdev
    /// No path (a virtual joystick), or one SDL names some other way.
    case unknown

    public init(joystickPath: String?) {
        guard let path = joystickPath else { self = .unknown; return }
        if path.hasPrefix("/dev/hidraw") { self = .hidapi }
        else if path.hasPrefix("/dev/input/event") { self = .evdev }
        else { self = .unknown }
    }

    /// For `tiltkit devices`: "HIDAPI (hidraw)", "evdev sensors".
    public var label: String {
        switch self {
        case .hidapi: return "HIDAPI"
        case .evdev: return "evdev"
        case .unknown: return "unknown route"
        }
    }
}

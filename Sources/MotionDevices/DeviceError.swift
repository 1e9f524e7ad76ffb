/// Errors opening or reading a device, worded for the person at the keyboard.
public enum DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// open(2) failed with EACCES/EPERM.
    case permissionDenied(path: String, fix: String)
    case notFound(path: String)
    /// The device went away (ENODEV, EOF, EIO).
    case disconnected(path: String, reason: String)
    /// The device is not one this source can decode.
    case unsupported(path: String, reason: String)
    /// Any other system call failure.
    case system(path: String, call: String, errno: Int32)

    /// The udev rule shipped in this repository, relative to its root.
    public static let udevRulePath = "Assets/udev/70-tiltkit.rules"

    /// What to do about a hidraw permission error.
    public static let hidrawFix = """
        install the udev rule that gives the logged-in user and the 'input' group access: \
        sudo cp \(udevRulePath) /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger, \
        then replug the controller (Debian's steam-devices package has a similar rule for most pads)
        """
    /// What to do about an IIO or evdev permission error.
    public static let inputFix = """
        run as a member of the group owning the node (often 'input' for /dev/input, 'iio' or root for \
        /dev/iio:*), or install \(udevRulePath) (sudo cp … /etc/udev/rules.d/ && sudo udevadm trigger)
        """

    /// Maps an errno from open(2) to an error naming the device.
    public static func fromOpen(path: String, errno code: Int32, fix: String) -> DeviceError {
        switch code {
        case EACCES, EPERM: return .permissionDenied(path: path, fix: fix)
        case ENOENT: return .notFound(path: path)
        case ENODEV, ENXIO: return .disconnected(path: path, reason: "no such device")
        default: return .system(path: path, call: "open", errno: code)
        }
    }

    public var description: String {
        switch self {
        case let .permissionDenied(path, fix):
            return "permission denied opening \(path): \(fix)"
        case .notFound(let path):
            return "\(path) does not exist (run 'tiltkit devices' to list motion devices)"
        case let .disconnected(path, reason):
            return "\(path) disconnected: \(reason)"
        case let .unsupported(path, reason):
            return "\(path): \(reason)"
        case let .system(path, call, code):
            return "\(call) on \(path) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

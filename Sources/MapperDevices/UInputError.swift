#if canImport(Glibc)
import Glibc
#endif

/// Creating or feeding a virtual device through /dev/uinput failed, worded with what to do.
public enum UInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// open(2) said EACCES or EPERM: the udev rule is missing.
    case permissionDenied(path: String)
    /// No such node, or no driver behind it: the uinput module is not loaded.
    case moduleMissing(path: String)
    case system(path: String, call: String, errno: Int32)

    /// The udev rule shipped in this repository, relative to its root.
    public static let udevRulePath = "Assets/udev/71-tiltkit-uinput.rules"

    static func fromOpen(path: String, errno code: Int32) -> UInputError {
        switch code {
        case EACCES, EPERM: .permissionDenied(path: path)
        case ENOENT, ENODEV, ENXIO: .moduleMissing(path: path)
        default: .system(path: path, call: "open", errno: code)
        }
    }

    public var description: String {
        switch self {
        case .permissionDenied(let path):
            return "permission denied opening \(path) (virtual mouse and gamepad): install the udev rule that lets the "
                + "logged-in user create them: sudo cp \(Self.udevRulePath) /etc/udev/rules.d/ && sudo udevadm control --reload "
                + "&& sudo udevadm trigger, then log out and in (or run as root)"
        case .moduleMissing(let path):
            return "\(path) does not exist: the kernel's uinput module is not loaded (sudo modprobe uinput; "
                + "to load it at every boot: echo uinput | sudo tee /etc/modules-load.d/uinput.conf)"
        case let .system(path, call, code):
            return "\(call) on \(path) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}

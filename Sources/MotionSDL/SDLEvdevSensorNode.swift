import CLinuxInput
import Foundation
import MotionDevices

/// The kernel's "Motion Sensors"/"IMU" evdev node beside a pad's joystick node (the same HID
/// device's other input), which SDL ≥ 2.30's Linux joystick driver reads the pad's sensors from,
/// open for EVIOCGABS: what `SDLEvdevSensorAxes` needs to know the values SDL has not sent yet.
final class SDLEvdevSensorNode: @unchecked Sendable {
    let path: String
    let driver: EvdevMotionDecoder.Driver
    let resolutions: [Int32]
    private let fd: Int32

    /// The motion node beside `joystickNode` (e.g. /dev/input/event7), found through sysfs; nil
    /// when the pad has none or it cannot be opened.
    init?(besideJoystickNode joystickNode: String) {
        let event = (joystickNode as NSString).lastPathComponent
        // /sys/class/input/eventN/device is the joystick's inputM; its parent's parent the HID device.
        let input = URL(fileURLWithPath: "/sys/class/input/\(event)/device").resolvingSymlinksInPath()
        let hid = input.deletingLastPathComponent().deletingLastPathComponent()
        let inputs = (try? FileManager.default.contentsOfDirectory(atPath: hid.appendingPathComponent("input").path)) ?? []
        for name in inputs.sorted() {
            let folder = hid.appendingPathComponent("input").appendingPathComponent(name)
            guard let nodeName = try? String(contentsOf: folder.appendingPathComponent("name"), encoding: .utf8),
                  let driver = EvdevMotionDecoder.Driver(nodeName: nodeName.trimmingCharacters(in: .whitespacesAndNewlines)),
                  let node = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).first(where: { $0.hasPrefix("event") })
            else { continue }
            let fd = Glibc.open("/dev/input/\(node)", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            guard let infos = Self.absinfo(fd), infos.allSatisfy({ $0.resolution > 0 }) else { close(fd); continue }
            self.path = "/dev/input/\(node)"
            self.driver = driver
            self.resolutions = infos.map(\.resolution)
            self.fd = fd
            return
        }
        return nil
    }

    deinit { close(fd) }

    /// ABS_X…ABS_RZ as the kernel holds them now.
    func currentCounts() -> [Int32]? { Self.absinfo(fd)?.map(\.value) }

    private static func absinfo(_ fd: Int32) -> [input_absinfo]? {
        var result: [input_absinfo] = []
        for axis in 0..<6 {
            var info = input_absinfo()
            guard ioctl(fd, clinux_eviocgabs(UInt32(axis)), &info) >= 0 else { return nil }
            result.append(info)
        }
        return result
    }
}

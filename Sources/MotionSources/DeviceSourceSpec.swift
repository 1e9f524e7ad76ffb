import Foundation
import Motion
import MotionDevices
import MotionSDL

/// The live-device kinds of `--source`: `KIND:PATH[,key=value…]`.
///
///     hidraw:/dev/hidraw3                    a gyro pad over hidraw (or a FIFO/file of its reports)
///     hidraw:/tmp/pad.fifo,device=ds4-usb    …naming the pad when the node has no ioctls
///     iio:/sys/bus/iio/devices/iio:device0   an IIO IMU, sysfs polling
///     iio-buffer:/sys/bus/iio/devices/iio:device0   the same through its buffered character device
///     iio:DIR+DIR[+DIR…]                     a sensor hub's accel, gyro (magn, press) devices as one IMU
///     iio-buffer:DIR,rate=100                …asking the device(s) for 100 Hz (the nearest rate at or above)
///     evdev:/dev/input/event17               a kernel "Motion Sensors" node (driver=nintendo for recordings)
///     sdl  |  sdl:1                          an SDL game controller (the first with sensors, or index 1)
///     hid-recording:capture.txt              a hid-recorder capture replayed as a live pad
///     joycon-pair                            the first left and right Joy-Con found, as one pad (motion from the right)
///     joycon-pair:/dev/hidraw4+/dev/hidraw5,side=left   …these two (hidraw or "Joy-Con IMU" evdev nodes), motion from the left
public enum DeviceSourceSpec: Equatable, Sendable {
    case hidraw(path: String, device: String?)
    case iio(path: String, rate: Double?)
    case iioBuffer(path: String, rate: Double?)
    case evdev(path: String, driver: String?)
    case sdl(index: Int32?)
    case hidRecording(path: String, device: String?)
    /// No paths: the first pair `tiltkit devices` finds.
    case joyConPair(paths: [String], side: JoyConSide)

    public static let kinds = ["hidraw:PATH[,device=ds4-usb]", "iio:SYSFS-DIR[+DIR…][,rate=HZ]", "iio-buffer:SYSFS-DIR[+DIR…][,rate=HZ]",
                        "evdev:PATH[,driver=playStation]", "sdl[:INDEX]", "hid-recording:PATH",
                        "joycon-pair[:PATH+PATH][,side=right]"]

    /// Parses `argument` for `kind`; nil if `kind` is not a device kind.
    public init?(kind: String, argument: String) throws {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let path = parts.first ?? ""
        var settings: [String: String] = [:]
        for part in parts.dropFirst() {
            let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { throw SourceSpecError.invalid("'\(part)' in '\(kind):\(argument)' is not key=value") }
            settings[kv[0]] = kv[1]
        }
        func allow(_ keys: Set<String>) throws {
            for key in settings.keys where !keys.contains(key) {
                throw SourceSpecError.invalid("'\(kind)' takes no '\(key)=' setting (allowed: \(keys.sorted().joined(separator: ", ")))")
            }
        }
        switch kind {
        case "hidraw": try allow(["device"]); self = .hidraw(path: path, device: settings["device"])
        case "iio", "iio-buffer":
            try allow(["rate"])
            let rate = try settings["rate"].map { text in
                guard let hz = Double(text), IIOSamplingFrequency.requestRange.contains(hz) else {
                    throw SourceSpecError.invalid("rate= needs Hz from 0.000001 to 1000000, got '\(text)'")
                }
                return hz
            }
            self = kind == "iio" ? .iio(path: path, rate: rate) : .iioBuffer(path: path, rate: rate)
        case "evdev": try allow(["driver"]); self = .evdev(path: path, driver: settings["driver"])
        case "sdl":
            guard argument.isEmpty || Int32(argument) != nil else { throw SourceSpecError.invalid("sdl:INDEX needs a number, got '\(argument)'") }
            self = .sdl(index: Int32(argument))
        case "hid-recording": try allow(["device"]); self = .hidRecording(path: path, device: settings["device"])
        case "joycon-pair":
            try allow(["side"])
            let side = try settings["side"].map { text in
                guard let side = JoyConSide(rawValue: text) else { throw SourceSpecError.invalid("side= takes left or right, got '\(text)'") }
                return side
            } ?? .right
            // "joycon-pair,side=left" has no paths: the first element is the empty path.
            let paths = path.isEmpty ? [] : path.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
            guard paths.isEmpty || (paths.count == 2 && !paths.contains("")) else {
                throw SourceSpecError.invalid("joycon-pair takes two paths joined by '+' (the left's and the right's, in either order), got '\(path)'")
            }
            self = .joyConPair(paths: paths, side: side)
        default: return nil
        }
    }

    /// The best device `tiltkit devices` finds, if any.
    public static func auto() -> DeviceSourceSpec? { autoSearch().candidates.first?.spec }

    /// What `--source auto` finds among `devices`: the usable ones, best first, with their
    /// `KIND:PATH`; and one line per device that is here but cannot be used (`unusableNotes`),
    /// which the commands say rather than fall back to the bundled trace without a word.
    public static func autoSearch(_ devices: [DiscoveredMotionDevice] = MotionDeviceDiscovery().scan())
        -> (candidates: [(text: String, spec: DeviceSourceSpec)], notes: [String]) {
        let candidates = MotionDeviceDiscovery.ranked(devices).compactMap { device in
            (try? DeviceSourceSpec(kind: device.kind, argument: device.path)).flatMap { $0 }.map { (device.sourceSpec, $0) }
        }
        return (candidates, MotionDeviceDiscovery.unusableNotes(devices))
    }

    /// The source; `exclusive` grabs an evdev node for it alone (the other kinds are not evdev).
    public func makeSource(exclusive: Bool = false) throws -> any MotionSource {
        func gamepad(_ hint: String?) throws -> GamepadDevice? {
            guard let hint else { return nil }
            guard let device = GamepadDevice(hint: hint) else {
                throw SourceSpecError.invalid("unknown device '\(hint)' (known: \(GamepadDevice.hints.keys.sorted().joined(separator: ", ")))")
            }
            return device
        }
        switch self {
        case let .hidraw(path, device):
            return try HIDRawSource(path: path, options: .init(device: gamepad(device)))
        case let .iio(path, rate):
            return try IIOPollingSource(directories: IIODeviceGroup.directories(path), requestedRate: rate)
        case let .iioBuffer(path, rate):
            return try IIOBufferSource(directories: IIODeviceGroup.directories(path), requestedRate: rate)
        case let .evdev(path, driver):
            let parsed = try driver.map { name in
                guard let d = EvdevMotionDecoder.Driver(rawValue: name) else {
                    throw SourceSpecError.invalid("unknown driver '\(name)' (known: \(EvdevMotionDecoder.Driver.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                return d
            }
            return try EvdevMotionSource(path: path, options: .init(driver: parsed, exclusive: exclusive))
        case .sdl(let index):
            return SDLControllerSource(index: index)
        case let .hidRecording(path, device):
            return try HIDRecordingSource(path: path, options: .init(device: gamepad(device)))
        case let .joyConPair(paths, side):
            var chosen = paths
            if chosen.isEmpty {
                guard let pair = MotionDeviceDiscovery().scan().first(where: { $0.kind == "joycon-pair" }) else {
                    throw SourceSpecError.invalid("joycon-pair: no left and right Joy-Con found (`tiltkit devices` lists what is there)")
                }
                chosen = pair.path.split(separator: "+").map(String.init)
            }
            return try JoyConPairSource(paths: chosen, motionSide: side, exclusive: exclusive) { notice in
                FileHandle.standardError.write(Data("tiltkit: \(notice)\n".utf8))
            }
        }
    }
}

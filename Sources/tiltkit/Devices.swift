import ArgumentParser
import Demo
import Engine
import Foundation
import Motion
import MotionDevices
import MotionSDL

/// `tiltkit devices`: every motion-capable device on this machine and how to use it.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List motion-capable devices: gyro gamepads (hidraw, SDL), IMUs (IIO, evdev).",
        discussion: """
        For each device: the --source to use, its sensors, its rate and whether this user may open \
        it. Devices marked 'no access' need the udev rule in \(DeviceError.udevRulePath) (see its header). \
        `--source auto` picks the first accessible, fusion-capable one.
        """)

    @Flag(help: "Also ask SDL which game controllers it sees (opens them briefly).")
    var sdl = false

    func run() throws {
        try reportingErrors {
            let found = MotionDeviceDiscovery().scan()
            let best = MotionDeviceDiscovery.best(of: found)
            if found.isEmpty { print("no hidraw gamepad, IIO IMU or evdev motion node found") }
            for device in found {
                let sensors = Self.describe(device.sensors)
                let rate = device.rate.map { String(format: "%.0f Hz", $0) } ?? "rate unknown"
                let access = device.accessible ? "ok" : "no access"
                let mark = device == best ? "*" : " "
                print("\(mark) \(device.sourceSpec)  \(device.name)  [\(sensors), \(rate), \(access)]")
            }
            if sdl {
                let controllers = SDLControllerSource.listControllers()
                if controllers.isEmpty { print("SDL sees no game controller") }
                for c in controllers {
                    var sensors: SensorSet = []
                    if c.hasAccelerometer { sensors.insert(.accelerometer) }
                    if c.hasGyro { sensors.insert(.gyroscope) }
                    let rate = c.rate.map { String(format: "%.0f Hz", $0) } ?? "rate unknown"
                    print("  sdl:\(c.index)  \(c.name)  [\(Self.describe(sensors)), \(rate)]")
                }
            }
            if found.contains(where: { !$0.accessible }) {
                print("no access: \(DeviceError.hidrawFix)")
            }
            if best == nil { print("--source auto will replay the bundled trace") }
        }
    }

    static func describe(_ sensors: SensorSet) -> String {
        var names: [String] = []
        if sensors.contains(.accelerometer) { names.append("accel") }
        if sensors.contains(.gyroscope) { names.append("gyro") }
        if sensors.contains(.magnetometer) { names.append("magn") }
        if sensors.contains(.barometer) { names.append("press") }
        return names.isEmpty ? "no motion sensors" : names.joined(separator: "+")
    }
}

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
enum DeviceSourceSpec: Equatable {
    case hidraw(path: String, device: String?)
    case iio(path: String, rate: Double?)
    case iioBuffer(path: String, rate: Double?)
    case evdev(path: String, driver: String?)
    case sdl(index: Int32?)
    case hidRecording(path: String, device: String?)

    static let kinds = ["hidraw:PATH[,device=ds4-usb]", "iio:SYSFS-DIR[+DIR…][,rate=HZ]", "iio-buffer:SYSFS-DIR[+DIR…][,rate=HZ]",
                        "evdev:PATH[,driver=playStation]", "sdl[:INDEX]", "hid-recording:PATH"]

    /// Parses `argument` for `kind`; nil if `kind` is not a device kind.
    init?(kind: String, argument: String) throws {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let path = parts.first ?? ""
        var settings: [String: String] = [:]
        for part in parts.dropFirst() {
            let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { throw ValidationError("'\(part)' in '\(kind):\(argument)' is not key=value") }
            settings[kv[0]] = kv[1]
        }
        func allow(_ keys: Set<String>) throws {
            for key in settings.keys where !keys.contains(key) {
                throw ValidationError("'\(kind)' takes no '\(key)=' setting (allowed: \(keys.sorted().joined(separator: ", ")))")
            }
        }
        switch kind {
        case "hidraw": try allow(["device"]); self = .hidraw(path: path, device: settings["device"])
        case "iio", "iio-buffer":
            try allow(["rate"])
            let rate = try settings["rate"].map { text in
                guard let hz = Double(text), hz > 0 else { throw ValidationError("rate= needs Hz, got '\(text)'") }
                return hz
            }
            self = kind == "iio" ? .iio(path: path, rate: rate) : .iioBuffer(path: path, rate: rate)
        case "evdev": try allow(["driver"]); self = .evdev(path: path, driver: settings["driver"])
        case "sdl":
            guard argument.isEmpty || Int32(argument) != nil else { throw ValidationError("sdl:INDEX needs a number, got '\(argument)'") }
            self = .sdl(index: Int32(argument))
        case "hid-recording": try allow(["device"]); self = .hidRecording(path: path, device: settings["device"])
        default: return nil
        }
    }

    /// The best device `tiltkit devices` finds, if any.
    static func auto() -> DeviceSourceSpec? {
        guard let best = MotionDeviceDiscovery.best(of: MotionDeviceDiscovery().scan()) else { return nil }
        return try? DeviceSourceSpec(kind: best.kind, argument: best.path)
    }

    func makeSource() throws -> any MotionSource {
        func gamepad(_ hint: String?) throws -> GamepadDevice? {
            guard let hint else { return nil }
            guard let device = GamepadDevice(hint: hint) else {
                throw ValidationError("unknown device '\(hint)' (known: \(GamepadDevice.hints.keys.sorted().joined(separator: ", ")))")
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
                    throw ValidationError("unknown driver '\(name)' (known: \(EvdevMotionDecoder.Driver.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                return d
            }
            return try EvdevMotionSource(path: path, options: .init(driver: parsed))
        case .sdl(let index):
            return SDLControllerSource(index: index)
        case let .hidRecording(path, device):
            return try HIDRecordingSource(path: path, options: .init(device: gamepad(device)))
        }
    }
}

/// One owner of SDL's event queue, whatever the command: a windowed demo hands the window's
/// controller events to an SDL source (`feedControllerEvents`); a headless command pumps on the
/// thread that started the source (`headlessPump`). The source itself never pumps.
extension DemoApp {
    func feedControllerEvents(to source: any MotionSource) {
        guard let pad = GyroCalibratedSource.unwrapped(source) as? SDLControllerSource else { return }
        window.events.controllerEvents = { pad.handle(event: $0) }
    }
}

/// For a headless command reading `source`: the pump to run on this thread (nil unless SDL).
func headlessPump(for source: any MotionSource) -> SDLEventPump? {
    guard let pad = GyroCalibratedSource.unwrapped(source) as? SDLControllerSource else { return nil }
    let pump = SDLEventPump()
    pump.controllerEvents = { pad.handle(event: $0) }
    return pump
}

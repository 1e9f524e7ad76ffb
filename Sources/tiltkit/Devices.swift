import ArgumentParser
import Demo
import Engine
import Foundation
import Motion
import MotionDevices
import MotionSDL
import MotionSources

/// `tiltkit devices`: every motion-capable device on this machine and how to use it.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List motion-capable devices: gyro gamepads (hidraw, SDL), IMUs (IIO, evdev), step counters (IIO).",
        discussion: """
        For each device: the --source to use, its sensors, its rate and whether this user may open \
        it. Devices marked 'no access' need the udev rule in \(DeviceError.udevRulePath) (see its header). \
        `--source auto` picks the first accessible, fusion-capable one. `tiltkit doctor` says why a         device is missing or closed.

        --json prints one JSON object, keys: devices [{source, kind, path, name, sensors, rate_hz,         calibration, accessible, refusal, auto}], step_counters [{path, name, enabled, steps}], sdl (null without --sdl,         else [{index, name, gyroscope, accelerometer, rate_hz, path, route (hidapi, evdev, unknown)}]),         sdl_version (the loaded SDL's, null without --sdl), auto (the --source auto would         open, null for the bundled trace). Unknown values are null.
        """)

    @Flag(help: "Also ask SDL which game controllers it sees (opens them briefly).")
    var sdl = false

    @Flag(help: "Print the devices as one JSON object (keys above).")
    var json = false

    func run() throws {
        try reportingErrors {
            let found = MotionDeviceDiscovery().scan()
            let best = MotionDeviceDiscovery.best(of: found)
            if json { return printJSON(jsonObject(found, best: best)) }
            if found.isEmpty { print("no hidraw gamepad, IIO IMU or evdev motion node found") }
            for device in found {
                let sensors = Self.describe(device.sensors)
                let rate = device.rate.map { String(format: "%.0f Hz", $0) } ?? "rate unknown"
                let access = device.refusal.map { "refused: \($0)" } ?? (device.accessible ? "ok" : "no access")
                let mark = device == best ? "*" : " "
                let calibration = device.calibration.map { ", calibration: \($0)" } ?? ""
                print("\(mark) \(device.sourceSpec)  \(device.name)  [\(sensors), \(rate)\(calibration), \(access)]")
            }
            for directory in IIOStepCounter.scan() {
                guard let counter = try? IIOStepCounter(directory: directory) else { continue }
                let state = counter.isEnabled.map { $0 ? "counting" : "off: write 1 to in_steps_en" } ?? "always counting"
                let steps = (try? counter.read()).map { "\($0) steps" } ?? "unreadable"
                print("  step counter \(directory)  \(counter.name)  [\(state), \(steps)]")
            }
            if sdl {
                let controllers = SDLControllerSource.listControllers()
                print("\(SDLControllerSource.versionText) (the libSDL2 this process loaded)")
                if controllers.isEmpty { print("SDL sees no game controller") }
                for c in controllers {
                    var sensors: SensorSet = []
                    if c.hasAccelerometer { sensors.insert(.accelerometer) }
                    if c.hasGyro { sensors.insert(.gyroscope) }
                    let rate = c.rate.map { String(format: "%.0f Hz", $0) } ?? "rate unknown"
                    let via = "\(c.route.label)\(c.path.map { " \($0)" } ?? "")"
                    print("  sdl:\(c.index)  \(c.name)  [\(Self.describe(sensors)), \(rate), via \(via)]")
                }
                let hid = SDLHIDDevices.list()
                print("  SDL's HIDAPI sees: " + (hid.isEmpty ? "no HID device" : hid.map { String(format: "%@ %04x:%04x", $0.path, $0.vendor, $0.product) }.joined(separator: ", ")))
            }
            if found.contains(where: { !$0.accessible }) {
                print("no access: \(DeviceError.hidrawFix)")
            }
            if best == nil { print("--source auto will replay the bundled trace") }
        }
    }

    /// `devices --json` (keys in the help).
    func jsonObject(_ found: [DiscoveredMotionDevice], best: DiscoveredMotionDevice?) -> [String: Any?] {
        func names(_ sensors: SensorSet) -> [String] {
            [(SensorSet.accelerometer, "accelerometer"), (.gyroscope, "gyroscope"), (.magnetometer, "magnetometer"),
             (.barometer, "barometer")].filter { sensors.contains($0.0) }.map(\.1)
        }
        let devices: [Any?] = found.map { d -> Any? in
            ["source": d.sourceSpec, "kind": d.kind, "path": d.path, "name": d.name, "sensors": names(d.sensors),
             "rate_hz": d.rate, "calibration": d.calibration, "accessible": d.accessible, "refusal": d.refusal, "auto": d == best] as [String: Any?]
        }
        let counters: [Any?] = IIOStepCounter.scan().compactMap { directory -> Any? in
            guard let counter = try? IIOStepCounter(directory: directory) else { return nil }
            return ["path": directory, "name": counter.name, "enabled": counter.isEnabled,
                    "steps": try? counter.read()] as [String: Any?]
        }
        let controllers: [Any?]? = sdl ? SDLControllerSource.listControllers().map { c -> Any? in
            ["index": Int(c.index), "name": c.name, "gyroscope": c.hasGyro, "accelerometer": c.hasAccelerometer,
             "rate_hz": c.rate, "path": c.path, "route": c.route.rawValue] as [String: Any?]
        } : nil
        return ["devices": devices, "step_counters": counters, "sdl": controllers,
                "sdl_version": sdl ? SDLControllerSource.versionText : nil, "auto": best?.sourceSpec]
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

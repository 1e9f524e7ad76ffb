import Foundation
import Motion
#if canImport(Glibc)
import Glibc
#endif

/// A motion-capable device found on this machine, for `tiltkit devices` and `--source auto`.
public struct DiscoveredMotionDevice: Hashable, Sendable {
    /// Source kind as on the command line: "hidraw", "evdev", "iio", "iio-buffer".
    public var kind: String
    /// The path the source opens (`/dev/hidraw3`, `/dev/input/event17`, a sysfs IIO directory).
    public var path: String
    public var name: String
    public var sensors: SensorSet
    /// Hz, where known.
    public var rate: Double?
    /// Whether this user may open it (access(2)).
    public var accessible: Bool
    /// Where a pad's gyro calibration comes from (`GamepadModel.calibrationSource`); nil for other devices.
    public var calibration: String? = nil
    /// Why it cannot be used though it is here (an IIO attribute that cannot be trusted, with its
    /// path and value); nil when it can.
    public var refusal: String? = nil

    /// Accessible and not refused: a device `--source auto` may open.
    public var isUsable: Bool { accessible && refusal == nil }

    /// `KIND:PATH`, as `--source` takes it.
    public var sourceSpec: String { "\(kind):\(path)" }

    /// Accelerometer and gyroscope: enough for attitude fusion.
    public var isFusionCapable: Bool { sensors.isSuperset(of: [.accelerometer, .gyroscope]) }
}

/// Finds motion devices by scanning sysfs: hidraw nodes of supported pads
/// (`/sys/class/hidraw/*/device/uevent`), IIO devices with accel/anglvel/magn channels
/// (`/sys/bus/iio/devices`), and evdev nodes with INPUT_PROP_ACCELEROMETER
/// (`/sys/class/input/event*/device/properties`). Roots are injectable for tests.
public struct MotionDeviceDiscovery: Sendable {
    public var sysfsRoot = "/sys"
    public var devRoot = "/dev"
    /// May this user read (and for hidraw write) `path`? access(2) by default.
    public var isAccessible: @Sendable (_ path: String, _ needsWrite: Bool) -> Bool = { path, write in
        access(path, write ? (R_OK | W_OK) : R_OK) == 0
    }

    public init(sysfsRoot: String = "/sys", devRoot: String = "/dev") {
        self.sysfsRoot = sysfsRoot
        self.devRoot = devRoot
    }

    public func scan() -> [DiscoveredMotionDevice] {
        let pads = hidraw()
        return Self.joyConPairs(pads) + pads + evdev() + iio()
    }

    /// The best device for `--source auto`: accessible, fusion-capable first, then the most sensors,
    /// then hidraw (device timestamps, calibration) over evdev over IIO buffer over IIO sysfs.
    public static func best(of devices: [DiscoveredMotionDevice]) -> DiscoveredMotionDevice? {
        ranked(devices).first
    }

    /// The usable devices in `best`'s order, best first (a stable sort: equals keep scan order).
    public static func ranked(_ devices: [DiscoveredMotionDevice]) -> [DiscoveredMotionDevice] {
        // A Joy-Con pair is the pad a player holds; either half alone is a worse choice.
        let kindOrder = ["joycon-pair": -1, "hidraw": 0, "evdev": 1, "iio-buffer": 2, "iio": 3]
        return devices.filter(\.isUsable).sorted { a, b in
            if a.isFusionCapable != b.isFusionCapable { return a.isFusionCapable }
            if a.sensors.rawValue.nonzeroBitCount != b.sensors.rawValue.nonzeroBitCount {
                return a.sensors.rawValue.nonzeroBitCount > b.sensors.rawValue.nonzeroBitCount
            }
            return kindOrder[a.kind, default: 9] < kindOrder[b.kind, default: 9]
        }
    }

    /// One line per device that is here but cannot be used, for the user: who may not open it and
    /// the udev rule that lets them, or which attribute spoils it. One line per path (a hub's
    /// members are said alone).
    public static func unusableNotes(_ devices: [DiscoveredMotionDevice]) -> [String] {
        var said: Set<String> = []
        return devices.compactMap { device in
            guard !device.isUsable, !device.path.contains("+"), said.insert(device.path).inserted else { return nil }
            if let refusal = device.refusal { return "\(device.sourceSpec) (\(device.name)) is here but refused: \(refusal)" }
            let fix = device.kind == "hidraw" ? DeviceError.hidrawFix : DeviceError.inputFix
            return "\(device.sourceSpec) (\(device.name)) is here but this user may not open it: \(fix)"
        }
    }

    func hidraw() -> [DiscoveredMotionDevice] {
        HIDRawNode.scan(sysfsRoot: sysfsRoot, devRoot: devRoot).compactMap { node in
            guard let model = node.model, node.isMotionInterface else { return nil }
            let device = GamepadDevice(model: model, bus: node.bus ?? .usb)
            return DiscoveredMotionDevice(kind: "hidraw", path: node.devicePath,
                                          name: "\(node.productName.isEmpty ? model.displayName : node.productName) [\(device)]",
                                          sensors: [.accelerometer, .gyroscope], rate: device.nominalRate,
                                          accessible: isAccessible(node.devicePath, true), calibration: model.calibrationSource)
        }
    }

    /// A left and a right Joy-Con among the hidraw pads, as one entry `joycon-pair:LEFT+RIGHT` (the
    /// first of each side, in node order), motion from the right as the source defaults to.
    static func joyConPairs(_ pads: [DiscoveredMotionDevice]) -> [DiscoveredMotionDevice] {
        func first(_ side: JoyConSide) -> DiscoveredMotionDevice? {
            pads.first { $0.kind == "hidraw" && $0.name.hasSuffix("[\(GamepadDevice(model: side.model, bus: .bluetooth))]") }
        }
        guard let left = first(.left), let right = first(.right) else { return [] }
        return [DiscoveredMotionDevice(kind: "joycon-pair", path: "\(left.path)+\(right.path)",
                                       name: "Joy-Con pair (L \(left.path), R \(right.path); motion from the right, SPI calibration read on open)",
                                       sensors: right.sensors, rate: right.rate, accessible: left.accessible && right.accessible)]
    }

    func evdev() -> [DiscoveredMotionDevice] {
        let dir = sysfsRoot + "/class/input"
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix("event") }
        return nodes.sorted { $0.localizedStandardCompare($1) == .orderedAscending }.compactMap { node in
            func attribute(_ name: String) -> String? {
                (try? String(contentsOfFile: "\(dir)/\(node)/device/\(name)", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard let properties = attribute("properties").flatMap(Self.bitmask),
                  properties.contains(InputEvent.INPUT_PROP_ACCELEROMETER) else { return nil }
            let name = attribute("name") ?? node
            let axes = attribute("capabilities/abs").flatMap(Self.bitmask) ?? []
            var sensors: SensorSet = [.accelerometer]
            if axes.contains(3) { sensors.insert(.gyroscope) }
            let path = "\(devRoot)/input/\(node)"
            let driver = EvdevMotionDecoder.Driver(nodeName: name)
            return DiscoveredMotionDevice(kind: "evdev", path: path, name: name, sensors: sensors,
                                          rate: driver.map { $0 == .nintendo ? 200 : 250 },
                                          accessible: isAccessible(path, false))
        }
    }

    func iio() -> [DiscoveredMotionDevice] {
        let dir = sysfsRoot + "/bus/iio/devices"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix("iio:device") }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        let single = singleIIO(names, in: dir)
        // a magnetometer alone is no source; it is listed only as part of its hub
        return combinedIIO(single) + single.filter { $0.sensors.contains(.accelerometer) || $0.sensors.contains(.gyroscope) }
    }

    /// A sensor hub's devices (`IIODeviceGroup`) as one entry per kind, when together they have an
    /// accelerometer and more: `iio:A+G+M`, the accelerometer's first.
    func combinedIIO(_ single: [DiscoveredMotionDevice]) -> [DiscoveredMotionDevice] {
        let polled = single.filter { $0.kind == "iio" }
        return IIODeviceGroup.hubs(polled.map(\.path)).flatMap { paths -> [DiscoveredMotionDevice] in
            let members = paths.compactMap { p in polled.first { $0.path == p } }
            let ordered = members.filter { $0.sensors.contains(.accelerometer) } + members.filter { !$0.sensors.contains(.accelerometer) }
            guard members.count > 1, let primary = ordered.first, primary.sensors.contains(.accelerometer) else { return [] }
            let spec = IIODeviceGroup.spec(ordered.map(\.path))
            let name = ordered.map(\.name).joined(separator: "+")
            let sensors = ordered.reduce(into: SensorSet()) { $0.formUnion($1.sensors) }
            var found = [DiscoveredMotionDevice(kind: "iio", path: spec, name: name, sensors: sensors, rate: primary.rate,
                                                accessible: ordered.allSatisfy(\.accessible),
                                                refusal: ordered.compactMap(\.refusal).first)]
            let buffered = ordered.compactMap { m in single.first { $0.kind == "iio-buffer" && $0.path == m.path } }
            if buffered.count == ordered.count {
                found.append(DiscoveredMotionDevice(kind: "iio-buffer", path: spec, name: name, sensors: sensors,
                                                    rate: primary.rate, accessible: buffered.allSatisfy(\.accessible)))
            }
            return found
        }
    }

    func singleIIO(_ names: [String], in dir: String) -> [DiscoveredMotionDevice] {
        names.flatMap { name -> [DiscoveredMotionDevice] in
            let path = "\(dir)/\(name)"
            let device: IIODevice
            do { device = try IIODevice(directory: path) } catch {
                // listed, not left out: the user learns which attribute spoils it
                let files = Set((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
                let sensors = IIODevice.sensors(files: files)
                guard !sensors.isEmpty else { return [] }
                let deviceName = ((try? SysfsAttribute.text(at: path + "/name")) ?? nil) ?? name
                return [DiscoveredMotionDevice(kind: "iio", path: path, name: deviceName, sensors: sensors, rate: nil,
                                               accessible: isAccessible(path, false), refusal: "\(error)")]
            }
            guard !device.sensors.isEmpty else { return [] }
            let firstRaw = device.channels.first.map { "\(path)/\($0.prefix)_raw" } ?? path
            var found = [DiscoveredMotionDevice(kind: "iio", path: path, name: device.name, sensors: device.sensors,
                                                rate: device.samplingFrequency, accessible: isAccessible(firstRaw, false))]
            let fm = FileManager.default
            if fm.fileExists(atPath: "\(path)/scan_elements") || fm.fileExists(atPath: "\(path)/buffer0") {
                found.append(DiscoveredMotionDevice(kind: "iio-buffer", path: path, name: device.name, sensors: device.sensors,
                                                    rate: device.samplingFrequency,
                                                    accessible: isAccessible("\(devRoot)/\(name)", false)))
            }
            return found
        }
    }

    /// Bit numbers set in a sysfs bitmask ("1000000" or "10 0": hex words, most significant first,
    /// each a `long`).
    public static func bitmask(_ text: String) -> Set<Int>? {
        var bits = Set<Int>()
        for (wordIndex, word) in text.split(separator: " ").reversed().enumerated() {
            guard let value = UInt64(word, radix: 16) else { return nil }
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 { bits.insert(wordIndex * 64 + bit) }
        }
        return bits
    }
}

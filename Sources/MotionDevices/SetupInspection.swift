import Foundation
import Motion
#if canImport(Glibc)
import Glibc
#endif

/// What `tiltkit doctor` checks that needs no SDL: the devices found and by which path, whether
/// this user may open each and the udev rule that fixes it, which rules are installed, the kernel
/// driver bound to each pad, /dev/uinput, and the user's groups. Roots are injectable, so tests
/// run it against a fake /sys, /dev and /proc.
///
///     let sections = SetupInspection().sections()   // this machine
///     let problems = sections.flatMap(\.findings).filter { $0.status == .problem }
public struct SetupInspection: Sendable {
    public var discovery: MotionDeviceDiscovery
    /// Prefix of /proc (`/proc/modules`).
    public var procRoot = "/proc"
    /// Prefix of the udev rules directories ("" on the real machine).
    public var rulesRoot = ""
    /// The user's name and the names of their groups (getgroups(2) by default).
    public var user: (name: String, groups: [String], isRoot: Bool) = SetupInspection.currentUser()

    public init(sysfsRoot: String = "/sys", devRoot: String = "/dev", procRoot: String = "/proc", rulesRoot: String = "") {
        discovery = MotionDeviceDiscovery(sysfsRoot: sysfsRoot, devRoot: devRoot)
        self.procRoot = procRoot
        self.rulesRoot = rulesRoot
    }

    private var sysfsRoot: String { discovery.sysfsRoot }
    private var devRoot: String { discovery.devRoot }

    /// Every section, in the order a person reads them.
    public func sections() -> [SetupSection] {
        let devices = discovery.scan()
        let rules = InstalledUdevRules(root: rulesRoot)
        return [
            SetupSection(name: "devices", title: "Motion devices", findings: deviceFindings(devices)),
            SetupSection(name: "access", title: "Access",
                         findings: devices.isEmpty ? [SetupFinding(.ok, "device nodes", "no device to open")]
                             : devices.map { accessFinding($0, rules: rules) }),
            SetupSection(name: "udev-rules", title: "udev rules", findings: ruleFindings(rules)),
            SetupSection(name: "drivers", title: "Kernel drivers", findings: driverFindings()),
            SetupSection(name: "uinput", title: "uinput (virtual devices)", findings: uinputFindings()),
            SetupSection(name: "groups", title: "User and groups", findings: [groupFinding()]),
        ]
    }

    // MARK: - Devices and access

    func deviceFindings(_ devices: [DiscoveredMotionDevice]) -> [SetupFinding] {
        guard !devices.isEmpty else {
            return [SetupFinding(.warning, "motion devices", "no hidraw gamepad, evdev motion node or IIO IMU found",
                                 fix: "plug the pad in by USB or pair it over Bluetooth, then run tiltkit doctor again")]
        }
        return devices.map { device in
            let rate = device.rate.map { String(format: "%.0f Hz", $0) } ?? "rate unknown"
            let via = ["hidraw": "hidraw (raw reports)", "evdev": "evdev (the kernel driver's motion node)",
                       "iio": "IIO (sysfs polling)", "iio-buffer": "IIO (buffer)"][device.kind] ?? device.kind
            if let refusal = device.refusal {
                return SetupFinding(.problem, device.sourceSpec, "\(device.name) via \(via) is refused: \(refusal)",
                                    fix: "the attribute named holds a value no working driver prints: check the driver, or the device's firmware")
            }
            return SetupFinding(.ok, device.sourceSpec, "\(device.name) via \(via): \(sensorNames(device.sensors)), \(rate)")
        }
    }

    func accessFinding(_ device: DiscoveredMotionDevice, rules: InstalledUdevRules) -> SetupFinding {
        if device.accessible {
            return SetupFinding(.ok, device.path, device.kind == "hidraw" ? "this user can read and write it" : "this user can read it")
        }
        let cannot = device.kind == "hidraw" ? "this user cannot open it for reading and writing" : "this user cannot read it"
        guard let rule = rule(for: device) else {
            return SetupFinding(.problem, device.path, cannot, fix: DeviceError.inputFix)
        }
        if let file = rules.paths(containing: rule).first {
            return SetupFinding(.problem, device.path, "\(cannot), though \(file) has its rule",
                                fix: "the node predates the rule: sudo udevadm control --reload && sudo udevadm trigger, then replug the pad")
        }
        return SetupFinding(.problem, device.path, cannot,
                            fix: "\(TiltkitUdevRules.install(TiltkitUdevRules.padRulesFile)), then replug; the line for this device: \(rule)")
    }

    /// The line of the pads' rules file that opens `device`, nil for IIO (no rule ships for it).
    func rule(for device: DiscoveredMotionDevice) -> String? {
        switch device.kind {
        case "hidraw":
            let name = (device.path as NSString).lastPathComponent
            guard let node = HIDRawNode.scan(sysfsRoot: sysfsRoot, devRoot: devRoot).first(where: { $0.name == name }) else { return nil }
            return TiltkitUdevRules.hidraw(vendorID: node.vendorID, productID: node.productID, bus: node.bus ?? .usb)
        case "evdev":
            let node = (device.path as NSString).lastPathComponent
            guard let text = attribute("\(sysfsRoot)/class/input/\(node)/device/id/vendor"),
                  let vendor = UInt16(text, radix: 16) else { return nil }
            return TiltkitUdevRules.evdev(vendorID: vendor)
        default:
            return nil
        }
    }

    // MARK: - udev rules

    func ruleFindings(_ rules: InstalledUdevRules) -> [SetupFinding] {
        [(TiltkitUdevRules.padRulesFile, "gyro pads over hidraw and their motion evdev nodes", SetupFinding.Status.warning),
         (TiltkitUdevRules.uinputRulesFile, "/dev/uinput for the mapper's virtual devices", SetupFinding.Status.warning)]
            .map { file, purpose, missing in
                let installed = rules.paths(named: file)
                if installed.isEmpty {
                    // root opens every node; the rule is for the users who will run tiltkit later
                    return SetupFinding(user.isRoot ? .ok : missing, (file as NSString).lastPathComponent,
                                        "not installed (\(purpose))\(user.isRoot ? "; root does not need it, other users do" : "")",
                                        fix: TiltkitUdevRules.install(file))
                }
                return SetupFinding(.ok, (file as NSString).lastPathComponent, "installed: \(installed.joined(separator: ", "))")
            }
    }

    // MARK: - Drivers

    /// The kernel driver each supported pad's HID device is bound to (its sysfs `driver` link).
    func driverFindings() -> [SetupFinding] {
        let pads = HIDRawNode.scan(sysfsRoot: sysfsRoot, devRoot: devRoot).filter { $0.model != nil }
        guard !pads.isEmpty else { return [SetupFinding(.ok, "HID drivers", "no supported pad to check")] }
        return pads.map { node in
            let model = node.model!
            let expected = Self.expectedDrivers(model)
            let link = "\(sysfsRoot)/class/hidraw/\(node.name)/device/driver"
            let subject = "\(node.devicePath) (\(model.displayName))"
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else {
                return SetupFinding(.warning, subject, "no kernel driver bound to its HID device: hidraw works, no motion evdev node",
                                    fix: moduleFix(expected))
            }
            let driver = (target as NSString).lastPathComponent
            if expected.contains(driver) {
                return SetupFinding(.ok, subject, "driver \(driver): hidraw and the kernel's motion evdev node both work")
            }
            return SetupFinding(.warning, subject, "driver \(driver), not \(expected.joined(separator: " or ")): hidraw works, no motion evdev node",
                                fix: moduleFix(expected))
        }
    }

    /// Linux's drivers for each pad: hid-playstation (DualSense since 5.12, DualShock 4 since 6.2),
    /// hid-sony (DualShock 4 before), hid-nintendo (5.16), hid-steam (the Steam Controller since 4.18,
    /// the Steam Deck since 6.3, its motion node since 6.11).
    static func expectedDrivers(_ model: GamepadModel) -> [String] {
        switch model.family {
        case .dualShock4: return ["hid-playstation", "hid-sony"]
        case .dualSense: return ["hid-playstation"]
        case .nintendo: return ["hid-nintendo"]
        case .steam: return ["hid-steam"]
        }
    }

    /// What to do when none of `drivers` is bound: load the one that is missing, or rebind.
    func moduleFix(_ drivers: [String]) -> String {
        let loaded = drivers.filter(isModuleLoaded)
        if loaded.isEmpty {
            return "module \(drivers[0]) is not loaded: sudo modprobe \(drivers[0]), then replug the pad (tiltkit reads hidraw meanwhile)"
        }
        return "\(loaded[0]) is loaded but did not bind: replug the pad (tiltkit reads hidraw meanwhile)"
    }

    /// Loaded or built in: `/sys/module/NAME` (dashes as underscores) or a line of /proc/modules.
    func isModuleLoaded(_ name: String) -> Bool {
        let module = name.replacingOccurrences(of: "-", with: "_")
        if FileManager.default.fileExists(atPath: "\(sysfsRoot)/module/\(module)") { return true }
        let modules = (try? String(contentsOfFile: "\(procRoot)/modules", encoding: .utf8)) ?? ""
        return modules.split(separator: "\n").contains { $0.split(separator: " ").first.map(String.init) == module }
    }

    // MARK: - uinput

    func uinputFindings() -> [SetupFinding] {
        let path = "\(devRoot)/uinput"
        let loaded = isModuleLoaded("uinput")
        let module = loaded
            ? SetupFinding(.ok, "uinput module", "loaded")
            : SetupFinding(.warning, "uinput module", "not loaded",
                           fix: "sudo modprobe uinput (every boot: echo uinput | sudo tee /etc/modules-load.d/uinput.conf)")
        guard FileManager.default.fileExists(atPath: path) else {
            return [module, SetupFinding(.warning, path, "missing: no virtual mouse or pad can be made",
                                         fix: loaded ? "create it: sudo udevadm trigger --sysname-match=uinput" : "load the module (above)")]
        }
        if discovery.isAccessible(path, true) { return [module, SetupFinding(.ok, path, "this user can write it")] }
        return [module, SetupFinding(.warning, path, "this user cannot write it: no virtual mouse or pad can be made",
                                     fix: "\(TiltkitUdevRules.install(TiltkitUdevRules.uinputRulesFile)); the line: \(TiltkitUdevRules.uinput)")]
    }

    // MARK: - Groups

    func groupFinding() -> SetupFinding {
        let groups = user.groups.joined(separator: ", ")
        if user.isRoot { return SetupFinding(.ok, user.name, "root (groups: \(groups)): every node is open") }
        if user.groups.contains("input") { return SetupFinding(.ok, user.name, "in 'input' (groups: \(groups))") }
        return SetupFinding(.warning, user.name, "not in 'input' (groups: \(groups)): only the udev rule's uaccess, for the local session, opens pads",
                            fix: "over ssh or from a service: sudo usermod -aG input \(user.name), then log in again")
    }

    /// This process's user and groups (getuid(2), getgroups(2), the group database).
    public static func currentUser() -> (name: String, groups: [String], isRoot: Bool) {
        let uid = getuid()
        let name = getpwuid(uid).flatMap { $0.pointee.pw_name }.map { String(cString: $0) } ?? "uid \(uid)"
        let count = getgroups(0, nil)
        var ids = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let n = getgroups(count, &ids)
        var all = Array(ids.prefix(Int(max(n, 0))))
        if !all.contains(getgid()) { all.insert(getgid(), at: 0) }
        let groups = all.map { id in getgrgid(id).flatMap { $0.pointee.gr_name }.map { String(cString: $0) } ?? "\(id)" }
        return (name, groups, uid == 0)
    }

    // MARK: - Helpers

    private func attribute(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func sensorNames(_ sensors: SensorSet) -> String {
        var names: [String] = []
        if sensors.contains(.accelerometer) { names.append("accelerometer") }
        if sensors.contains(.gyroscope) { names.append("gyroscope") }
        if sensors.contains(.magnetometer) { names.append("magnetometer") }
        if sensors.contains(.barometer) { names.append("barometer") }
        return names.isEmpty ? "no motion sensors" : names.joined(separator: "+")
    }
}

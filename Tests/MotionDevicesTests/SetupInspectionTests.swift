import Foundation
@testable import MotionDevices
import Testing
import TestSupport

/// `tiltkit doctor`'s checks against a fake machine: /sys, /dev, /proc and the udev rules
/// directories under one temporary root.
@Suite("setup inspection (tiltkit doctor)")
struct SetupInspectionTests {
    final class Machine {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-doctor-\(UUID().uuidString)").path
        deinit { try? FileManager.default.removeItem(atPath: root) }

        func file(_ path: String, _ text: String) throws {
            try FileManager.default.createDirectory(atPath: (root + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: root + path, atomically: true, encoding: .utf8)
        }

        func link(_ path: String, to target: String) throws {
            try FileManager.default.createDirectory(atPath: (root + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: root + path, withDestinationPath: target)
        }

        /// A DualSense on USB (hidraw2, bound to `driver`) with its motion evdev node (event17).
        func dualSense(driver: String?) throws {
            try file("/sys/class/hidraw/hidraw2/device/uevent", "HID_ID=0003:0000054C:00000CE6\nHID_NAME=Sony Interactive Entertainment DualSense Wireless Controller\n")
            if let driver { try link("/sys/class/hidraw/hidraw2/device/driver", to: "../../../../bus/hid/drivers/\(driver)") }
            try file("/sys/class/input/event17/device/name", "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors\n")
            try file("/sys/class/input/event17/device/properties", "40\n")
            try file("/sys/class/input/event17/device/capabilities/abs", "3f\n")
            try file("/sys/class/input/event17/device/id/vendor", "054c\n")
        }

        func inspection(accessible: @escaping @Sendable (String, Bool) -> Bool) -> SetupInspection {
            var inspection = SetupInspection(sysfsRoot: root + "/sys", devRoot: root + "/dev", procRoot: root + "/proc", rulesRoot: root)
            inspection.discovery.isAccessible = accessible
            inspection.user = ("pat", ["pat", "audio"], false)
            return inspection
        }
    }

    static func section(_ name: String, _ sections: [SetupSection]) throws -> SetupSection {
        try #require(sections.first { $0.name == name })
    }

    static let shippedRules: [String] = {
        let text = (try? String(contentsOf: TestData.assets.appendingPathComponent("udev/70-tiltkit.rules"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }()

    @Test("the rule lines doctor prints are the shipped file's lines, USB and Bluetooth")
    func rulesAreTheShippedOnes() {
        #expect(Self.shippedRules.count > 10)
        let usb: [(UInt16, UInt16)] = [(0x054C, 0x05C4), (0x054C, 0x09CC), (0x054C, 0x0BA0), (0x054C, 0x0CE6), (0x054C, 0x0DF2), (0x057E, 0x2009),
                                      (0x28DE, 0x1205), (0x28DE, 0x1102), (0x28DE, 0x1142)]
        let bluetooth: [(UInt16, UInt16)] = [(0x054C, 0x05C4), (0x054C, 0x09CC), (0x054C, 0x0CE6), (0x054C, 0x0DF2),
                                            (0x057E, 0x2009), (0x057E, 0x2006), (0x057E, 0x2007)]
        for (v, p) in usb { #expect(Self.shippedRules.contains(TiltkitUdevRules.hidraw(vendorID: v, productID: p, bus: .usb))) }
        for (v, p) in bluetooth { #expect(Self.shippedRules.contains(TiltkitUdevRules.hidraw(vendorID: v, productID: p, bus: .bluetooth))) }
        for v: UInt16 in [0x054C, 0x057E, 0x28DE] { #expect(Self.shippedRules.contains(TiltkitUdevRules.evdev(vendorID: v))) }
    }

    @Test("a machine with nothing: no device is a warning, not a problem; uinput missing and its module too")
    func emptyMachine() throws {
        let machine = Machine()
        try machine.file("/proc/modules", "snd 1 0 - Live 0x0\n")
        let sections = machine.inspection { _, _ in true }.sections()
        #expect(sections.map(\.name) == ["devices", "access", "udev-rules", "drivers", "uinput", "groups"])
        let devices = try Self.section("devices", sections)
        #expect(devices.status == .warning && devices.findings.count == 1)
        #expect(try Self.section("access", sections).findings == [SetupFinding(.ok, "device nodes", "no device to open")])
        let uinput = try Self.section("uinput", sections).findings
        #expect(uinput.map(\.status) == [.warning, .warning])
        #expect(uinput[0].fix?.contains("sudo modprobe uinput") == true)
        let rules = try Self.section("udev-rules", sections).findings
        #expect(rules.map(\.subject) == ["70-tiltkit.rules", "71-tiltkit-uinput.rules"] && rules.allSatisfy { $0.status == .warning })
        #expect(rules[0].fix == "sudo cp Assets/udev/70-tiltkit.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger")
        var asRoot = machine.inspection { _, _ in true }
        asRoot.user = ("root", ["root"], true)
        let rootRules = try Self.section("udev-rules", asRoot.sections()).findings
        #expect(rootRules.allSatisfy { $0.status == .ok && $0.detail.hasSuffix("root does not need it, other users do") })
        let groups = try Self.section("groups", sections).findings[0]
        #expect(groups.status == .warning && groups.fix == "over ssh or from a service: sudo usermod -aG input pat, then log in again")
        #expect(!sections.flatMap(\.findings).contains { $0.status == .problem })
    }

    @Test("a pad this user cannot open: a problem, fixed by its exact rule; once installed, by a trigger")
    func padWithoutAccess() throws {
        let machine = Machine()
        try machine.dualSense(driver: "hid-generic")
        let blocked = machine.inspection { path, _ in !path.hasSuffix("hidraw2") && !path.hasSuffix("event17") }
        let access = try Self.section("access", blocked.sections())
        #expect(access.findings.map(\.subject) == [machine.root + "/dev/hidraw2", machine.root + "/dev/input/event17"])
        #expect(access.findings.allSatisfy { $0.status == .problem })
        let hidrawRule = #"KERNEL=="hidraw*", ATTRS{idVendor}=="054c", ATTRS{idProduct}=="0ce6", MODE="0660", GROUP="input", TAG+="uaccess""#
        #expect(access.findings[0].fix?.hasSuffix(hidrawRule) == true)
        #expect(access.findings[0].fix?.contains("sudo cp Assets/udev/70-tiltkit.rules /etc/udev/rules.d/") == true)
        #expect(access.findings[1].fix?.hasSuffix(TiltkitUdevRules.evdev(vendorID: 0x054C)) == true)
        #expect(Self.shippedRules.contains(hidrawRule))

        // The shipped file installed: the rule is there, the nodes are older than it.
        try machine.file("/etc/udev/rules.d/70-tiltkit.rules", Self.shippedRules.joined(separator: "\n"))
        let sections = blocked.sections()
        let after = try Self.section("access", sections)
        #expect(after.findings[0].detail.contains("/etc/udev/rules.d/70-tiltkit.rules has its rule"))
        #expect(after.findings[0].fix?.contains("udevadm trigger") == true)
        let rules = try Self.section("udev-rules", sections).findings
        #expect(rules[0].status == .ok && rules[0].detail == "installed: /etc/udev/rules.d/70-tiltkit.rules")
    }

    @Test("the driver bound to the pad: hid-generic wants the missing module, or a replug when it is loaded")
    func drivers() throws {
        let machine = Machine()
        try machine.dualSense(driver: "hid-generic")
        let inspection = machine.inspection { _, _ in true }
        var finding = try Self.section("drivers", inspection.sections()).findings[0]
        #expect(finding.status == .warning && finding.detail.hasPrefix("driver hid-generic, not hid-playstation"))
        #expect(finding.fix?.hasPrefix("module hid-playstation is not loaded: sudo modprobe hid-playstation") == true)

        try FileManager.default.createDirectory(atPath: machine.root + "/sys/module/hid_playstation", withIntermediateDirectories: true)
        finding = try Self.section("drivers", inspection.sections()).findings[0]
        #expect(finding.fix?.hasPrefix("hid-playstation is loaded but did not bind") == true)

        try FileManager.default.removeItem(atPath: machine.root + "/sys/class/hidraw/hidraw2/device/driver")
        try machine.link("/sys/class/hidraw/hidraw2/device/driver", to: "../../../../bus/hid/drivers/hid-playstation")
        finding = try Self.section("drivers", inspection.sections()).findings[0]
        #expect(finding.status == .ok && finding.detail.hasPrefix("driver hid-playstation"))
        #expect(try Self.section("access", inspection.sections()).findings.allSatisfy { $0.status == .ok })
    }

    @Test("uinput: present but not writable gets the uinput rule; the module per /proc/modules")
    func uinput() throws {
        let machine = Machine()
        try machine.file("/dev/uinput", "")
        try machine.file("/proc/modules", "uinput 20480 0 - Live 0x0000000000000000\n")
        let blocked = machine.inspection { path, _ in !path.hasSuffix("/uinput") }
        let findings = try Self.section("uinput", blocked.sections()).findings
        #expect(findings[0].status == .ok && findings[0].detail == "loaded")
        #expect(findings[1].status == .warning && findings[1].fix?.hasSuffix(TiltkitUdevRules.uinput) == true)
        let open = try Self.section("uinput", machine.inspection { _, _ in true }.sections()).findings
        #expect(open.map(\.status) == [.ok, .ok])
    }

    @Test("--json's shape: every key present, fix null when nothing to do, the section's worst status")
    func json() throws {
        let section = SetupSection(name: "groups", title: "User and groups",
                                   findings: [SetupFinding(.ok, "pat", "in 'input'"), SetupFinding(.warning, "x", "y", fix: "z")])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(section), as: UTF8.self)
        #expect(text == #"{"findings":[{"detail":"in 'input'","fix":null,"status":"ok","subject":"pat"},"#
                + #"{"detail":"y","fix":"z","status":"warning","subject":"x"}],"name":"groups","status":"warning","title":"User and groups"}"#)
        #expect(try JSONDecoder().decode(SetupSection.self, from: Data(text.utf8)) == section)
    }
}

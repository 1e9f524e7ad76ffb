import Foundation

/// The udev rules tiltkit ships, the exact line each device needs, and where udev reads rules from.
///
///     TiltkitUdevRules.hidraw(vendorID: 0x054C, productID: 0x0CE6, bus: .usb)
///     // KERNEL=="hidraw*", ATTRS{idVendor}=="054c", ATTRS{idProduct}=="0ce6", MODE="0660", GROUP="input", TAG+="uaccess"
public enum TiltkitUdevRules {
    /// The pads' rules, relative to the repository's root.
    public static let padRulesFile = "Assets/udev/70-tiltkit.rules"
    /// /dev/uinput for the mapper's virtual devices, relative to the repository's root.
    public static let uinputRulesFile = "Assets/udev/71-tiltkit-uinput.rules"

    /// Where udev reads rules files, the administrator's first (udev(7): /etc, /run, then the
    /// system's; /lib and /usr/local/lib where a distribution or a `make install` puts them).
    public static let directories = ["/etc/udev/rules.d", "/run/udev/rules.d", "/usr/lib/udev/rules.d",
                                     "/lib/udev/rules.d", "/usr/local/lib/udev/rules.d"]

    /// The line of `padRulesFile` for a hidraw pad: USB nodes match the USB parent's ids, Bluetooth
    /// nodes the HID device's name (`0005:054C:05C4.0003`) in KERNELS.
    public static func hidraw(vendorID: UInt16, productID: UInt16, bus: HIDBus) -> String {
        switch bus {
        case .usb:
            return #"KERNEL=="hidraw*", ATTRS{idVendor}=="\#(hex(vendorID))", ATTRS{idProduct}=="\#(hex(productID))", "#
                + #"MODE="0660", GROUP="input", TAG+="uaccess""#
        case .bluetooth:
            return #"KERNEL=="hidraw*", KERNELS=="*\#(hex(vendorID).uppercased()):\#(hex(productID).uppercased())*", "#
                + #"MODE="0660", GROUP="input", TAG+="uaccess""#
        }
    }

    /// The line of `padRulesFile` for a kernel driver's "Motion Sensors" evdev node of this vendor.
    public static func evdev(vendorID: UInt16) -> String {
        #"SUBSYSTEM=="input", KERNEL=="event*", ENV{ID_INPUT_ACCELEROMETER}=="1", ATTRS{id/vendor}=="\#(hex(vendorID))", TAG+="uaccess""#
    }

    /// /dev/uinput for the logged-in user and the 'input' group; static_node lets the ACL apply
    /// before the module loads (as Debian's steam-devices 60-steam-input.rules does).
    public static let uinput = #"KERNEL=="uinput", SUBSYSTEM=="misc", MODE="0660", GROUP="input", TAG+="uaccess", OPTIONS+="static_node=uinput""#

    /// The shell line that installs `file` and applies it to nodes that exist already.
    public static func install(_ file: String) -> String {
        "sudo cp \(file) /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger"
    }

    private static func hex(_ id: UInt16) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// The rules files installed on a machine, read once: which exist, and which hold a given line.
public struct InstalledUdevRules: Sendable {
    /// Path → contents, for every `*.rules` file in the directories read.
    public var files: [(path: String, text: String)]

    /// Reads `TiltkitUdevRules.directories` under `root` ("" for the real machine; a test's tree otherwise).
    public init(root: String = "", directories: [String] = TiltkitUdevRules.directories) {
        let fm = FileManager.default
        files = directories.flatMap { directory -> [(path: String, text: String)] in
            let names = ((try? fm.contentsOfDirectory(atPath: root + directory)) ?? []).filter { $0.hasSuffix(".rules") }.sorted()
            return names.compactMap { name in
                (try? String(contentsOfFile: "\(root)\(directory)/\(name)", encoding: .utf8)).map { ("\(directory)/\(name)", $0) }
            }
        }
    }

    /// Installed files whose name is `fileName`'s last component (`70-tiltkit.rules`).
    public func paths(named fileName: String) -> [String] {
        let name = (fileName as NSString).lastPathComponent
        return files.map(\.path).filter { ($0 as NSString).lastPathComponent == name }
    }

    /// Installed files holding `rule` as a line of their own, whatever they are called.
    public func paths(containing rule: String) -> [String] {
        files.filter { file in file.text.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == rule } }
            .map(\.path)
    }
}

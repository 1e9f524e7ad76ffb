import CLinuxInput
import Foundation
import MotionDevices

/// A physical pad's evdev nodes: the kernel driver makes one input device per function under the
/// pad's HID device (hid-playstation: gamepad, "Motion Sensors", "Touchpad"; hid-nintendo: the
/// pad and its "IMU"), found in sysfs beside the node or hidraw the motion comes from.
///
///     let nodes = PadEvdevNodes.find(motionSource: "hidraw", path: "/dev/hidraw3")
///     nodes.gamepad?.path   // "/dev/input/event21"
public struct PadEvdevNodes: Hashable, Sendable {
    public enum Role: String, Hashable, Sendable {
        /// Buttons (BTN_SOUTH) and a stick (ABS_X, ABS_Y).
        case gamepad
        /// INPUT_PROP_ACCELEROMETER.
        case motion
        case touchpad
        case other
    }

    public struct Node: Hashable, Sendable {
        public var path: String
        public var name: String
        /// The pad's unique id (its MAC for PlayStation and Nintendo pads), "" when it has none.
        public var uniq: String
        public var role: Role
    }

    /// Every evdev node of the pad, by event number.
    public var nodes: [Node]

    public var gamepad: Node? { nodes.first { $0.role == .gamepad } }

    /// The nodes beside a motion source's (`kind` "hidraw" or "evdev", `path` its node); empty for
    /// other kinds, or when sysfs says nothing of the node.
    public static func find(motionSource kind: String, path: String, sysfsRoot: String = "/sys", devRoot: String = "/dev") -> PadEvdevNodes {
        let node = (path as NSString).lastPathComponent
        let hidDevice: String
        switch kind {
        case "hidraw": hidDevice = "\(sysfsRoot)/class/hidraw/\(node)/device"
        // eventN's device is the input device; its parent is the HID device.
        case "evdev": hidDevice = "\(sysfsRoot)/class/input/\(node)/device/device"
        default: return PadEvdevNodes(nodes: [])
        }
        return PadEvdevNodes(nodes: nodes(underHIDDevice: hidDevice, devRoot: devRoot))
    }

    /// The nodes of the pad whose gamepad node is named `name` with `uniq`, wherever it is now
    /// (after a replug its hidraw and event numbers may differ).
    public static func find(gamepadNamed name: String, uniq: String, sysfsRoot: String = "/sys", devRoot: String = "/dev") -> PadEvdevNodes {
        let directory = "\(sysfsRoot)/class/input"
        let events = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("event") }
        for event in events.sorted() {
            func attribute(_ key: String) -> String {
                ((try? String(contentsOfFile: "\(directory)/\(event)/device/\(key)", encoding: .utf8)) ?? "")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard attribute("name") == name, attribute("uniq") == uniq else { continue }
            let found = PadEvdevNodes(nodes: nodes(underHIDDevice: "\(directory)/\(event)/device/device", devRoot: devRoot))
            if found.gamepad?.name == name { return found }
        }
        return PadEvdevNodes(nodes: [])
    }

    /// `input/input*/event*` under a HID device's sysfs directory, each classified by its
    /// capabilities and properties.
    static func nodes(underHIDDevice directory: String, devRoot: String) -> [Node] {
        let fm = FileManager.default
        let inputs = ((try? fm.contentsOfDirectory(atPath: "\(directory)/input")) ?? []).filter { $0.hasPrefix("input") }
        var found: [Node] = []
        for input in inputs {
            let inputDirectory = "\(directory)/input/\(input)"
            func attribute(_ name: String) -> String {
                ((try? String(contentsOfFile: "\(inputDirectory)/\(name)", encoding: .utf8)) ?? "")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let events = ((try? fm.contentsOfDirectory(atPath: inputDirectory)) ?? []).filter { $0.hasPrefix("event") }
            for event in events {
                let keys = MotionDeviceDiscovery.bitmask(attribute("capabilities/key")) ?? []
                let axes = MotionDeviceDiscovery.bitmask(attribute("capabilities/abs")) ?? []
                let properties = MotionDeviceDiscovery.bitmask(attribute("properties")) ?? []
                let role: Role
                if properties.contains(Int(INPUT_PROP_ACCELEROMETER)) {
                    role = .motion
                } else if properties.contains(Int(INPUT_PROP_BUTTONPAD)) || properties.contains(Int(INPUT_PROP_POINTER)) {
                    role = .touchpad
                } else if Self.isGamepad(keys: keys, axes: axes) {
                    role = .gamepad
                } else {
                    role = .other
                }
                found.append(Node(path: "\(devRoot)/input/\(event)", name: attribute("name"), uniq: attribute("uniq"), role: role))
            }
        }
        return found.sorted { $0.path.localizedStandardCompare($1.path) == .orderedAscending }
    }

    /// Face or d-pad buttons and a stick. A whole pad has BTN_SOUTH and ABS_X/ABS_Y; a Joy-Con half
    /// under hid-nintendo has one side's: the left the d-pad buttons and ABS_X/ABS_Y, the right
    /// BTN_SOUTH… and ABS_RX/ABS_RY.
    static func isGamepad(keys: Set<Int>, axes: Set<Int>) -> Bool {
        let buttons = keys.contains(Int(BTN_SOUTH)) || keys.contains(Int(BTN_DPAD_UP))
        let leftStick = axes.contains(Int(ABS_X)) && axes.contains(Int(ABS_Y))
        let rightStick = axes.contains(Int(ABS_RX)) && axes.contains(Int(ABS_RY))
        return buttons && (leftStick || rightStick)
    }
}

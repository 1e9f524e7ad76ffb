import Foundation
@testable import MapperDevices
import Testing

/// A sysfs tree as the kernel lays out a DualSense under hid-playstation: the HID device with
/// three input devices (gamepad, motion sensors, touchpad), each with its event node, and the
/// hidraw and class/input links to them (made as directories here; sysfs's are symlinks).
struct FakeSysfs {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-sysfs-\(UUID().uuidString)")
        let hid = "bus/hid/devices/0005:054C:0CE6.0001"
        let inputs: [(input: String, event: String, name: String, key: String, abs: String, properties: String)] = [
            ("input20", "event20", "DualSense Wireless Controller", "7fdb000000000000 0 0 0 0", "3003f", "0"),
            ("input21", "event21", "DualSense Wireless Controller Motion Sensors", "0", "3f", "40"),
            ("input22", "event22", "DualSense Wireless Controller Touchpad", "10000 0 0 0 0", "2608000 3", "5"),
        ]
        for i in inputs {
            for base in ["\(hid)/input/\(i.input)", "class/input/\(i.event)/device"] {
                try write("\(base)/name", i.name)
                try write("\(base)/uniq", "a0:ab:51:00:00:01")
                try write("\(base)/capabilities/key", i.key)
                try write("\(base)/capabilities/abs", i.abs)
                try write("\(base)/properties", i.properties)
                try FileManager.default.createDirectory(at: root.appendingPathComponent("\(base)/\(i.event)"), withIntermediateDirectories: true)
            }
            try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("class/input/\(i.event)/device/device"),
                                                       withDestinationURL: root.appendingPathComponent(hid))
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("class/hidraw/hidraw3"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("class/hidraw/hidraw3/device"),
                                                   withDestinationURL: root.appendingPathComponent(hid))
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (text + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

@Suite("the physical pad's evdev nodes in sysfs")
struct PadEvdevNodesTests {
    @Test("from the hidraw node or from the motion node: the same three nodes, the gamepad by its buttons and stick")
    func siblings() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        let fromHIDRaw = PadEvdevNodes.find(motionSource: "hidraw", path: "/dev/hidraw3", sysfsRoot: sysfs.root.path)
        #expect(fromHIDRaw.nodes.map(\.path) == ["/dev/input/event20", "/dev/input/event21", "/dev/input/event22"])
        #expect(fromHIDRaw.nodes.map(\.role) == [.gamepad, .motion, .touchpad])
        #expect(fromHIDRaw.gamepad?.name == "DualSense Wireless Controller")
        let fromEvdev = PadEvdevNodes.find(motionSource: "evdev", path: "/dev/input/event21", sysfsRoot: sysfs.root.path)
        #expect(fromEvdev == fromHIDRaw)
        let again = PadEvdevNodes.find(gamepadNamed: "DualSense Wireless Controller", uniq: "a0:ab:51:00:00:01", sysfsRoot: sysfs.root.path)
        #expect(again == fromHIDRaw)
        #expect(PadEvdevNodes.find(motionSource: "trace", path: "x.csv").nodes.isEmpty)
        #expect(PadEvdevNodes.find(motionSource: "hidraw", path: "/dev/hidraw9", sysfsRoot: sysfs.root.path).nodes.isEmpty)
    }
}

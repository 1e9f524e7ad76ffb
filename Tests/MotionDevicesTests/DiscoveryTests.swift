import Foundation
import Motion
@testable import MotionDevices
import Testing

@Suite("device discovery")
struct DiscoveryTests {
    /// A fake /sys with a DualSense (hidraw), a mouse (hidraw, ignored), an evdev motion node, a
    /// keyboard evdev node (ignored) and an IIO IMU with a buffer.
    static func tree() throws -> (root: String, iio: FakeIIODevice) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-sys-\(UUID().uuidString)").path
        let fm = FileManager.default
        func file(_ path: String, _ text: String) throws {
            try fm.createDirectory(atPath: (root + "/" + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: root + "/" + path, atomically: true, encoding: .utf8)
        }
        try file("class/hidraw/hidraw2/device/uevent", "HID_ID=0003:0000054C:00000CE6\nHID_NAME=Sony Interactive Entertainment DualSense Wireless Controller\n")
        try file("class/hidraw/hidraw0/device/uevent", "HID_ID=0003:0000046D:0000C077\nHID_NAME=Mouse\n")
        try file("class/input/event17/device/name", "Sony Interactive Entertainment DualSense Wireless Controller Motion Sensors\n")
        try file("class/input/event17/device/properties", "40\n")
        try file("class/input/event17/device/capabilities/abs", "3f\n")
        try file("class/input/event3/device/name", "AT Translated Set 2 keyboard\n")
        try file("class/input/event3/device/properties", "0\n")
        let iio = try FakeIIODevice()
        try iio.addScanElements()
        try fm.createDirectory(atPath: root + "/bus/iio/devices", withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: root + "/bus/iio/devices/iio:device0", withDestinationPath: iio.directory)
        return (root, iio)
    }

    @Test("hidraw pads, evdev motion nodes and IIO IMUs are found with kind, sensors, rate and access")
    func scan() throws {
        let (root, iio) = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root); _ = iio }
        var discovery = MotionDeviceDiscovery(sysfsRoot: root, devRoot: "/dev")
        discovery.isAccessible = { path, write in path != "/dev/hidraw2" || !write }
        let found = discovery.scan()
        #expect(found.map(\.sourceSpec) == ["hidraw:/dev/hidraw2", "evdev:/dev/input/event17",
                                            "iio:\(root)/bus/iio/devices/iio:device0", "iio-buffer:\(root)/bus/iio/devices/iio:device0"])
        #expect(found[0].name.contains("DualSense") && found[0].rate == 250 && !found[0].accessible)
        #expect(found[1].sensors == [.accelerometer, .gyroscope])
        #expect(found[2].sensors == [.accelerometer, .gyroscope, .magnetometer] && found[2].rate == 50)
        // The hidraw pad is not accessible: auto picks the IMU with the most sensors, buffered
        // (kernel timestamps) before sysfs polling.
        #expect(MotionDeviceDiscovery.best(of: found)?.kind == "iio-buffer")
        discovery.isAccessible = { path, _ in !path.hasPrefix("/dev/iio") }
        #expect(MotionDeviceDiscovery.best(of: discovery.scan())?.kind == "iio")
        #expect(MotionDeviceDiscovery.best(of: discovery.scan().filter { $0.kind != "iio" && $0.kind != "iio-buffer" })?.kind == "hidraw")
        #expect(MotionDeviceDiscovery.best(of: []) == nil)
    }

    @Test("sysfs bitmasks: hex words, most significant first")
    func bitmask() {
        #expect(MotionDeviceDiscovery.bitmask("40") == [6])
        #expect(MotionDeviceDiscovery.bitmask("1 3") == [0, 1, 64])
        #expect(MotionDeviceDiscovery.bitmask("zz") == nil)
    }
}

/// `serve dsu --source auto` opens every device at once: one entry per physical device.
struct DiscoveryDistinctTests {
    @Test func oneEntryPerDevice() {
        func d(_ kind: String, _ path: String, _ name: String, _ sensors: SensorSet = [.accelerometer, .gyroscope],
               accessible: Bool = true) -> DiscoveredMotionDevice {
            DiscoveredMotionDevice(kind: kind, path: path, name: name, sensors: sensors, rate: nil, accessible: accessible)
        }
        let found = [
            d("hidraw", "/dev/hidraw3", "Wireless Controller [ds4-usb]"),
            d("evdev", "/dev/input/event17", "Wireless Controller Motion Sensors"),       // the same pad
            d("evdev", "/dev/input/event20", "Nintendo Switch Pro Controller IMU"),        // another pad, evdev only
            d("hidraw", "/dev/hidraw5", "DualSense Wireless Controller [dualsense-bt]", accessible: false),
            d("iio", "/sys/iio:device0+/sys/iio:device1", "accel_3d+gyro_3d"),
            d("iio-buffer", "/sys/iio:device0+/sys/iio:device1", "accel_3d+gyro_3d"),
            d("iio", "/sys/iio:device0", "accel_3d", [.accelerometer]),
            d("iio-buffer", "/sys/iio:device0", "accel_3d", [.accelerometer]),
            d("iio", "/sys/iio:device1", "gyro_3d", [.gyroscope]),
            d("iio", "/sys/iio:device4", "bmi260"),
        ]
        #expect(MotionDeviceDiscovery.distinct(found).map(\.sourceSpec) == [
            "hidraw:/dev/hidraw3", "evdev:/dev/input/event20",
            "iio-buffer:/sys/iio:device0+/sys/iio:device1", "iio:/sys/iio:device4",
        ])
    }
}

/// `bench … --compare-paths`: the same device by its other paths.
struct DiscoveryPathsTests {
    @Test func samePadAndSameIIODevice() {
        func d(_ kind: String, _ path: String, _ name: String) -> DiscoveredMotionDevice {
            DiscoveredMotionDevice(kind: kind, path: path, name: name, sensors: [.accelerometer, .gyroscope], rate: nil, accessible: true)
        }
        let found = [
            d("hidraw", "/dev/hidraw3", "Wireless Controller [ds4-usb]"),
            d("evdev", "/dev/input/event17", "Wireless Controller Motion Sensors"),
            d("hidraw", "/dev/hidraw5", "DualSense Wireless Controller [dualsense-bt]"),
            d("evdev", "/dev/input/event21", "DualSense Wireless Controller Motion Sensors"),
            d("iio", "/sys/iio:device0", "accel_3d"),
            d("iio-buffer", "/sys/iio:device0", "accel_3d"),
            d("iio-buffer", "/sys/iio:device1", "gyro_3d"),
        ]
        #expect(MotionDeviceDiscovery.paths(sameDeviceAs: "hidraw:/dev/hidraw3", in: found) == ["hidraw:/dev/hidraw3", "evdev:/dev/input/event17"])
        #expect(MotionDeviceDiscovery.paths(sameDeviceAs: "evdev:/dev/input/event21", in: found) == ["evdev:/dev/input/event21", "hidraw:/dev/hidraw5"])
        #expect(MotionDeviceDiscovery.paths(sameDeviceAs: "iio:/sys/iio:device0", in: found) == ["iio:/sys/iio:device0", "iio-buffer:/sys/iio:device0"])
        // Not among the devices found (a FIFO, a trace): just itself.
        #expect(MotionDeviceDiscovery.paths(sameDeviceAs: "hidraw:/tmp/pad.fifo", in: found) == ["hidraw:/tmp/pad.fifo"])
    }
}

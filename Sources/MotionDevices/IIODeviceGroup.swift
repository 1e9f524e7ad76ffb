import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Several IIO devices read as one IMU. A HID sensor hub (a laptop's or tablet's ISH, a USB hub)
/// appears as one IIO device per sensor (`accel_3d`, `gyro_3d`, `magn_3d`, each under its own
/// `HID-SENSOR-2000xx` platform device of the same HID device); read alone, none of them gives
/// fusion what it needs. On the command line the directories are joined with `+`
/// (`iio:/sys/bus/iio/devices/iio:device1+/sys/bus/iio/devices/iio:device2`).
public enum IIODeviceGroup {
    /// `a+b+c` → [a, b, c].
    public static func directories(_ spec: String) -> [String] {
        spec.split(separator: "+").map(String.init)
    }

    public static func spec(_ directories: [String]) -> String { directories.joined(separator: "+") }

    /// What the devices of one sensor hub share: the HID device above their `HID-SENSOR-*`
    /// platform devices (sysfs path resolved); nil for a device that is not on a sensor hub.
    public static func hub(of directory: String) -> String? {
        // realpath(3): sysfs links are relative ("../../devices/…"), which Foundation's
        // resolvingSymlinksInPath leaves unresolved on Linux
        guard let real = realpath(directory, nil) else { return nil }
        defer { free(real) }
        let resolved = String(cString: real)
        let platform = (resolved as NSString).deletingLastPathComponent
        guard (platform as NSString).lastPathComponent.hasPrefix("HID-SENSOR-") else { return nil }
        return (platform as NSString).deletingLastPathComponent
    }

    /// The IIO directories in `directories` grouped by sensor hub, each group ordered as given;
    /// devices on no hub are left out.
    public static func hubs(_ directories: [String]) -> [[String]] {
        var order: [String] = []
        var groups: [String: [String]] = [:]
        for directory in directories {
            guard let hub = hub(of: directory) else { continue }
            if groups[hub] == nil { order.append(hub) }
            groups[hub, default: []].append(directory)
        }
        return order.map { groups[$0]! }
    }

    /// The primary device of a group first: the one with the accelerometer. Readings of the others
    /// ride along with its samples (`IIOSampleMerger`).
    static func accelerometerFirst(_ devices: [IIODevice]) -> [IIODevice] {
        devices.filter { $0.sensors.contains(.accelerometer) } + devices.filter { !$0.sensors.contains(.accelerometer) }
    }
}

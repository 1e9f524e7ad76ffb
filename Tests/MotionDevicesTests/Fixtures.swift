import Foundation
import MotionDevices
import TestSupport

/// Loads the recorded and generated report fixtures.
enum Fixtures {
    /// Lines `kind name … hex` of a fixture file, comments skipped.
    static func lines(_ url: URL) throws -> [[Substring]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { $0.split(separator: " ") }
    }

    /// Real DualShock 4 clone reports (im-0/random-things ds4dump), by capture name.
    static func ds4dump() throws -> (feature: [UInt8], reports: [String: [[UInt8]]]) {
        var feature: [UInt8] = []
        var reports: [String: [[UInt8]]] = [:]
        for f in try lines(TestData.assets.appendingPathComponent("hid/ds4dump-usb.txt")) {
            let bytes = HexBytes.parse(f[2])!
            if f[0] == "feature" { feature = bytes } else { reports[String(f[1]), default: []].append(bytes) }
        }
        return (feature, reports)
    }

    struct Generated {
        var feature: [UInt8]
        /// (accel g, gyro deg/s in the pad's frame, report bytes)
        var reports: [(accel: SIMD3<Double>, gyroDegrees: SIMD3<Double>, bytes: [UInt8])]
    }

    /// Reports built by hid-tools' PS4/PS5 controller models (generate_sony_reports.py).
    static func generated(_ device: String) throws -> Generated {
        let url = TestData.repositoryRoot.appendingPathComponent("Tests/MotionDevicesTests/Fixtures/sony_generated.txt")
        var result = Generated(feature: [], reports: [])
        for f in try lines(url) where f[1] == device {
            if f[0] == "feature" { result.feature = HexBytes.parse(f[2])!; continue }
            let v = f[2...7].map { Double($0)! }
            result.reports.append((SIMD3(v[0], v[1], v[2]), SIMD3(v[3], v[4], v[5]), HexBytes.parse(f[8])!))
        }
        return result
    }
}

extension SIMD3 where Scalar == Double {
    /// deg/s → rad/s
    var radians: SIMD3<Double> { self * (Double.pi / 180) }
}

/// Largest per-axis difference.
func maxDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let d = a - b
    return max(abs(d.x), abs(d.y), abs(d.z))
}

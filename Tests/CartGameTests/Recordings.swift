import Foundation
import Motion
import Testing
import TestSupport

/// The real recordings the motion-control tests replay: the bundled copies in Assets/ (present
/// on a fresh clone), with ../shared/data as a fallback while a copy is missing.
enum Recordings {
    static func url(_ relative: String) throws -> URL {
        let bundled = TestData.assets.appendingPathComponent("traces/\(relative)")
        if FileManager.default.fileExists(atPath: bundled.path) { return bundled }
        return try #require(TestData.sharedData("traces/\(relative)"), "missing recording \(relative)")
    }

    /// x-io's Fusion example recording (MIT; Assets/traces/xio/LICENSE): 100 Hz, 135 s.
    static func xio() throws -> [MotionSample] {
        try Trace.load(contentsOf: url("xio/sensor_data.csv")).samples
    }

    static func motionSense(_ name: String) throws -> [MotionSample] {
        try Trace.load(contentsOf: url("motionsense/\(name).csv")).samples
    }
}

import Foundation
import Motion

/// The real recordings the game's tests replay: the bundled copies in Assets/ (present on a
/// fresh clone), with ../shared/data as a fallback while a copy is missing.
public enum Recordings {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    public static func url(_ relative: String) throws -> URL {
        let bundled = TestData.assets.appendingPathComponent("traces/\(relative)")
        if FileManager.default.fileExists(atPath: bundled.path) { return bundled }
        guard let shared = TestData.sharedData("traces/\(relative)") else { throw Missing(description: "missing recording \(relative)") }
        return shared
    }

    /// x-io's Fusion example recording (MIT; Assets/traces/xio/LICENSE): 100 Hz, 135 s.
    public static func xio() throws -> Trace {
        try Trace.load(contentsOf: url("xio/sensor_data.csv"))
    }

    public static func motionSense(_ name: String) throws -> Trace {
        try Trace.load(contentsOf: url("motionsense/\(name).csv"))
    }

    /// A MotionSense recording from ../shared/data, which has all twelve (Assets/ some): nil, after
    /// the printed reason, when the folder is absent; under CI=true its absence is an error.
    public static func sharedMotionSense(_ name: String) throws -> Trace? {
        guard let url = TestData.sharedData("traces/motionsense/\(name).csv") else {
            if TestData.isCI { throw Missing(description: "../shared/data/traces/motionsense/\(name).csv is required under CI") }
            return nil
        }
        return try Trace.load(contentsOf: url)
    }
}

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
        return try TestData.requireSharedData("traces/\(relative)")
    }

    /// x-io's Fusion example recording (MIT; Assets/traces/xio/LICENSE): 100 Hz, 135 s.
    public static func xio() throws -> Trace {
        try Trace.load(contentsOf: url("xio/sensor_data.csv"))
    }

    /// mPower's walk (Apache-2.0; Assets/traces/mpower/LICENSE): iPhone in a pocket, ≈100 Hz, 30 s.
    public static func mPowerWalk() throws -> Trace {
        try Trace.load(contentsOf: url("mpower/walk_data.csv"))
    }

    public static func motionSense(_ name: String) throws -> Trace {
        try Trace.load(contentsOf: url("motionsense/\(name).csv"))
    }

    /// The shared data folder `sharedMotionSense` reads: mark its tests `.needsSharedData(Recordings.motionSenseFolder)`.
    public static let motionSenseFolder = "traces/motionsense"

    /// A MotionSense recording from ../shared/data, which has all twelve (Assets/ some); throws when absent.
    public static func sharedMotionSense(_ name: String) throws -> Trace {
        try Trace.load(contentsOf: TestData.requireSharedData("\(motionSenseFolder)/\(name).csv"))
    }
}

import Foundation
import Motion

/// One trial of BROAD (Laidig, Caruso, Cereatti, Seel, "BROAD — A Benchmark for Robust Inertial
/// Orientation Estimation", Data 6(7):72, 2021; CC BY 4.0), in the CSV layout of
/// `../shared/data/broad` (`t_s, gx..gz rad/s, ax..az m/s² specific force, mx..mz µT,
/// qw..qz ground truth, movement`), converted to Core Motion's units and signs.
public struct BroadTrial: Sendable {
    /// File name without extension, e.g. "01_undisturbed_slow_rotation_A".
    public var name: String
    /// Core Motion units: acceleration in g with Core Motion's sign (−specific force / 9.81),
    /// rotation rate rad/s, field µT; same sensor axes as BROAD.
    public var samples: [MotionSample]
    /// Sensor → earth (x east, y magnetic north, z up); NaN where the markers were occluded.
    public var groundTruth: [Quaternion]
    /// Samples BROAD evaluates (its `movement` column).
    public var movement: [Bool]

    /// Standard gravity, m/s², to turn BROAD's m/s² into g.
    public static let standardGravity = 9.81

    /// BROAD's IMU's gyro delay (`AHRSSettings.gyroDelay`), s: each reading matches the optical
    /// reference's mean rate over the period 0.6 samples (2.1 ms) before it, the same in each of the
    /// public ten trials (`GyroDelayMeasurement`, printed by `tiltkit bench accuracy`). It belongs
    /// to the sensor, like a pad's calibration, so the fusion scored on BROAD is given it.
    public static let gyroDelay = 0.0021

    /// The fusion's settings for BROAD's IMU: the defaults with its gyro delay.
    public static var fusionSettings: AHRSSettings {
        var settings = AHRSSettings.default
        settings.gyroDelay = gyroDelay
        return settings
    }

    public static func load(contentsOf url: URL) throws -> BroadTrial {
        let table = try NumericTable.load(contentsOf: url)
        func column(_ name: String) throws -> [Double] {
            guard let c = table.column(name) else {
                throw NumericTable.Error.malformed(path: url.path, line: 1, reason: "no column \(name)")
            }
            return c
        }
        let t = try column("t_s")
        let (gx, gy, gz) = (try column("gx"), try column("gy"), try column("gz"))
        let (ax, ay, az) = (try column("ax"), try column("ay"), try column("az"))
        let (mx, my, mz) = (try column("mx"), try column("my"), try column("mz"))
        let (qw, qx, qy, qz) = (try column("qw"), try column("qx"), try column("qy"), try column("qz"))
        let moving = try column("movement")
        let g = -1 / standardGravity
        var samples = [MotionSample]()
        samples.reserveCapacity(t.count)
        for i in t.indices {
            samples.append(MotionSample(timestamp: t[i], acceleration: Vector3(ax[i] * g, ay[i] * g, az[i] * g),
                                        rotationRate: Vector3(gx[i], gy[i], gz[i]),
                                        magneticField: Vector3(mx[i], my[i], mz[i])))
        }
        return BroadTrial(name: url.deletingPathExtension().lastPathComponent, samples: samples,
                          groundTruth: t.indices.map { Quaternion(w: qw[$0], x: qx[$0], y: qy[$0], z: qz[$0]) },
                          movement: moving.map { $0 == 1 })
    }

    /// The trial CSVs in a directory, sorted by name.
    public static func files(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "csv" && $0.lastPathComponent.first?.isNumber == true }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

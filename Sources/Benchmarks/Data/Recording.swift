import Foundation
import Motion
import MotionEvaluation

/// A real recording loaded for a bench: its short name and its samples in Core Motion's units.
public struct Recording: Sendable {
    public var name: String
    public var samples: [MotionSample]

    public init(name: String, samples: [MotionSample]) {
        self.name = name
        self.samples = samples
    }

    public var hasGyro: Bool { samples.first?.rotationRate != nil }
    public var hasMagnetometer: Bool { samples.first?.magneticField != nil }
}

extension BenchData {
    /// A Core Motion-layout trace (or any format the importers read).
    public func loadTrace(_ url: URL) throws(BenchError) -> Recording {
        do {
            return Recording(name: shortName(url), samples: try Trace.load(contentsOf: url).samples)
        } catch {
            throw .missingData("\(url.path): \(error)")
        }
    }

    /// A BROAD trial with its ground truth.
    public func loadBroad(_ url: URL) throws(BenchError) -> BroadTrial {
        do { return try BroadTrial.load(contentsOf: url) } catch { throw .missingData("\(url.path): \(error)") }
    }

    /// The recordings the cost benches run over: the BROAD trials if the folder has them (real
    /// 285.7 Hz IMU data with magnetometer), else every trace with a gyro. `limit` keeps the first few.
    public func costRecordings(limit: Int? = nil) throws(BenchError) -> [Recording] {
        let (broad, traces) = try recordings()
        var out: [Recording] = []
        if !broad.isEmpty {
            for url in broad.prefix(limit ?? broad.count) {
                let trial = try loadBroad(url)
                out.append(Recording(name: trial.name, samples: trial.samples))
            }
        } else {
            for url in traces {
                let r = try loadTrace(url)
                if r.hasGyro { out.append(r) }
            }
            // Those with a magnetometer first, so a limited run still measures 9-axis fusion.
            out = out.filter(\.hasMagnetometer) + out.filter { !$0.hasMagnetometer }
            if let limit { out = Array(out.prefix(limit)) }
        }
        guard !out.isEmpty else { throw .missingData("no recordings with a gyro in \(root.path)") }
        return out
    }

    /// The recording `bench pull` cycles through: x-io's IMU trace (gyro, accelerometer,
    /// magnetometer at 100 Hz) if present, else the first recording with a gyro.
    public func pullRecording() throws(BenchError) -> Recording {
        let (_, traces) = try recordings()
        if let xio = traces.first(where: { $0.path.hasSuffix("xio/sensor_data.csv") }) { return try loadTrace(xio) }
        return try costRecordings(limit: 1)[0]
    }
}

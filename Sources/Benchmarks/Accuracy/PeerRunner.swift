import Foundation
import Motion
import MotionEvaluation

/// Runs the peer filters from their PyPI packages (`scripts/broad-peers.py`: VQF, x-io Fusion,
/// Madgwick and Mahony from `ahrs`) over the same trials Tiltkit is scored on, and hands back
/// their attitudes, to be scored with the same `BroadMetric`.
///
/// The trials go to the script as raw float64 files (BROAD's units), so resampled and jittered
/// trials reach the peers exactly as Tiltkit sees them.
public struct PeerRunner: Sendable {
    /// One peer's attitude after every sample of one trial, BROAD's earth frame.
    public struct Output: Sendable {
        public var trial: String
        public var filter: String
        public var axes: Int
        public var estimates: [Quaternion]
        public var nanosecondsPerSample: Double
        /// How the time was taken ("updateBatch (C++ loop)", "Python loop").
        public var timing: String
    }

    public struct Result: Sendable {
        public var outputs: [Output]
        /// Package versions the script found.
        public var packages: [String: String]
        /// Peers not run, with why.
        public var missing: [String: String]
    }

    /// The script (`scripts/broad-peers.py`).
    public var script: URL
    /// Peers asked for: "vqf", "imufusion", "ahrs".
    public var peers: [String]
    public var python: String

    public init(script: URL, peers: [String], python: String = "python3") {
        self.script = script
        self.peers = peers
        self.python = python
    }

    /// `scripts/broad-peers.py` in the working directory's repository or above the executable.
    public static func locateScript() -> URL? {
        RepositoryFile.locate("scripts/broad-peers.py") { FileManager.default.fileExists(atPath: $0.path) }
    }

    public func run(_ trials: [BroadTrial]) throws(BenchError) -> Result {
        let fm = FileManager.default
        let folder = fm.temporaryDirectory.appendingPathComponent("tiltkit-peers-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: folder) }
        do {
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            var requestTrials: [[String: Any]] = []
            for trial in trials {
                let input = folder.appendingPathComponent("\(trial.name).in.f64")
                try PeerRunner.rawInput(trial).write(to: input)
                requestTrials.append(["name": trial.name, "input": input.path, "period": trial.samplePeriod])
            }
            let request = try JSONSerialization.data(withJSONObject: ["output": folder.path, "peers": peers,
                                                                      "trials": requestTrials])
            let stdout: Data
            do {
                stdout = try runScript(request)
            } catch {
                // No python3, or no numpy: the bench still runs, and says which peers it could not.
                let reason = "could not run \(python) \(script.lastPathComponent): \(error); scripts/install-peers.sh installs the peers"
                return Result(outputs: [], packages: [:], missing: Dictionary(uniqueKeysWithValues: peers.map { ($0, reason) }))
            }
            return try parse(stdout, trials: trials)
        } catch let error as BenchError {
            throw error
        } catch {
            throw .unavailable("peers: \(error)")
        }
    }

    /// Rows `t, gx, gy, gz, ax, ay, az, mx, my, mz` in BROAD's units (m/s² specific force).
    static func rawInput(_ trial: BroadTrial) -> Data {
        var values: [Double] = []
        values.reserveCapacity(trial.samples.count * 10)
        let g = -BroadTrial.standardGravity
        for s in trial.samples {
            let r = s.rotationRate ?? Vector3(0, 0, 0), m = s.magneticField ?? Vector3(0, 0, 0)
            values += [s.timestamp, r.x, r.y, r.z, s.acceleration.x * g, s.acceleration.y * g, s.acceleration.z * g,
                       m.x, m.y, m.z]
        }
        return values.withUnsafeBytes { Data($0) }
    }

    private func runScript(_ request: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script.path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        input.fileHandleForWriting.write(request)
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError.unavailable("peers: \(script.path) exited with status \(process.terminationStatus)")
        }
        return data
    }

    private func parse(_ stdout: Data, trials: [BroadTrial]) throws -> Result {
        struct Reply: Decodable {
            struct Row: Decodable {
                var trial: String, filter: String, axes: Int, file: String, nanosecondsPerSample: Double, timing: String
            }
            var packages: [String: String], missing: [String: String], results: [Row]
        }
        let reply = try JSONDecoder().decode(Reply.self, from: stdout)
        let counts = Dictionary(trials.map { ($0.name, $0.samples.count) }, uniquingKeysWith: { a, _ in a })
        var outputs: [Output] = []
        for row in reply.results {
            let data = try Data(contentsOf: URL(fileURLWithPath: row.file))
            let values = data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
            guard values.count == 4 * (counts[row.trial] ?? -1) else {
                throw BenchError.unavailable("peers: \(row.filter) on \(row.trial) gave \(values.count / 4) attitudes")
            }
            let estimates = stride(from: 0, to: values.count, by: 4).map {
                Quaternion(w: values[$0], x: values[$0 + 1], y: values[$0 + 2], z: values[$0 + 3])
            }
            outputs.append(Output(trial: row.trial, filter: row.filter, axes: row.axes, estimates: estimates,
                                  nanosecondsPerSample: row.nanosecondsPerSample, timing: row.timing))
        }
        return Result(outputs: outputs, packages: reply.packages, missing: reply.missing)
    }
}

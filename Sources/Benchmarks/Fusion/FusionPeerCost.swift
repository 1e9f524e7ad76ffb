import Foundation
import Motion

/// x-io Fusion's C library timed over the recordings `bench fusion` times Tiltkit on, in the same
/// run, so its cost is measured beside Tiltkit's rather than quoted: `.build-peers/fusion-cost`
/// (scripts/peer-cost/fusion-cost.c, built -O2 against imufusion's sources by scripts/install-peers.sh).
struct FusionPeerCost: Sendable {
    /// ns per sample of the measuring thread's CPU time, and what the program says it ran: taking
    /// the quaternion only, and writing what Tiltkit's rows write of device motion (attitude,
    /// rotation rate, gravity, user acceleration; nil from a program built before it timed that).
    struct Timing: Sendable {
        var sixAxis: Double
        var nineAxis: Double?
        var sixAxisDeviceMotion: Double?
        var nineAxisDeviceMotion: Double?
        /// "x-io Fusion, imufusion 1.3.3's sources; gain 0.5, …".
        var description: String
    }

    var executable: URL
    /// The recordings as the program reads them (its header comment gives the layout).
    var input: URL

    /// The program: `TILTKIT_FUSION_COST`, else `.build-peers/fusion-cost` in the working directory's
    /// repository or above the executable; nil when it is not built.
    static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let path = environment["TILTKIT_FUSION_COST"], !path.isEmpty {
            return FileManager.default.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : nil
        }
        return RepositoryFile.locate(".build-peers/fusion-cost") { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Writes `recordings` where the program reads them; the caller removes `folder`.
    init(executable: URL, recordings: [Recording], folder: URL) throws(BenchError) {
        self.executable = executable
        self.input = folder.appendingPathComponent("fusion-cost.in.f64")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.encode(recordings).write(to: input)
        } catch {
            throw .unavailable("x-io Fusion: could not write its input: \(error)")
        }
    }

    /// float64s: recording count; per recording its sample count, 1 if it has a magnetometer, then
    /// rows t, gyro (°/s), specific force (g: the negated Core Motion acceleration), field.
    static func encode(_ recordings: [Recording]) -> Data {
        var values: [Double] = [Double(recordings.count)]
        values.reserveCapacity(1 + recordings.reduce(0) { $0 + 2 + 10 * $1.samples.count })
        let degrees = 180 / Double.pi
        for recording in recordings {
            values += [Double(recording.samples.count), recording.hasMagnetometer ? 1 : 0]
            for s in recording.samples {
                let r = s.rotationRate ?? Vector3(0, 0, 0), m = s.magneticField ?? Vector3(0, 0, 0)
                values += [s.timestamp, r.x * degrees, r.y * degrees, r.z * degrees,
                           -s.acceleration.x, -s.acceleration.y, -s.acceleration.z, m.x, m.y, m.z]
            }
        }
        return values.withUnsafeBytes { Data($0) }
    }

    /// One timed pass of the program over every recording.
    func measure() throws(BenchError) -> Timing {
        struct Reply: Decodable {
            var library: String
            var setup: String
            var sixAxisNanosecondsPerSample: Double
            var nineAxisNanosecondsPerSample: Double?
            var sixAxisDeviceMotionNanosecondsPerSample: Double?
            var nineAxisDeviceMotionNanosecondsPerSample: Double?
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = [input.path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw .unavailable("x-io Fusion: could not run \(executable.path): \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .unavailable("x-io Fusion: \(executable.path) exited with status \(process.terminationStatus): \(message)")
        }
        guard let reply = try? JSONDecoder().decode(Reply.self, from: data),
              reply.sixAxisNanosecondsPerSample.isFinite, reply.sixAxisNanosecondsPerSample > 0 else {
            throw .unavailable("x-io Fusion: \(executable.path) printed no timing: \(String(decoding: data, as: UTF8.self))")
        }
        return Timing(sixAxis: reply.sixAxisNanosecondsPerSample, nineAxis: reply.nineAxisNanosecondsPerSample,
                      sixAxisDeviceMotion: reply.sixAxisDeviceMotionNanosecondsPerSample,
                      nineAxisDeviceMotion: reply.nineAxisDeviceMotionNanosecondsPerSample,
                      description: "\(reply.library); \(reply.setup)")
    }
}

import Foundation

/// Writes a Sensor Logger export folder (iOS, units not standardised) in the app's layout
/// (github.com/tszheichoi/awesome-sensor-logger): `Metadata.csv`, then one CSV per sensor with
/// `time` (ns), `seconds_elapsed` and the values, each stream on its own clock as the app logs
/// them. The motion is a slow wobble; what matters to the tests is the timing.
///
///     try SensorLoggerFolder(seconds: 60).write(to: folder)
public struct SensorLoggerFolder: Sendable {
    /// How long the accelerometer (the timeline) runs, s.
    public var seconds: Double
    /// Stamps drift up to ±this (s) around the nominal period, differently in every stream.
    public var jitter = 0.0
    /// Seconds of gyroscope rows left out (a stream that stalled).
    public var gyroscopeGap: Range<Double>?
    /// How long the gyroscope and magnetometer run (s), nil: as long as the accelerometer.
    public var gyroscopeSeconds: Double?
    public var magnetometerSeconds: Double?

    public init(seconds: Double) { self.seconds = seconds }

    /// One sensor file: its name, header after the two time cells, rate (Hz), first stamp (s).
    struct Stream {
        var file: String
        var columns: String
        var rate: Double
        var start: Double
        var seconds: Double
        var gap: Range<Double>?
        var values: (Double) -> [Double]
    }

    public func write(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "version,device name,recording time,platform,appVersion,standardisation\n3,iPhone,2023-11-14_22-13-20,ios,1.30.0,false\n"
            .write(to: folder.appendingPathComponent("Metadata.csv"), atomically: true, encoding: .utf8)
        let wobble = { (t: Double) in [-1 + 0.05 * sin(3 * t), 0.1 * sin(2 * t), 0.2 * cos(1.3 * t)] }
        let streams = [
            Stream(file: "AccelerometerUncalibrated.csv", columns: "z,y,x", rate: 100, start: 0.25, seconds: seconds, values: wobble),
            Stream(file: "Gyroscope.csv", columns: "z,y,x", rate: 100, start: 0.251, seconds: gyroscopeSeconds ?? seconds,
                   gap: gyroscopeGap, values: { [0.3 * cos(1.1 * $0), 0.2 * sin(2 * $0), 0.1 * cos(3 * $0)] }),
            Stream(file: "Magnetometer.csv", columns: "z,y,x", rate: 50, start: 0.262, seconds: magnetometerSeconds ?? seconds,
                   values: { [-40, 20 * sin(0.3 * $0), 20 * cos(0.3 * $0)] }),
            Stream(file: "Gravity.csv", columns: "z,y,x", rate: 100, start: 0.251, seconds: seconds,
                   values: { [-9.7 + 0.1 * sin($0), 0.5 * sin(2 * $0), 0.4 * cos($0)] }),
            Stream(file: "Accelerometer.csv", columns: "z,y,x", rate: 100, start: 0.251, seconds: seconds,
                   values: { [0.3 * sin(5 * $0), 0.2 * cos(4 * $0), 0.1 * sin(6 * $0)] }),
            Stream(file: "Orientation.csv", columns: "qz,qy,qx,qw,roll,pitch,yaw", rate: 100, start: 0.251, seconds: seconds,
                   values: { t in
                       let half = 0.2 * sin(0.5 * t)
                       return [sin(half), 0, 0, cos(half), 0, 0, 2 * half]
                   }),
            Stream(file: "Barometer.csv", columns: "relativeAltitude,pressure", rate: 1, start: 0.7, seconds: seconds,
                   values: { [0.1 * sin(0.1 * $0), 1002.5 + 0.01 * sin(0.1 * $0)] }),
        ]
        for (index, stream) in streams.enumerated() {
            try write(stream, seed: UInt64(index + 1), to: folder.appendingPathComponent(stream.file))
        }
    }

    private func write(_ stream: Stream, seed: UInt64, to url: URL) throws {
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let output = try FileHandle(forWritingTo: url)
        defer { try? output.close() }
        var random = SplitMix64(seed: seed)
        var text = "time,seconds_elapsed,\(stream.columns)\n"
        let count = Int(stream.seconds * stream.rate)
        for i in 0..<count {
            let drift = jitter * (Double(random.next() % 2001) / 1000 - 1)
            let t = stream.start + Double(i) / stream.rate + drift
            if let gap = stream.gap, gap.contains(t - stream.start) { continue }
            let nanoseconds = 1_700_000_000_000_000_000 + Int64((t * 1e9).rounded())
            text += "\(nanoseconds),\(String(format: "%.6f", t))"
            for v in stream.values(t) { text += String(format: ",%.9g", v) }
            text += "\n"
            if text.utf8.count > 1 << 20 {
                try output.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        try output.write(contentsOf: Data(text.utf8))
    }
}

import ArgumentParser
import Foundation
import Motion

struct Fuse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run sensor fusion (or the accelerometer-only estimator) over a trace and write device motion as CSV.",
        discussion: """
        Reads any format `tiltkit convert` reads and writes one row per input sample:
        t,qw,qx,qy,qz,roll,pitch,yaw,gravx,gravy,gravz,uax,uay,uaz,rrx,rry,rrz,heading
        in Core Motion's units and signs: the quaternion rotates device → reference frame; roll, pitch,
        yaw in rad; gravity and user acceleration in g; rotation rate in rad/s (bias removed); heading
        in degrees 0..<360 in north-referenced frames, −1 otherwise. A sample the estimator rejects
        (NaN, saturation, time going backwards) gets a row with only t; the counts go to stderr.

        Frames: x-arbitrary-z-vertical (accelerometer + gyro), x-arbitrary-corrected-z-vertical,
        x-magnetic-north-z-vertical, x-true-north-z-vertical (with --location, as the demos take it; \
        the hidden --declination DEG gives the declination itself instead).

        Example: tiltkit fuse Assets/traces/xio/sensor_data.csv --out fused.csv --frame x-magnetic-north-z-vertical
        """)

    @Argument(help: "The trace file (or Sensor Logger folder); '-' for standard input.")
    var file: String

    @Option(help: "Where to write the CSV; '-' for standard output.")
    var out: String

    @Option(help: "fusion or accel (accelerometer-only low-pass, as Apple's 2010 teapot).")
    var mode: String = "fusion"

    @Option(help: "Reference frame: \(AttitudeReferenceFrame.allCases.map(\.rawValue).joined(separator: ", ")).")
    var frame: String = AttitudeReferenceFrame.xArbitraryZVertical.rawValue

    @Option(help: ArgumentHelp(locationHelp))
    var location: String?

    /// The declination itself, degrees east positive: kept, hidden, for scripts from before --location.
    @Option(help: .hidden)
    var declination: Double?

    @Option(name: .customLong("gyro-delay"),
            help: "How late the gyro's readings are, ms, beyond the period each averages (BROAD's IMU: 2.1); the attitude is turned on by rate × delay.")
    var gyroDelay: Double = 0

    @Option(help: "Cut-off of the accelerometer-only gravity low-pass, Hz.")
    var cutoff: Double = 2

    func run() throws {
        try reportingErrors {
            guard let kind = DeviceMotionEstimatorKind(rawValue: mode) else {
                throw ValidationError("--mode must be fusion or accel, not '\(mode)'")
            }
            guard let referenceFrame = AttitudeReferenceFrame(rawValue: frame) else {
                throw ValidationError("--frame must be one of \(AttitudeReferenceFrame.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard cutoff > 0, cutoff.isFinite else { throw ValidationError("--cutoff must be a positive frequency in Hz, not \(cutoff)") }
            if location != nil && declination != nil { throw ValidationError("give --location or --declination, not both") }
            if let declination, !declination.isFinite { throw ValidationError("--declination must be a finite number of degrees") }
            let declinationDegrees = try declination ?? location.map { try parseLocation($0).magneticDeclination } ?? 0
            // a delay beyond a second is no sensor's filter, and the output would swing with the rate
            guard gyroDelay >= 0, gyroDelay <= 1000 else {
                throw ValidationError("--gyro-delay must be between 0 and 1000 ms, not \(gyroDelay)")
            }
            if kind == .accelerometer && referenceFrame != .xArbitraryZVertical {
                throw ValidationError("--mode accel gives roll and pitch only: use --frame x-arbitrary-z-vertical")
            }
            // Sample by sample from file to file: memory does not grow with the trace.
            let stream = try TraceSampleStream(contentsOf: try InputPath.url(file))
            var estimator: any DeviceMotionEstimator = kind == .accelerometer
                ? AccelerometerAttitudeEstimator(cutoffFrequency: cutoff)
                : AHRS(frame: referenceFrame, settings: {
                    var s = AHRSSettings.default
                    s.declination = declinationDegrees * .pi / 180
                    s.gyroDelay = gyroDelay / 1000
                    return s
                }())
            // Rows go to the file as they are made (whole lines only, even on a full disk).
            let destination = OutputPath(out)
            // Written beside the output and renamed over it once whole; never over the input.
            let target = try destination.open(reading: [file])
            let output = try LineFileWriter(path: target.path, name: destination.name)
            try output.append("t,qw,qx,qy,qz,roll,pitch,yaw,gravx,gravy,gravz,uax,uay,uaz,rrx,rry,rrz,heading\n")
            var count = 0
            while let sample = try stream.next() {
                count += 1
                guard let m = estimator.update(sample) else {
                    try output.append("\(Self.number(sample.timestamp))\n")
                    continue
                }
                let q = m.attitude.quaternion
                let values = [m.timestamp, q.w, q.x, q.y, q.z, m.attitude.roll, m.attitude.pitch, m.attitude.yaw,
                              m.gravity.x, m.gravity.y, m.gravity.z,
                              m.userAcceleration.x, m.userAcceleration.y, m.userAcceleration.z,
                              m.rotationRate.x, m.rotationRate.y, m.rotationRate.z, m.heading]
                try output.append(values.map(Self.number).joined(separator: ",") + "\n")
            }
            try output.close()
            try target.file?.commit()
            printWarnings(stream.warnings, samplesRead: count)
            let r = estimator.rejections
            FileHandle.standardError.write(Data(("fused \(count) samples (\(kind.rawValue), \(referenceFrame.rawValue)) → \(destination.name); "
                + "rejected: \(r.nonFinite) non-finite, \(r.saturated) saturated, \(r.timeNotIncreasing) not after the previous; "
                + "\(r.gapRestarts) restarts after gaps\n").utf8))
        }
    }

    private static func number(_ x: Double) -> String { String(format: "%.9g", x) }
}

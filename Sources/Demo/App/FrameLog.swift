import Engine
import Foundation
import Motion

/// `--log FILE` of the teapot and the cart game: one CSV line per frame with the frame time and
/// the age of the motion sample the frame pulled, so a person can measure inside a real game
/// loop what `bench pull --source` measures outside one.
///
///     frame,time_s,frame_time_ms,sample_age_ms
///     0,0.000000,16.667,3.512
///
/// `frame_time_ms` is the wall-clock time since the previous frame (empty on the first);
/// `sample_age_ms` is the pull's time minus the sample's arrival on the manager's clock (empty
/// before the first sample). Lines are buffered (`LineFileWriter`); `close()` writes the rest.
public final class FrameLog {
    public static let header = "frame,time_s,frame_time_ms,sample_age_ms\n"
    private let file: LineFileWriter

    public init(path: String) throws {
        file = try LineFileWriter(path: path, name: path)
        try file.append(Self.header)
    }

    /// The log for `--log PATH` (nil without one); a file that cannot be made is a clear error.
    public static func open(_ path: String?) throws -> FrameLog? {
        guard let path else { return nil }
        do { return try FrameLog(path: path) } catch { throw FrameLogError(path: path, reason: "\(error)") }
    }

    /// The line for one frame (pure, for tests).
    public static func line(frame: Int, time: Double, frameTime: Double?, sampleAge: Double?) -> String {
        let frameText = frameTime.map { String(format: "%.3f", $0 * 1000) } ?? ""
        let ageText = sampleAge.map { String(format: "%.3f", $0 * 1000) } ?? ""
        return "\(frame),\(String(format: "%.6f", time)),\(frameText),\(ageText)\n"
    }

    /// Notes `frame`: its wall-clock duration from the frame timer and the pulled sample's age.
    public func record(_ frame: DemoFrame, sampleAge: Double?) {
        let frameTime = frame.index > 0 ? frame.timer.recent.last : nil
        // A full disk must not stop the game: the log just ends where the disk did.
        try? file.append(Self.line(frame: frame.index, time: frame.time, frameTime: frameTime, sampleAge: sampleAge))
    }

    public func close() throws { try file.close() }
}

public struct FrameLogError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "--log \(path): \(reason)" }
}

import Foundation
import Motion
import MotionDevices

/// A `--source` value: where motion comes from.
///
///     auto                   the best device `tiltkit devices` finds (fusion-capable first), else the bundled trace
///     trace:PATH | PATH      a trace file (any format `tiltkit convert` reads), replayed in real time
///     hidraw:, iio:, iio-buffer:, evdev:, sdl[:N], hid-recording:, joycon-pair[:…]   live devices (`DeviceSourceSpec`)
///
/// Each kind is one case; adding a device kind means a case, a line in `parse`, and one in `makeSource`.
public enum SourceSpec: Equatable, Sendable {
    case auto
    case trace(path: String)
    case device(DeviceSourceSpec)

    /// The kinds `KIND:ARGUMENT` accepts, for help and error text.
    public static let kinds = ["auto", "trace:PATH"] + DeviceSourceSpec.kinds

    /// How a source built from the spec behaves where that applies (replays; gyro calibration).
    public struct Options: Sendable {
        public var speed: Double
        public var loop: Bool
        /// nil: auto for live devices, none for traces (`GyroCalibrationChoice.mode`).
        public var gyroCalibration: GyroCalibrationChoice?
        /// An evdev node taken for this source alone (EVIOCGRAB), so no other program reads it.
        public var exclusive: Bool

        public init(speed: Double = 1, loop: Bool = false, gyroCalibration: GyroCalibrationChoice? = nil, exclusive: Bool = false) {
            self.speed = speed
            self.loop = loop
            self.gyroCalibration = gyroCalibration
            self.exclusive = exclusive
        }
    }

    public init(parsing text: String) throws {
        if text == "auto" { self = .auto; return }
        if text == "sdl" { self = .device(.sdl(index: nil)); return }
        // A kind that needs no path: "joycon-pair" and "joycon-pair,side=left" name the first pair found.
        if text == "joycon-pair" || text.hasPrefix("joycon-pair,") {
            self = .device(try DeviceSourceSpec(kind: "joycon-pair", argument: String(text.dropFirst("joycon-pair".count)))!)
            return
        }
        guard let colon = text.firstIndex(of: ":"), SourceSpec.isKindName(text[..<colon]) else {
            self = .trace(path: text)
            return
        }
        let kind = String(text[..<colon])
        let argument = String(text[text.index(after: colon)...])
        switch kind {
        case "trace": self = .trace(path: argument)
        default:
            if let device = try DeviceSourceSpec(kind: kind, argument: argument) { self = .device(device); return }
            // A file whose name merely contains a colon is still a trace.
            if FileManager.default.fileExists(atPath: text) { self = .trace(path: text); return }
            throw SourceSpecError.unknownKind(kind)
        }
    }

    /// The source, wrapped once here in the gyro calibration `options` asks for: every command
    /// that opens a live device gets its bias removed the same way. What a trace reader passed
    /// over (a cut last line) goes to `warnings`; nothing is printed here.
    /// What the user should hear about the choice goes to `notes`, one line each: for `auto`, the
    /// devices here that this user may not open (with the udev rule) or that were refused, and
    /// that the bundled trace is replayed instead; a device's own (an IIO hub at rest asked for a rate).
    public func makeSource(_ options: Options = Options(),
                           warnings: ([TraceError]) -> Void = { _ in },
                           notes: (String) -> Void = { _ in }) throws -> any MotionSource {
        let (source, live) = try makeUncalibrated(options, warnings, notes)
        (source as? any NotedMotionSource)?.notes.forEach(notes)
        return GyroCalibrationChoice.wrap(source, mode: GyroCalibrationChoice.mode(given: options.gyroCalibration, live: live))
    }

    private func makeUncalibrated(_ options: Options, _ warnings: ([TraceError]) -> Void,
                                  _ notes: (String) -> Void) throws -> (any MotionSource, live: Bool) {
        switch self {
        case .auto:
            let search = DeviceSourceSpec.autoSearch()
            for note in search.notes { notes("--source auto: \(note)") }
            var failed = false
            for candidate in search.candidates {
                do { return (try candidate.spec.makeSource(), true) } catch {
                    notes("--source auto: \(candidate.text) could not be opened: \(error)")
                    failed = true
                }
            }
            guard let url = AssetLocator.defaultTrace else { throw SourceSpecError.noDefaultTrace }
            if failed || !search.notes.isEmpty { notes("--source auto: replaying the bundled trace \(url.lastPathComponent) instead") }
            return (try replay(url, options, warnings), false)
        case .trace(let path):
            return (try replay(URL(fileURLWithPath: path), options, warnings), false)
        case .device(let device):
            // A hid-recorder capture is a replay too: left as recorded unless asked.
            if case .hidRecording = device { return (try device.makeSource(), false) }
            return (try device.makeSource(exclusive: options.exclusive), true)
        }
    }

    /// Read from the file on each pass: a trace of any length replays in bounded memory.
    private func replay(_ url: URL, _ options: Options, _ warnings: ([TraceError]) -> Void) throws -> ReplaySource {
        let replay = try ReplaySource(file: url, pacing: .realTime(speed: options.speed), loop: options.loop)
        if !replay.warnings.isEmpty { warnings(replay.warnings) }
        return replay
    }

    private static func isKindName(_ s: Substring) -> Bool {
        !s.isEmpty && s.allSatisfy { $0.isLetter || $0 == "-" }
    }
}

public enum SourceSpecError: Error, Equatable, CustomStringConvertible {
    case unknownKind(String)
    case noDefaultTrace
    /// A device spec's argument or setting is wrong; the message says which and what is allowed.
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let message): return message
        case .unknownKind(let kind):
            return "unknown source kind '\(kind)' (known: \(SourceSpec.kinds.joined(separator: ", ")), or a trace file path)"
        case .noDefaultTrace:
            let searched = AssetLocator.candidateFolders().map(\.path).joined(separator: ", ")
            return "cannot find the default trace \(AssetLocator.defaultTracePath) (searched \(searched); set \(AssetLocator.environmentVariable))"
        }
    }
}

extension SourceSpec {
    /// The trace file this spec replays (the bundled default for `auto`), or nil for a device.
    public func recordedTraceURL() throws -> URL? {
        if case .trace(let path) = self { return URL(fileURLWithPath: path) }
        if self == .auto {
            guard let url = AssetLocator.defaultTrace else { throw SourceSpecError.noDefaultTrace }
            return url
        }
        return nil
    }
}

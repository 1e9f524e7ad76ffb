import Foundation
import Motion
import MotionSources

/// `Trace.load` for the commands: what the reader passed over (a cut last line) is said on
/// stderr, one line each, and the rest of the file is used.
func loadTrace(_ path: String, format: TraceFormat? = nil) throws -> Trace {
    try loadTrace(URL(fileURLWithPath: path), format: format)
}

func loadTrace(_ url: URL, format: TraceFormat? = nil) throws -> Trace {
    let trace = try Trace.load(contentsOf: url, format: format)
    printWarnings(trace.warnings, samplesRead: trace.samples.count)
    return trace
}

/// `samplesRead` is said when known ("read the 12 samples before it").
func printWarnings(_ warnings: [TraceError], samplesRead: Int?) {
    let read = samplesRead.map { "the \($0) samples" } ?? "the samples"
    for warning in warnings {
        printError("tiltkit: warning: \(warning); read \(read) before it")
    }
}

extension SourceSpec {
    /// `makeSource` for the commands (`openSource`): a trace's reader warnings and the notes on
    /// the choice (`--source auto`'s devices this user may not open) said on stderr.
    func openSource(_ options: Options = Options()) throws -> any MotionSource {
        try makeSource(options, warnings: { printWarnings($0, samplesRead: nil) }, notes: { printError("tiltkit: \($0)") })
    }
}

extension SourceSpec {
    /// The file the source reads, for commands that must not write over it: a trace, or a
    /// hid-recorder capture (a device node is no file a command writes).
    var inputFiles: [String] {
        switch self {
        case .trace(let path): return [path]
        case .device(.hidRecording(let path, _)): return [path]
        default: return []
        }
    }
}

// libFuzzer target: the trace reader and every importer over arbitrary bytes, whole and in pieces.
// A thrown TraceError is the right answer to bad input; a trap or a sanitizer report is a bug.
import Foundation
@testable import Motion

private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-fuzz-trace-\(getpid()).csv")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? TraceFormat.detect(CSVDocument(bytes: bytes, name: "fuzz"))
    guard (try? Data(bytes).write(to: scratch)) != nil else { return 0 }
    // Every format's reader, forced and detected, whole (Trace.load) and streamed with pieces
    // small enough that lines cross them.
    let formats: [TraceFormat?] = [nil, .tiltkit, .columns, .xioFusion, .sensorLog]
    for format in formats {
        if let trace = try? Trace.load(contentsOf: scratch, format: format) { _ = TraceSummary(trace) }
        if let stream = try? TraceSampleStream(contentsOf: scratch, format: format, pieceSize: 64) {
            while let sample = try? stream.next() { _ = sample }
        }
    }
    return 0
}

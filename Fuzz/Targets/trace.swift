// libFuzzer target: the trace reader and every importer over arbitrary bytes, whole and in pieces.
// A thrown TraceError is the right answer to bad input; a trap or a sanitizer report is a bug.
import Foundation
@testable import Motion

private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-fuzz-trace-\(getpid()).csv")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let document = CSVDocument(bytes: bytes, name: "fuzz")
    let readers: [(CSVDocument) throws -> Trace] = [
        TiltkitTraceFormat.read, ColumnsImporter.read, XIOFusionImporter.read, SensorLogImporter.read,
    ]
    for read in readers {
        if let trace = try? read(document) { _ = TraceSummary(trace) }
    }
    _ = try? TraceFormat.detect(document)
    // The streaming reader, with pieces small enough that lines cross them.
    if (try? Data(bytes).write(to: scratch)) != nil, let stream = try? TraceSampleStream(contentsOf: scratch, pieceSize: 64) {
        while let sample = try? stream.next() { _ = sample }
    }
    return 0
}

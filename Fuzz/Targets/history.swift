// libFuzzer target: the accelerometer history file reader (`AccelerometerHistoryFile`): the bytes
// as a file on disk, opened read-only and read-write, every reading and a range queried. A file that
// is not a whole, ordered, finite history must be refused with an error, never trap.
import Foundation
@testable import Motion

private let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-history-\(getpid()).tkhist").path

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return 0 }
    _ = write(fd, data, size)
    close(fd)
    defer { unlink(path) }
    for readOnly in [true, false] {
        guard let history = try? AccelerometerHistoryFile(existingAt: path, readOnly: readOnly) else { continue }
        if let span = history.span {
            _ = history.data(from: span.lowerBound, to: span.upperBound)
            _ = history.data(from: span.lowerBound - 1, to: (span.lowerBound + span.upperBound) / 2)
        }
        for i in 0..<min(history.count, 64) { _ = history.reading(i) }
        if !readOnly {
            // Appending goes on after what the file holds (or is refused), and the file reopens.
            let next = (history.span?.upperBound ?? 0) + 0.01
            history.append(AccelerometerData(timestamp: next, acceleration: Vector3(0, 0, -1)))
            history.append(AccelerometerData(timestamp: .nan, acceleration: Vector3(0, 0, -1)))
            _ = try? AccelerometerHistoryFile(existingAt: path, readOnly: true)
        }
    }
    _ = try? AccelerometerHistoryLayout.header(Array(UnsafeBufferPointer(start: data, count: min(size, 32))), fileSize: size)
    return 0
}

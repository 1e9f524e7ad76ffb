// Record and replay: a source recorded to a trace file for SECONDS, then that file replayed
// through a MotionManager as fast as it reads (the same file `tiltkit record` writes).
//   swift run RecordAndReplay [SOURCE [SECONDS [FILE]]]
import Foundation
import Motion
import MotionSources

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.dropFirst().first.flatMap { Double($0) } ?? 1
let file = URL(fileURLWithPath: arguments.dropFirst(2).first ?? NSTemporaryDirectory() + "/tiltkit-example.csv")
do {
    let recorder = try TraceRecorder(source: try SourceSpec(parsing: arguments.first ?? "auto").makeSource(), to: file)
    try recorder.start()
    while recorder.samplesWritten == 0 && !recorder.waitUntilEnded(timeout: 0.01) {}  // the source is opening
    _ = recorder.waitUntilEnded(timeout: seconds)
    let recorded = try recorder.stop()
    print("recorded \(recorded.samplesWritten) samples to \(file.path)")

    let trace = try Trace.load(contentsOf: file)
    let manager = MotionManager(source: ReplaySource(trace: trace, pacing: .asFastAsPossible, loop: false))
    let replayed = DispatchQueue(label: "replay")
    let done = DispatchSemaphore(value: 0)
    manager.startConnectionStateUpdates(to: replayed, withHandler: { if $0 == .ended { done.signal() } })
    manager.startDeviceMotionUpdates()
    done.wait()
    let last = manager.deviceMotion!
    print(String(format: "replayed %d samples, %.2f s; last gravity (%.3f %.3f %.3f) g", trace.samples.count,
                 trace.duration, last.gravity.x, last.gravity.y, last.gravity.z))
    manager.stopDeviceMotionUpdates()
} catch {
    FileHandle.standardError.write(Data("RecordAndReplay: \(error)\n".utf8))
    exit(1)
}

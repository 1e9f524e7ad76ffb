// Push: every sample, in order, none missed, to a handler on a queue of yours.
//   swift run PushEverySample [SOURCE [SECONDS]]
import Foundation
import Motion
import MotionSources
import Synchronization

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.dropFirst().first.flatMap { Double($0) } ?? 1
let counts = Mutex((samples: 0, outOfOrder: 0, last: -Double.infinity))
do {
    let manager = MotionManager(source: try SourceSpec(parsing: arguments.first ?? "auto").makeSource())
    let queue = DispatchQueue(label: "motion")
    manager.deviceMotionUpdateInterval = 0  // every sample the source gives
    manager.startDeviceMotionUpdates(using: .xArbitraryZVertical, to: queue) { motion, error in
        guard let motion else { return print("no device motion: \(error!)") }
        counts.withLock {
            if motion.timestamp <= $0.last { $0.outOfOrder += 1 }
            $0.samples += 1
            $0.last = motion.timestamp
        }
    }
    while counts.withLock({ $0.samples }) == 0 { Thread.sleep(forTimeInterval: 0.01) }  // the source is opening
    Thread.sleep(forTimeInterval: seconds)
    manager.stopDeviceMotionUpdates()
    queue.sync {}  // the last handler has run
    let result = counts.withLock { $0 }
    print(String(format: "pushed %d samples, %d out of order, rate %.0f Hz", result.samples, result.outOfOrder,
                 manager.measuredSampleRate ?? 0))
} catch {
    FileHandle.standardError.write(Data("PushEverySample: \(error)\n".utf8))
    exit(1)
}

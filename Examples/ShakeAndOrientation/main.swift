// Shake and orientation: every sample through a ShakeDetector and a DeviceOrientationDetector
// (face up/down, portrait, landscape, with hysteresis). A recording replays at SPEED× to its end;
// a live source is read for SECONDS.
//   swift run ShakeAndOrientation [SOURCE [SECONDS [SPEED]]]
import Foundation
import Motion
import MotionSources
import Synchronization

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.dropFirst().first.flatMap { Double($0) } ?? 10
let speed = arguments.dropFirst(2).first.flatMap { Double($0) } ?? 30
let gestures = Mutex((shake: ShakeDetector(), orientation: DeviceOrientationDetector(), shakes: 0, turns: 0))

/// Runs handlers at once on the source's thread: every sample in order, and a recording's end after its last sample.
struct OnTheSourceThread: MotionHandlerQueue {
    func enqueue(_ work: @escaping @Sendable () -> Void) { work() }
}

do {
    let manager = MotionManager(source: try SourceSpec(parsing: arguments.first ?? "auto").makeSource(.init(speed: speed)))
    let ended = DispatchSemaphore(value: 0)
    manager.startConnectionStateUpdates(to: OnTheSourceThread()) { if $0 == .ended { ended.signal() } }
    manager.startDeviceMotionUpdates(using: .xArbitraryZVertical, to: OnTheSourceThread()) { motion, error in
        guard let motion else { return print("no device motion: \(error!)") }
        gestures.withLock { g in
            if let shake = g.shake.update(motion) {
                g.shakes += 1
                print(String(format: "t=%6.2f s  shake: %d reversals, peak %.2f g", shake.timestamp, shake.reversals, shake.peakAcceleration))
            }
            if let change = g.orientation.update(motion) {
                g.turns += 1
                print(String(format: "t=%6.2f s  orientation: %@ → %@", change.timestamp, "\(change.previous)", "\(change.orientation)"))
            }
        }
    }
    _ = ended.wait(timeout: .now() + seconds)
    manager.stopDeviceMotionUpdates()  // joins the source's thread: no handler runs after this
    let totals = gestures.withLock { ($0.shakes, $0.turns) }
    print("\(totals.0) shakes, \(totals.1) orientation changes")
} catch {
    FileHandle.standardError.write(Data("ShakeAndOrientation: \(error)\n".utf8))
    exit(1)
}

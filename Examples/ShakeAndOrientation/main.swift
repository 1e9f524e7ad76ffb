// Shake and orientation: every sample through a ShakeDetector and a DeviceOrientationDetector
// (face up/down, portrait, landscape, with hysteresis). Recordings replay at SPEED× to be brief.
//   swift run ShakeAndOrientation [SOURCE [SECONDS [SPEED]]]
import Foundation
import Motion
import MotionSources
import Synchronization

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.dropFirst().first.flatMap { Double($0) } ?? 5
let speed = arguments.dropFirst(2).first.flatMap { Double($0) } ?? 30
let gestures = Mutex((shake: ShakeDetector(), orientation: DeviceOrientationDetector(), shakes: 0, turns: 0))

do {
    let source = try SourceSpec(parsing: arguments.first ?? "auto").makeSource(.init(speed: speed))
    let manager = MotionManager(source: source)
    manager.startDeviceMotionUpdates(using: .xArbitraryZVertical, to: DispatchQueue(label: "gestures")) { motion, error in
        guard let motion else { return print("no device motion: \(error!)") }
        gestures.withLock { g in
            if let shake = g.shake.update(motion) {
                g.shakes += 1
                print(String(format: "t=%6.2f s  shake: %d reversals, peak %.2f g", shake.timestamp, shake.reversals,
                             shake.peakAcceleration))
            }
            if let change = g.orientation.update(motion) {
                g.turns += 1
                print(String(format: "t=%6.2f s  orientation: %@ → %@", change.timestamp, "\(change.previous)",
                             "\(change.orientation)"))
            }
        }
    }
    Thread.sleep(forTimeInterval: seconds)
    manager.stopDeviceMotionUpdates()
    let totals = gestures.withLock { ($0.shakes, $0.turns) }
    print("\(totals.0) shakes, \(totals.1) orientation changes")
} catch {
    FileHandle.standardError.write(Data("ShakeAndOrientation: \(error)\n".utf8))
    exit(1)
}

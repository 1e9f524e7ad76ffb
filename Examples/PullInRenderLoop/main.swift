// Pull in a render loop: each frame takes the newest device motion (lock-free, no allocation).
//   swift run PullInRenderLoop [SOURCE [FRAMES]]    SOURCE as `tiltkit --source` takes; default auto
import Foundation
import Motion
import MotionSources

let arguments = CommandLine.arguments.dropFirst()
let frames = arguments.dropFirst().first.flatMap { Int($0) } ?? 120
do {
    let manager = MotionManager(source: try SourceSpec(parsing: arguments.first ?? "auto").makeSource())
    manager.startDeviceMotionUpdates(using: .xArbitraryZVertical)
    var frame = 0
    while frame < frames {
        Thread.sleep(forTimeInterval: 1.0 / 60)  // stands in for update and draw at 60 Hz
        guard let motion = manager.deviceMotion else { continue }  // the source is still opening
        if frame % 30 == 0 {
            let a = motion.attitude
            print(String(format: "frame %3d  t=%6.2f s  roll %6.1f°  pitch %6.1f°  yaw %6.1f°", frame, motion.timestamp,
                         a.roll * 180 / .pi, a.pitch * 180 / .pi, a.yaw * 180 / .pi))
        }
        frame += 1
    }
    manager.stopDeviceMotionUpdates()
    print("pulled \(frames) frames")
} catch {
    FileHandle.standardError.write(Data("PullInRenderLoop: \(error)\n".utf8))
    exit(1)
}

import Foundation
import Motion
import MotionSources

// Open what `tiltkit --source` takes ("auto": a DualSense or other pad if there is one, else
// the bundled trace; "hidraw:/dev/hidraw3"; a trace path) and pull device motion.
do {
    let manager = MotionManager(source: try SourceSpec(parsing: CommandLine.arguments.dropFirst().first ?? "auto").makeSource())
    manager.startDeviceMotionUpdates()
    for _ in 0..<500 where manager.deviceMotion == nil { Thread.sleep(forTimeInterval: 0.01) }  // up to 5 s to open
    guard let motion = manager.deviceMotion else { throw MotionManagerError.sensorUnavailable("device motion within 5 s") }
    print("source", manager.source.info.name)
    print("gravity", motion.gravity, "attitude", motion.attitude.quaternion)
} catch {
    FileHandle.standardError.write(Data("downstream: \(error)\n".utf8))
    exit(1)
}

import Foundation
import Motion
import MotionSources

// Open what `tiltkit --source` takes ("auto": a DualSense or other pad if there is one, else
// the bundled trace; "hidraw:/dev/hidraw3"; a trace path) and pull device motion.
do {
    let manager = MotionManager(source: try SourceSpec(parsing: CommandLine.arguments.dropFirst().first ?? "auto").makeSource())
    manager.startDeviceMotionUpdates()
    Thread.sleep(forTimeInterval: 0.5)
    guard let motion = manager.deviceMotion else { throw MotionManagerError.sensorUnavailable("device motion within 0.5 s") }
    print("gravity", motion.gravity, "attitude", motion.attitude.quaternion)
} catch {
    FileHandle.standardError.write(Data("downstream: \(error)\n".utf8))
    exit(1)
}

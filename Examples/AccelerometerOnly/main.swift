// Accelerometer only: gravity by a low-pass (roll and pitch, no yaw), as Apple's 2010 teapot
// compared against fusion. For devices without a gyro, or to see what the gyro adds.
//   swift run AccelerometerOnly [SOURCE [SECONDS]]
import Foundation
import Motion
import MotionSources

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.dropFirst().first.flatMap { Double($0) } ?? 1
do {
    let manager = MotionManager(source: try SourceSpec(parsing: arguments.first ?? "auto").makeSource())
    manager.deviceMotionEstimation = .accelerometer
    manager.gravityFilterCutoff = 2  // Hz: lower is steadier, higher follows faster
    manager.startDeviceMotionUpdates()
    while manager.deviceMotion == nil { Thread.sleep(forTimeInterval: 0.01) }  // the source is opening
    for _ in 0..<max(1, Int(seconds * 4)) {
        Thread.sleep(forTimeInterval: 0.25)
        let m = manager.deviceMotion!
        print(String(format: "t=%6.2f s  gravity (%6.3f %6.3f %6.3f) g  roll %6.1f°  pitch %6.1f°  user accel %.3f g",
                     m.timestamp, m.gravity.x, m.gravity.y, m.gravity.z, m.attitude.roll * 180 / .pi,
                     m.attitude.pitch * 180 / .pi, m.userAcceleration.length))
    }
    manager.stopDeviceMotionUpdates()
} catch {
    FileHandle.standardError.write(Data("AccelerometerOnly: \(error)\n".utf8))
    exit(1)
}

// Reset the reference: make "now" the zero attitude (a game's recentre button).
//   swift run ResetReference [SOURCE [SECONDS]]
import Foundation
import Motion
import MotionSources

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.dropFirst().first.flatMap { Double($0) } ?? 1
func degrees(_ a: Attitude) -> String {
    String(format: "roll %6.1f°  pitch %6.1f°  yaw %6.1f°", a.roll * 180 / .pi, a.pitch * 180 / .pi, a.yaw * 180 / .pi)
}
do {
    let manager = MotionManager(source: try SourceSpec(parsing: arguments.first ?? "auto").makeSource())
    manager.startDeviceMotionUpdates()
    while manager.deviceMotion == nil { Thread.sleep(forTimeInterval: 0.01) }  // the source is opening
    Thread.sleep(forTimeInterval: seconds)
    print("before reset:", degrees(manager.deviceMotion!.attitude))
    manager.resetReferenceAttitude()
    Thread.sleep(forTimeInterval: 0.1)  // a few samples in the new reference
    print("after reset: ", degrees(manager.deviceMotion!.attitude))
    manager.clearReferenceAttitude()
    Thread.sleep(forTimeInterval: 0.1)
    print("cleared:     ", degrees(manager.deviceMotion!.attitude))
    manager.stopDeviceMotionUpdates()
} catch {
    FileHandle.standardError.write(Data("ResetReference: \(error)\n".utf8))
    exit(1)
}

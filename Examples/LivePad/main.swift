// A live pad: the gyro gamepads and IMUs this machine has, then one of them (the best, or the
// SOURCE given: hidraw:/dev/hidraw3, evdev:…, iio:…, or hid-recording:FILE to replay a capture
// through the same decoder), pulled ten times a second.
//   swift run LivePad [SOURCE [SECONDS]]
import Foundation
import Motion
import MotionDevices
import MotionSources

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.dropFirst().first.flatMap { Double($0) } ?? 3
do {
    let found = MotionDeviceDiscovery().scan()
    for device in found { print("found \(device.sourceSpec)  \(device.name)\(device.accessible ? "" : "  (no access)")") }
    let spec: SourceSpec
    if let given = arguments.first {
        spec = try SourceSpec(parsing: given)
    } else if let best = DeviceSourceSpec.auto() {
        spec = .device(best)
    } else {
        throw SourceSpecError.invalid("no gyro pad or IMU found that this user may open (`tiltkit devices` says why)")
    }
    let manager = MotionManager(source: try spec.makeSource())
    manager.startDeviceMotionUpdates()
    print("reading \(manager.source.info.name)")
    var last = -Double.infinity
    for _ in 0..<Int(seconds * 10) {
        Thread.sleep(forTimeInterval: 0.1)
        if case .failed(let reason) = manager.connectionState { throw MotionManagerError.sourceFailedToStart(reason) }
        guard let m = manager.deviceMotion, m.timestamp > last else { continue }
        last = m.timestamp
        print(String(format: "t=%7.3f s  gravity (%6.3f %6.3f %6.3f) g  rate (%6.2f %6.2f %6.2f) rad/s", m.timestamp,
                     m.gravity.x, m.gravity.y, m.gravity.z, m.rotationRate.x, m.rotationRate.y, m.rotationRate.z))
        if manager.connectionState == .ended { break }  // a capture ran out
    }
    manager.stopDeviceMotionUpdates()
} catch {
    FileHandle.standardError.write(Data("LivePad: \(error)\n".utf8))
    exit(1)
}

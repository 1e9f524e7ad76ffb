// SDL sensors: an SDL game controller's gyro and accelerometer (DualSense, DualShock 4, Switch
// Pro, Joy-Cons) as a motion source. SDL's event queue has one owner, here this loop, which
// hands controller events to the source on the thread that started it.
//   swift run SDLSensors [INDEX [SECONDS]]
import CSDL2
import Foundation
import Motion
import MotionSDL

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.dropFirst().first.flatMap { Double($0) } ?? 3
for pad in SDLControllerSource.listControllers() {
    print("sdl:\(pad.index)  \(pad.name)  gyro \(pad.hasGyro)  accel \(pad.hasAccelerometer)")
}
let pad = SDLControllerSource(index: arguments.first.flatMap { Int32($0) })
let manager = MotionManager(source: pad)
manager.startDeviceMotionUpdates()
if case .failed(let reason) = manager.connectionState {
    FileHandle.standardError.write(Data("SDLSensors: \(reason)\n".utf8))
    exit(1)
}
var event = SDL_Event()
for _ in 0..<Int(seconds * 10) {
    let tick = Date().addingTimeInterval(0.1)
    while Date() < tick {  // a tenth of a second of events, then one line
        if SDL_WaitEventTimeout(&event, 10) != 0 { _ = pad.handle(event: event) }
    }
    if let m = manager.deviceMotion {
        print(String(format: "t=%7.3f s  gravity (%6.3f %6.3f %6.3f) g", m.timestamp, m.gravity.x, m.gravity.y, m.gravity.z))
    }
}
manager.stopDeviceMotionUpdates()

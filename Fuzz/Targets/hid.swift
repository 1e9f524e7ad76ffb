// libFuzzer target: the gamepad report decoders (DualShock 4, DualSense, Switch, Steam Deck and
// Steam Controller, USB and Bluetooth, with CRC checks), feature-report calibration, the Steam
// Controller's attribute replies, and hidraw's stream framing.
// The first byte picks the pad; the rest is reports, each prefixed by a length byte.
import Foundation
@testable import MotionDevices

private let devices = GamepadDevice.hints.keys.sorted().compactMap { GamepadDevice.hints[$0] }
private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-fuzz-hid-\(getpid()).bin").path

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let device = devices[Int(first) % devices.count]
    var decoder = GamepadReportDecoder(device: device)
    var i = 1, time = 0.0
    while i < bytes.count {
        let length = Int(bytes[i])
        let report = Array(bytes[(i + 1)..<min(bytes.count, i + 1 + length)])
        i += 1 + length
        time += 0.004
        if report.first == 0x02 || report.first == 0x05 || report.first == 0x09 {
            try? decoder.applyFeatureReport(report)
        }
        _ = SteamControllerSettings.reportInterval(fromAttributes: report)
        _ = decoder.decode(report, hostTime: time)
    }
    // Framing: the same bytes as a file of reports back to back.
    if (try? Data(bytes).write(to: URL(fileURLWithPath: scratch))) != nil, let stream = try? HIDRawDevice(path: scratch) {
        while case .report(let report)? = try? stream.nextReport(timeout: 0) { _ = decoder.decode(report, hostTime: time) }
    }
    return 0
}

// libFuzzer target: the hid-recorder text reader (`R:`, `N:`, `I:`, `E:` lines).
import Foundation
@testable import MotionDevices

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? HIDRecording(text: String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
    return 0
}

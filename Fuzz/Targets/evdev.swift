// libFuzzer target: evdev motion decoding. The first byte picks the driver and whether axis
// resolutions are given; the rest is raw input_event records (24 bytes each on x86-64).
import Foundation
@testable import MotionDevices

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let drivers = EvdevMotionDecoder.Driver.allCases
    var offset = 1
    var resolution: [Int32]?
    if first & 0x80 != 0, bytes.count >= offset + 24 {
        resolution = (0..<6).map { k in
            bytes[(offset + 4 * k)..<(offset + 4 * k + 4)].reversed().reduce(Int32(0)) { $0 << 8 | Int32($1) }
        }
        offset += 24
    }
    var decoder = EvdevMotionDecoder(driver: drivers[Int(first & 0x7F) % drivers.count], resolution: resolution)
    while offset + 24 <= bytes.count {
        _ = decoder.feed(InputEvent(bytes: bytes, at: offset))
        offset += 24
    }
    return 0
}

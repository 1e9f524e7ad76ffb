// libFuzzer target: IIO scan types (`scan_elements/*_type` text), the scan layout the kernel
// computes from them, and decoding each element of a scan. Input: up to four type lines, then
// a blank line, then scan bytes.
import Foundation
@testable import MotionDevices

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.firstRange(of: [0x0A, 0x0A])
    let text = String(decoding: bytes[..<(split?.lowerBound ?? bytes.endIndex)], as: UTF8.self)
    let scan = split.map { Array(bytes[$0.upperBound...]) } ?? []
    let types = text.split(separator: "\n").prefix(4).compactMap { IIOScanType(String($0)) }
    let names = ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"]
    let layout = IIOScanLayout(channels: types.enumerated().map { (names[$0.offset], $0.offset, $0.element) })
    guard scan.count >= layout.scanBytes else { return 0 }
    for element in layout.elements { _ = element.type.value(in: scan, at: element.offset) }
    return 0
}

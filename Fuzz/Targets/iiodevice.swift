// libFuzzer target: an IIO device's description from its sysfs attributes. The input's lines are
// the values of a fake device's attributes, in the order of `attributes` below (a line left out:
// the attribute is absent); what follows a blank line is one scan. Each attribute is parsed and
// range-checked (IIODevice, IIOScanElements, IIOSamplingFrequency); a description that is
// accepted decodes the scan, and no value may trap.
import Foundation
@testable import MotionDevices

let directory = "/sys/bus/iio/devices/iio:device0"
let attributes = [
    "name", "sampling_frequency", "in_accel_scale", "in_accel_offset", "in_accel_x_raw", "in_accel_y_raw", "in_accel_z_raw",
    "in_anglvel_x_scale", "in_anglvel_x_raw", "in_accel_mount_matrix", "in_anglvel_sampling_frequency",
    "sampling_frequency_available",
    "scan_elements/in_accel_x_en", "scan_elements/in_accel_x_index", "scan_elements/in_accel_x_type",
    "scan_elements/in_accel_y_en", "scan_elements/in_accel_y_index", "scan_elements/in_accel_y_type",
    "scan_elements/in_anglvel_x_en", "scan_elements/in_anglvel_x_index", "scan_elements/in_anglvel_x_type",
    "scan_elements/in_timestamp_en", "scan_elements/in_timestamp_index", "scan_elements/in_timestamp_type",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.firstRange(of: [0x0A, 0x0A])
    let text = String(decoding: bytes[..<(split?.lowerBound ?? bytes.endIndex)], as: UTF8.self)
    let scan = split.map { Array(bytes[$0.upperBound...]) } ?? []
    var values: [String: String] = [:]
    for (file, line) in zip(attributes, text.split(separator: "\n", omittingEmptySubsequences: false)) where line != "-" {
        values[file] = line.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let top = Set(values.keys.filter { !$0.hasPrefix("scan_elements/") })
    guard let device = try? IIODevice(directory: directory, files: top, read: { values[$0] }) else { return 0 }
    if let rate = device.samplingFrequency {
        _ = IIOPollingSource.pollingRate(rate)
        _ = try? IIOSamplingFrequency.choose(requested: rate, available: values["sampling_frequency_available"])
    }
    let elements = values.keys.filter { $0.hasPrefix("scan_elements/") }.map { String($0.dropFirst("scan_elements/".count)) }
    guard let layout = try? IIOScanElements.layout(folder: directory + "/scan_elements", files: elements, read: { path in
        values[String(path.dropFirst(directory.count + 1))]
    }) else { return 0 }
    let decoder = IIOBufferDecoder(device: device, layout: layout)
    let padded = scan + [UInt8](repeating: 0, count: max(0, layout.scanBytes - scan.count))
    _ = decoder.decode(scan: padded, hostTime: 0)
    return 0
}

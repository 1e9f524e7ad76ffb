import Foundation

/// Asking an IIO device for a sample rate: `sampling_frequency` (or the per-type
/// `in_<type>_sampling_frequency` hid-sensor and others use) takes Hz. Where the driver lists
/// what it can do (`*_available`: a list, or `[min step max]`), the nearest rate at or above the
/// one asked for is chosen, so fusion never gets fewer samples than it wanted; the fastest when
/// none is fast enough. hid-sensor turns the write into the hub's report interval.
public enum IIOSamplingFrequency {
    /// Rates a device may report, Hz: 0, what a HID sensor hub at rest reports (its report
    /// interval is 0), or 1e-6 (the kernel prints rates to the micro-hertz,
    /// IIO_VAL_INT_PLUS_MICRO) to 1 MHz, beyond any motion sensor.
    static let attributeRange = IIODevice.ValueRange(expected: "a rate in Hz: 0 (at rest) or 0.000001 to 1000000") { v in
        v == 0 || (v >= 1e-6 && v <= 1e6)
    }
    /// Rates that may be asked for or listed as available, Hz.
    public static let requestRange: ClosedRange<Double> = 1e-6...1e6
    /// The rate asked of a device that reports 0 (a sensor hub at rest) when none was given, Hz.
    public static let restingDeviceRate = 100.0

    /// The rate to write for `requested` Hz given the `_available` text (nil: not listed); throws
    /// when the list holds something other than rates, naming `path`.
    public static func choose(requested: Double, available: String?, path: String = "sampling_frequency_available")
        throws(DeviceError) -> Double {
        guard let text = available?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return requested }
        if text.hasPrefix("[") {
            let items = text.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: " ").map { Double($0) }
            guard items.count == 3, let low = items[0], let step = items[1], let high = items[2],
                  requestRange.contains(low), requestRange.contains(high), low <= high,
                  step.isFinite, step >= 0 else {
                throw .badAttribute(path: path, value: text, expected: "'[low step high]' in Hz, low ≤ high")
            }
            guard requested > low else { return low }
            guard step > 0 else { return min(requested, high) }
            return min(high, low + (((requested - low) / step) - 1e-9).rounded(.up) * step)
        }
        let items = text.split(separator: " ").map { Double($0) }
        guard items.allSatisfy({ $0.map(requestRange.contains) == true }) else {
            throw .badAttribute(path: path, value: text, expected: "rates in Hz (0.000001 to 1000000) separated by spaces")
        }
        let listed = items.compactMap { $0 }.sorted()
        return listed.first { $0 >= requested - 1e-9 } ?? listed.last ?? requested
    }

    /// Writes the chosen rate into every sampling-frequency attribute of `device`; the rate now
    /// read back (nil when there is none or nothing could be written). Throws when an attribute
    /// or its `_available` list cannot be trusted (not a regular file, not rates).
    @discardableResult
    public static func request(_ requested: Double, device: IIODevice) throws(DeviceError) -> Double? {
        let names = ["sampling_frequency"] + IIODevice.ChannelType.allCases.map { "in_\($0.rawValue)_sampling_frequency" }
        var result: Double?
        for name in names {
            let path = "\(device.directory)/\(name)"
            guard try SysfsAttribute.text(at: path) != nil else { continue }
            let rate = try choose(requested: requested, available: try SysfsAttribute.text(at: path + "_available"), path: path + "_available")
            // a driver may refuse the write (read-only, busy): then the device keeps its rate
            guard (try? SysfsAttribute.write(String(format: "%g", rate), to: path)) != nil else { continue }
            let readBack = try SysfsAttribute.text(at: path)
            result = try readBack.map { text throws(DeviceError) in
                try SysfsAttribute.number(text, path: path, expected: attributeRange.expected, isValid: attributeRange.contains)
            } ?? rate
        }
        return result
    }

    /// The device at `directory`, after `requestedRate` was written to it; a device at rest (rate
    /// 0) is asked for `requestedRate` or 100 Hz, and the note says so.
    /// `beforeWriting` runs first (the buffer disabled: some drivers refuse a rate while it runs).
    static func prepare(directory: String, requestedRate: Double?, beforeWriting: () -> Void = {})
        throws(DeviceError) -> (IIODevice, note: String?) {
        let device = try IIODevice(directory: directory)
        let resting = device.samplingFrequency == 0
        guard let asked = requestedRate ?? (resting ? IIOSamplingFrequency.restingDeviceRate : nil) else { return (device, nil) }
        beforeWriting()
        let took = try request(asked, device: device)
        let note = resting
            ? "\(directory): sampling_frequency reads 0 (a sensor hub at rest); asked it for \(String(format: "%g", asked)) Hz"
                + (took.map { ", it took \(String(format: "%g", $0)) Hz" } ?? ", but it took no rate")
            : nil
        return (try IIODevice(directory: directory), note)
    }
}

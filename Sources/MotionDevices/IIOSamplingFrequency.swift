import Foundation

/// Asking an IIO device for a sample rate: `sampling_frequency` (or the per-type
/// `in_<type>_sampling_frequency` hid-sensor and others use) takes Hz. Where the driver lists
/// what it can do (`*_available`: a list, or `[min step max]`), the nearest rate at or above the
/// one asked for is chosen, so fusion never gets fewer samples than it wanted; the fastest when
/// none is fast enough. hid-sensor turns the write into the hub's report interval.
public enum IIOSamplingFrequency {
    /// The rate to write for `requested` Hz given the `_available` text (nil: not listed).
    public static func choose(requested: Double, available: String?) -> Double {
        guard let text = available?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return requested }
        if text.hasPrefix("[") {
            let range = text.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: " ").compactMap { Double($0) }
            guard range.count == 3 else { return requested }
            let (low, step, high) = (range[0], range[1], range[2])
            guard requested > low else { return low }
            guard step > 0 else { return min(requested, high) }
            return min(high, low + (((requested - low) / step) - 1e-9).rounded(.up) * step)
        }
        let listed = text.split(separator: " ").compactMap { Double($0) }.sorted()
        return listed.first { $0 >= requested - 1e-9 } ?? listed.last ?? requested
    }

    /// Writes the chosen rate into every sampling-frequency attribute of `device`; the rate now
    /// read back (nil when there is none or nothing could be written).
    @discardableResult
    public static func request(_ requested: Double, device: IIODevice) -> Double? {
        let fm = FileManager.default
        let names = ["sampling_frequency"] + IIODevice.ChannelType.allCases.map { "in_\($0.rawValue)_sampling_frequency" }
        var result: Double?
        for name in names {
            let path = "\(device.directory)/\(name)"
            guard fm.fileExists(atPath: path) else { continue }
            let available = try? String(contentsOfFile: path + "_available", encoding: .utf8)
            let rate = choose(requested: requested, available: available)
            guard (try? String(format: "%g", rate).write(toFile: path, atomically: false, encoding: .utf8)) != nil else { continue }
            result = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap {
                Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? rate
        }
        return result
    }
}

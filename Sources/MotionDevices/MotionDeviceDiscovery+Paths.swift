/// The other ways to read the same device, for `bench … --compare-paths`: a pad's hidraw node and
/// its kernel "Motion Sensors" evdev node (and SDL, which the caller adds: SDL names no node), an
/// IIO device by sysfs polling and by its buffer.
extension MotionDeviceDiscovery {
    /// Source specs for `spec`'s device by every path found in `devices`, `spec` first; just
    /// `[spec]` when it is not among them.
    public static func paths(sameDeviceAs spec: String, in devices: [DiscoveredMotionDevice]) -> [String] {
        guard let given = devices.first(where: { $0.sourceSpec == spec }) else { return [spec] }
        let others: [DiscoveredMotionDevice]
        switch given.kind {
        case "hidraw", "evdev":
            let base = padName(given)
            others = devices.filter { ($0.kind == "hidraw" || $0.kind == "evdev") && padName($0) == base }
        case "iio", "iio-buffer":
            others = devices.filter { ($0.kind == "iio" || $0.kind == "iio-buffer") && $0.path == given.path }
        default:
            others = []
        }
        return [spec] + others.map(\.sourceSpec).filter { $0 != spec }
    }

    /// hid-playstation and hid-nintendo name the evdev node "<pad name> Motion Sensors"; the hidraw
    /// entry is "<pad name> [model]".
    static func padName(_ device: DiscoveredMotionDevice) -> String {
        if device.kind == "evdev", device.name.hasSuffix(" Motion Sensors") { return String(device.name.dropLast(" Motion Sensors".count)) }
        if device.kind == "hidraw", let bracket = device.name.range(of: " [", options: .backwards) { return String(device.name[..<bracket.lowerBound]) }
        return device.name
    }
}

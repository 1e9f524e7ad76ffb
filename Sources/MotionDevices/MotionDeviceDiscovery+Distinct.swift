/// One entry per physical device, for commands that open every device at once (`serve dsu`):
/// `scan()` lists a pad as hidraw and as its evdev "Motion Sensors" node, an IIO device as sysfs
/// and buffer, and a sensor hub both whole and per member. Opening two of them would serve one
/// device in two slots.
extension MotionDeviceDiscovery {
    /// The accessible devices with an accelerometer, one per physical device: hidraw before its
    /// evdev node, a hub whole before its members, the IIO buffer before sysfs polling.
    public static func distinct(_ devices: [DiscoveredMotionDevice]) -> [DiscoveredMotionDevice] {
        let usable = devices.filter { $0.isUsable && $0.sensors.contains(.accelerometer) }
        // A Joy-Con pair is one device: its halves' hidraw and "… Joy-Con IMU" nodes take no slot of their own.
        let pairs = usable.filter { $0.kind == "joycon-pair" }
        let paired = Set(pairs.flatMap { $0.path.split(separator: "+").map(String.init) })
        let pads = pairs + usable.filter { $0.kind == "hidraw" && !paired.contains($0.path) }
        // hid-playstation / hid-nintendo name the node "<pad name> Motion Sensors"; the hidraw
        // entry is "<pad name> [model]".
        let evdev = usable.filter { node in
            guard node.kind == "evdev" else { return false }
            if !pairs.isEmpty, JoyConSide(evdevNodeName: node.name) != nil { return false }
            let base = node.name.replacingSuffix(" Motion Sensors")
            return !pads.contains { $0.name.hasPrefix(base + " [") || $0.name == base }
        }
        var chosen: [DiscoveredMotionDevice] = []
        var claimed: Set<String> = []
        let iio = usable.filter { $0.kind == "iio" || $0.kind == "iio-buffer" }
        // Hubs (paths joined by '+') first, then single devices; buffer before sysfs for each.
        let ordered = iio.sorted { a, b in
            let (ha, hb) = (a.path.contains("+"), b.path.contains("+"))
            if ha != hb { return ha }
            return (a.kind == "iio-buffer" ? 0 : 1) < (b.kind == "iio-buffer" ? 0 : 1)
        }
        for device in ordered {
            let members = device.path.split(separator: "+").map(String.init)
            guard members.allSatisfy({ !claimed.contains($0) }) else { continue }
            claimed.formUnion(members)
            chosen.append(device)
        }
        return pads + evdev + chosen
    }
}

extension String {
    fileprivate func replacingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}

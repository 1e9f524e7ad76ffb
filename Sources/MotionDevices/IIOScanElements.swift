/// The enabled elements of an IIO buffer's scan, read from `scan_elements/` (or `buffer0/`):
/// each `<name>_en`, `<name>_index` and `<name>_type` once. The kernel lays every enabled element
/// out in index order (`IIOScanLayout`), so one left out, or two at one index, would have the rest
/// of every scan read from its neighbours' bytes: such a buffer is refused, naming the attribute
/// and its value.
///
///     let layout = try IIOScanElements.layout(folder: dir + "/scan_elements", files: names) { try SysfsAttribute.text(at: $0) }
enum IIOScanElements {
    /// The layout of the enabled elements among `files` (names in `folder`); `read` gives an
    /// attribute's text from its path (nil: absent).
    static func layout(folder: String, files: [String], read: (String) throws(DeviceError) -> String?)
        throws(DeviceError) -> IIOScanLayout {
        var channels: [(name: String, index: Int, type: IIOScanType)] = []
        var owners: [Int: String] = [:]
        for file in files.sorted() where file.hasSuffix("_en") {
            let name = String(file.dropLast(3))
            let path = { (suffix: String) in "\(folder)/\(name)\(suffix)" }
            let enabled = try read(path("_en"))
            guard enabled == "1" || enabled == "0" || enabled == nil else {
                throw .badAttribute(path: path("_en"), value: enabled ?? "", expected: "0 or 1")
            }
            guard enabled == "1" else { continue }
            guard let indexText = try read(path("_index")) else {
                throw .unsupported(path: path("_index"), reason: "missing: the enabled element \(name) needs its place in the scan")
            }
            guard let index = Int(indexText), (0...Int(Int32.max)).contains(index) else {
                throw .badAttribute(path: path("_index"), value: indexText, expected: "a scan index: a whole number from 0")
            }
            if let other = owners[index] {
                throw .badAttribute(path: path("_index"), value: indexText,
                                    expected: "an index of its own (\(other) is at \(index) too, so their bytes would overlap)")
            }
            guard let typeText = try read(path("_type")) else {
                throw .unsupported(path: path("_type"), reason: "missing: the enabled element \(name) needs its storage format")
            }
            guard let type = IIOScanType(typeText) else {
                throw .badAttribute(path: path("_type"), value: typeText,
                                    expected: "a scan type [be|le]:[s|u]BITS/STORAGEBITS[XREPEAT][>>SHIFT], e.g. le:s16/16>>0")
            }
            owners[index] = name
            channels.append((name, index, type))
        }
        return IIOScanLayout(channels: channels)
    }
}

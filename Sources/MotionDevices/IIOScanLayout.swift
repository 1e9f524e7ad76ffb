/// Where each enabled channel sits in one buffered scan, as the kernel lays it out
/// (drivers/iio/industrialio-buffer.c `iio_compute_scan_bytes`): channels in ascending
/// `_index`, each at an offset aligned to its own storage size, the total rounded up to the
/// largest element. E.g. accel x,y,z s16 + s64 timestamp → offsets 0, 2, 4, 8; 16 bytes.
public struct IIOScanLayout: Hashable, Sendable {
    public struct Element: Hashable, Sendable {
        /// Channel name as in scan_elements, e.g. "in_accel_x", "in_timestamp".
        public var name: String
        public var index: Int
        public var type: IIOScanType
        public var offset: Int
    }

    public let elements: [Element]
    public let scanBytes: Int

    public init(channels: [(name: String, index: Int, type: IIOScanType)]) {
        var offset = 0
        var largest = 1
        var elements: [Element] = []
        for channel in channels.sorted(by: { $0.index < $1.index }) {
            let length = channel.type.storageBytes
            offset = (offset + length - 1) / length * length
            elements.append(Element(name: channel.name, index: channel.index, type: channel.type, offset: offset))
            offset += length
            largest = max(largest, length)
        }
        self.elements = elements
        scanBytes = (offset + largest - 1) / largest * largest
    }

    public func element(_ name: String) -> Element? { elements.first { $0.name == name } }
}

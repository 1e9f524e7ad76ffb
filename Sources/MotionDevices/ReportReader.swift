import Motion

/// What a hidraw-like byte source provides. `HIDRawDevice` reads the kernel; tests and replays
/// feed recorded reports.
public protocol ReportReader: AnyObject {
    /// Bus, ids, name and uniq from HIDIOCGRAWINFO/NAME/UNIQ; nil when the node has no hidraw
    /// ioctls (ENOTTY: a FIFO or a file of captured reports).
    func identity() -> HIDRawIdentity?
    /// A feature report (HIDIOCGFEATURE; byte 0 = report ID); nil when unsupported.
    func featureReport(id: UInt8, length: Int) throws(DeviceError) -> [UInt8]?
    /// Sends an output report; false when the node cannot take one.
    func writeReport(_ report: [UInt8]) -> Bool
    /// Sends a feature report (HIDIOCSFEATURE; byte 0 = report ID, 0 when the device has none);
    /// false when the node cannot take one.
    func sendFeatureReport(_ report: [UInt8]) -> Bool
    /// Waits up to `timeout` seconds for the next input report.
    func nextReport(timeout: Double) throws(DeviceError) -> ReportReadResult
    func close()
}

public enum ReportReadResult: Hashable, Sendable {
    case report([UInt8])
    case timeout
    /// A finite capture (regular file) has no more reports.
    case endOfStream
}

/// Who the device behind a hidraw node says it is.
public struct HIDRawIdentity: Hashable, Sendable {
    public var bus: HIDBus?
    public var vendorID: UInt16
    public var productID: UInt16
    public var name: String
    public var uniq: String

    public init(bus: HIDBus?, vendorID: UInt16, productID: UInt16, name: String, uniq: String) {
        self.bus = bus
        self.vendorID = vendorID
        self.productID = productID
        self.name = name
        self.uniq = uniq
    }

    public var device: GamepadDevice? {
        guard let model = GamepadModel(vendorID: vendorID, productID: productID) else { return nil }
        return GamepadDevice(model: model, bus: bus ?? .usb)
    }
}

/// What `ReportReader.firstReport(within:where:)` found.
enum ReportSearch: Equatable {
    case found([UInt8])
    case timedOut
    /// A capture ended, or the node failed.
    case ended
}

extension ReportReader {
    /// Readers of captures take no feature reports.
    public func sendFeatureReport(_ report: [UInt8]) -> Bool { false }

    /// Reads reports until one matches, the time is up, or the stream ends; the others are
    /// dropped (a pad's streaming input around the reply to a request).
    func firstReport(within seconds: Double, where matches: ([UInt8]) -> Bool) -> ReportSearch {
        let clock = MonotonicClock()
        let deadline = clock.now() + seconds
        while true {
            let left = deadline - clock.now()
            guard left > 0 else { return .timedOut }
            switch try? nextReport(timeout: left) {
            case .report(let report)?: if matches(report) { return .found(report) }
            case .endOfStream?, nil: return .ended
            case .timeout?: return .timedOut
            }
        }
    }
}

/// DualSense input reports (hid-playstation `struct dualsense_input_report`; INPUT_FACTS §3).
///
/// USB report 0x01 (64 bytes) carries the common block from byte 1; Bluetooth report 0x31
/// (78 bytes) from byte 2, with a CRC-32 (seed 0xA1) in its last 4 bytes.
public enum DualSenseReport {
    public static let usbReportID: UInt8 = 0x01
    public static let bluetoothReportID: UInt8 = 0x31
    public static let usbLength = 64
    public static let bluetoothLength = 78

    static let usbGyroOffset = 16
    static let usbAccelOffset = 22
    static let usbTimestampOffset = 28

    static let framing = PlayStationReportFraming(usbReportID: usbReportID, usbLength: usbLength,
                                                  bluetoothReportID: bluetoothReportID,
                                                  bluetoothLength: bluetoothLength, bluetoothShift: 1)

    public static func parse(_ report: [UInt8], bus: HIDBus) -> Result<RawIMUReading, ReportRejection> {
        framing.shift(of: report, bus: bus).map { shift in
            RawIMUReading(
                gyro: report.int16Triple(at: usbGyroOffset + shift),
                accel: report.int16Triple(at: usbAccelOffset + shift),
                deviceTicks: report.uint32LE(at: usbTimestampOffset + shift))
        }
    }
}

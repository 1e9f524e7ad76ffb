/// DualShock 4 input reports (hid-playstation `dualshock4_input_report_*`; INPUT_FACTS §2).
///
/// USB report 0x01 is 64 bytes; Bluetooth report 0x11 is 78 bytes with the same common block
/// shifted by 2 and a CRC-32 (seed 0xA1) in its last 4 bytes. Offsets include the report ID.
public enum DualShock4Report {
    public static let usbReportID: UInt8 = 0x01
    public static let bluetoothReportID: UInt8 = 0x11
    public static let usbLength = 64
    public static let bluetoothLength = 78
    /// The 10-byte report a Bluetooth pad sends before a feature read switches it to 0x11.
    public static let bluetoothSimpleLength = 10

    static let usbTimestampOffset = 10
    static let usbGyroOffset = 13
    static let usbAccelOffset = 19
    /// status[1]; bit 2 set = the USB adapter has no pad (hid-playstation DS4_STATUS1_DONGLE_STATE).
    static let usbStatus1Offset = 31
    static let bluetoothShift = 2

    static let framing = PlayStationReportFraming(usbReportID: usbReportID, usbLength: usbLength,
                                                  bluetoothReportID: bluetoothReportID,
                                                  bluetoothLength: bluetoothLength, bluetoothShift: bluetoothShift)

    /// The IMU reading in one report, or why there is none.
    public static func parse(_ report: [UInt8], bus: HIDBus, isAdapter: Bool = false)
        -> Result<RawIMUReading, ReportRejection> {
        framing.shift(of: report, bus: bus).flatMap { shift in
            if isAdapter && (report[usbStatus1Offset + shift] & 0x04) != 0 {
                return .failure(.noControllerOnAdapter)
            }
            return .success(RawIMUReading(
                gyro: report.int16Triple(at: usbGyroOffset + shift),
                accel: report.int16Triple(at: usbAccelOffset + shift),
                deviceTicks: UInt32(report.uint16LE(at: usbTimestampOffset + shift))))
        }
    }
}

import Motion

/// What DualShock 4 and DualSense input reports share (hid-playstation; INPUT_FACTS §2–3): a USB
/// report and a longer Bluetooth report that carries the same block shifted by a few bytes and ends
/// in a CRC-32 (seed 0xA1). A Bluetooth pad in simple mode sends the USB report ID with no motion data.
struct PlayStationReportFraming {
    let usbReportID: UInt8
    let usbLength: Int
    let bluetoothReportID: UInt8
    let bluetoothLength: Int
    /// Bytes the common block moves right in the Bluetooth report.
    let bluetoothShift: Int

    /// How far this report's fields lie from their USB offsets, or why it has no motion data.
    func shift(of report: [UInt8], bus: HIDBus) -> Result<Int, ReportRejection> {
        guard let id = report.first else { return .failure(.empty) }
        switch (bus, id) {
        case (.usb, usbReportID):
            guard report.count >= usbLength else {
                return .failure(.truncated(reportID: id, length: report.count, expected: usbLength))
            }
            return .success(0)
        case (.bluetooth, bluetoothReportID):
            guard report.count >= bluetoothLength else {
                return .failure(.truncated(reportID: id, length: report.count, expected: bluetoothLength))
            }
            guard CRC32.isValidTrailer(report, length: bluetoothLength, seed: CRC32.inputSeed) else {
                return .failure(.badChecksum(reportID: id))
            }
            return .success(bluetoothShift)
        case (.bluetooth, usbReportID):
            return .failure(.noMotionData(reportID: id))
        default:
            return .failure(.unknownReportID(id))
        }
    }
}

/// Nintendo standard full input reports 0x30 (also 0x31–0x33): three IMU samples per report
/// (deku imu_sensor_notes, hid-nintendo `struct joycon_input_report`; INPUT_FACTS §4).
///
/// Each 12-byte sample is accel X,Y,Z then gyro X,Y,Z (s16 LE) at 13, 25 and 37. The report has
/// no sensor clock.
public enum SwitchReport {
    public static let fullReportIDs: ClosedRange<UInt8> = 0x30...0x33
    /// Bytes up to the end of the third IMU sample (Bluetooth reports are 49 bytes, USB reads 64).
    public static let minimumLength = 49
    static let firstSampleOffset = 13
    static let sampleStride = 12

    /// Which of the three samples is the oldest. hid-nintendo and the deku notes say sample 0;
    /// SDL (since a186a503e7) emits sample 2 first. Disputed (INPUT_FACTS §15.1), so switchable.
    public enum SampleOrder: String, Sendable {
        case firstIsOldest, lastIsOldest
    }

    /// The three readings, oldest first under `order`.
    public static func parse(_ report: [UInt8], order: SampleOrder = .firstIsOldest)
        -> Result<[RawIMUReading], ReportRejection> {
        guard let id = report.first else { return .failure(.empty) }
        guard fullReportIDs.contains(id) else {
            return .failure(id == 0x3F || id == 0x21 ? .noMotionData(reportID: id) : .unknownReportID(id))
        }
        guard report.count >= minimumLength else {
            return .failure(.truncated(reportID: id, length: report.count, expected: minimumLength))
        }
        var readings = (0..<3).map { i -> RawIMUReading in
            let base = firstSampleOffset + i * sampleStride
            return RawIMUReading(gyro: report.int16Triple(at: base + 6), accel: report.int16Triple(at: base))
        }
        if order == .lastIsOldest { readings.reverse() }
        return .success(readings)
    }
}

/// Valve's controller input reports: the Steam Deck's controls (28DE:1205) and the Steam Controller
/// (wired 28DE:1102, wireless adapter 28DE:1142). Every report is 64 bytes with no report ID: a
/// header of version (u16 LE, 1), message type and payload length, then the payload (SDL
/// src/joystick/hidapi/steam/controller_structs.h `ValveInReport_t`; the kernel's
/// drivers/hid/hid-steam.c `steam_raw_event`).
///
/// - Steam Controller state (type 1, `ValveControllerStatePacket_t`): packet number at 4,
///   accelerometer x, y, z at 28, gyro x, y, z at 34 (s16 LE). The controller sends them only after
///   its IMU mode setting asks for raw accelerometer and gyro (`SteamControllerSettings`).
/// - Steam Deck state (type 9, `SteamDeckStatePacket_t`): packet number at 4, accelerometer at 24,
///   gyro at 30. The Deck sends them by default; Steam switches them off while a controller layout's
///   gyro behaviour is "None" (the fields then read zero).
/// - Other types (wireless connect/disconnect 3, status 4, …) carry no motion.
///
/// Scale (SDL's HIDAPI Steam and Steam Deck drivers; hid-steam's Deck IMU node): accelerometer ±2 g
/// and gyro ±2000 °/s over the s16 range, so 16384 counts per g and 16.384 counts per °/s. The
/// reports carry no sensor clock and no factory calibration.
public enum SteamReport {
    public static let length = 64
    static let headerVersion: UInt16 = 0x0001
    static let controllerStateType: UInt8 = 0x01
    static let deckStateType: UInt8 = 0x09
    static let packetNumberOffset = 4
    static let controllerAccelOffset = 28
    static let controllerGyroOffset = 34
    static let deckAccelOffset = 24
    static let deckGyroOffset = 30

    /// Accelerometer counts per g: ±2 g full scale.
    public static let accelCountsPerG = 16384.0
    /// Gyro counts per °/s: ±2000 °/s full scale (SDL; hid-steam's integer resolution says 16).
    public static let gyroCountsPerDegreePerSecond = 32768.0 / 2000.0

    /// Which state message the pad sends.
    public enum Layout: Sendable {
        case controller, deck

        /// The layout of a Valve pad's state reports; nil for other pads.
        public init?(model: GamepadModel) {
            switch model {
            case .steamDeck: self = .deck
            case .steamController, .steamControllerDongle: self = .controller
            default: return nil
            }
        }

        /// The message type of its state reports (byte 2).
        public var stateType: UInt8 { self == .deck ? SteamReport.deckStateType : SteamReport.controllerStateType }
        var accelOffset: Int { self == .deck ? SteamReport.deckAccelOffset : SteamReport.controllerAccelOffset }
        var gyroOffset: Int { self == .deck ? SteamReport.deckGyroOffset : SteamReport.controllerGyroOffset }
    }

    /// The IMU reading in one report, or why there is none. A state report whose six IMU fields are
    /// all zero is refused as `.motionSensorsOff`: an IMU that is on reads gravity.
    public static func parse(_ report: [UInt8], layout: Layout) -> Result<RawIMUReading, ReportRejection> {
        guard let first = report.first else { return .failure(.empty) }
        guard report.count >= 4 else { return .failure(.truncated(reportID: first, length: report.count, expected: length)) }
        guard report.uint16LE(at: 0) == headerVersion else { return .failure(.unknownReportID(first)) }
        let type = report[2]
        guard type == layout.stateType else { return .failure(.noMotionData(reportID: type)) }
        let end = layout.gyroOffset + 6
        guard report.count >= end else { return .failure(.truncated(reportID: type, length: report.count, expected: length)) }
        let accel = report.int16Triple(at: layout.accelOffset)
        let gyro = report.int16Triple(at: layout.gyroOffset)
        if accel == .zero && gyro == .zero { return .failure(.motionSensorsOff) }
        return .success(RawIMUReading(gyro: gyro, accel: accel))
    }
}

/// The Steam Controller's feature-report commands that turn its motion reports on, as SDL's HIDAPI
/// Steam driver sends them (src/joystick/hidapi/SDL_hidapi_steam.c `ResetSteamController`,
/// `HIDAPI_DriverSteam_SetSensorsEnabled`; message ids and settings in steam/controller_constants.h;
/// the kernel's hid-steam.c calls the setting STEAM_REG_GYRO_MODE).
///
/// Every command is a 64-byte feature report with no report ID (so 65 bytes with the leading 0):
/// message id, payload length, payload. The controller answers a request by its next feature report.
///
///     let interval = SteamControllerSettings.reportInterval(reader)     // µs, from its attributes
///     SteamControllerSettings.enableMotion(reader)                      // raw accelerometer + gyro
enum SteamControllerSettings {
    static let getAttributesValues: UInt8 = 0x83
    static let setSettingsValues: UInt8 = 0x87
    /// SETTING_IMU_MODE.
    static let imuModeSetting: UInt8 = 0x30
    /// SETTING_GYRO_MODE_SEND_RAW_ACCEL | SETTING_GYRO_MODE_SEND_RAW_GYRO.
    static let rawAccelerometerAndGyro: UInt16 = 0x0008 | 0x0010
    /// ATTRIB_CONNECTION_INTERVAL_IN_US, the report interval.
    static let connectionIntervalAttribute: UInt8 = 11
    /// SDL's default report interval when the controller does not say ("Good default rate").
    static let defaultReportIntervalMicroseconds = 9000
    /// Report ID byte plus the 64-byte message.
    static let featureLength = 65

    /// The command that sets the IMU mode to raw accelerometer and gyro.
    static var enableMotionCommand: [UInt8] {
        message(setSettingsValues, [imuModeSetting, UInt8(rawAccelerometerAndGyro & 0xFF), UInt8(rawAccelerometerAndGyro >> 8)])
    }

    static var attributesRequest: [UInt8] { message(getAttributesValues, []) }

    static func message(_ id: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var bytes = [0, id, UInt8(payload.count)] + payload
        bytes += [UInt8](repeating: 0, count: featureLength - bytes.count)
        return bytes
    }

    /// The connection interval in µs from a GET_ATTRIBUTES_VALUES reply ([0, 0x83, length,
    /// (tag u8, value u32 LE)…]); nil when the reply is another message or lacks it (a wireless
    /// adapter with no controller answers no attributes).
    static func reportInterval(fromAttributes reply: [UInt8]) -> Int? {
        guard reply.count >= 3, reply[1] == getAttributesValues else { return nil }
        let end = min(reply.count, 3 + Int(reply[2]))
        var offset = 3
        while offset + 5 <= end {
            if reply[offset] == connectionIntervalAttribute {
                let value = Int(reply.uint32LE(at: offset + 1))
                return value > 0 ? value : nil
            }
            offset += 5
        }
        return nil
    }

    /// Asks the controller for its report interval, in µs; nil when it does not answer.
    static func reportInterval(_ reader: ReportReader) -> Int? {
        guard reader.sendFeatureReport(attributesRequest) else { return nil }
        // The answer is the next feature report; SDL retries a few reads for a slow radio.
        for _ in 0..<3 {
            guard let reply = try? reader.featureReport(id: 0, length: featureLength) else { return nil }
            if let interval = reportInterval(fromAttributes: reply) { return interval }
        }
        return nil
    }

    /// The wireless adapter's connection event (hid-steam.c STEAM_EV_CONNECT; SDL's
    /// controller_constants.h ID_CONTROLLER_WIRELESS, type 3: payload byte 0x02 connected, 0x01
    /// disconnected): true when a controller connected, false when it left, nil for other reports.
    /// A controller that connects to the adapter starts with its IMU off, so its motion is turned on
    /// again.
    static func controllerConnection(_ report: [UInt8]) -> Bool? {
        guard report.count > 4, report[0] == 0x01, report[1] == 0x00, report[2] == connectionEventType else { return nil }
        switch report[4] {
        case connected: return true
        case disconnected: return false
        default: return nil
        }
    }

    static let connectionEventType: UInt8 = 0x03
    static let disconnected: UInt8 = 0x01
    static let connected: UInt8 = 0x02

    /// Turns on raw accelerometer and gyro in the state reports; false when the node takes no
    /// feature reports (a capture, a FIFO).
    @discardableResult
    static func enableMotion(_ reader: ReportReader) -> Bool {
        reader.sendFeatureReport(enableMotionCommand)
    }
}

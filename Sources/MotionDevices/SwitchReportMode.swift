/// Puts a Nintendo pad into standard full reports (0x30) with its IMU on, as hid-nintendo does when
/// it binds (INPUT_FACTS §4, after the kernel's `joycon_init`), for when no driver did: a kernel
/// without hid-nintendo, or the driver unbound. A pad already streaming 0x30 reports (the driver's
/// work) is left alone, so nothing is sent behind the driver's back.
///
/// Over USB a Pro Controller first needs the 0x80 handshake: 0x80 0x02 (handshake), 0x80 0x03
/// (3 Mbit/s), 0x80 0x02 again, 0x80 0x04 (USB HID only, no timeout). Then, on either bus,
/// subcommand 0x03 with 0x30 (full report mode) and 0x40 with 0x01 (IMU on), each acknowledged by
/// an 0x21 reply.
enum SwitchReportMode {
    enum Outcome: Equatable {
        /// 0x30 reports were already arriving.
        case alreadyStreaming
        /// The handshake and subcommands were sent, and the pad streams 0x30 reports now.
        case started
        /// The node takes no output reports or the pad did not answer (a capture file, a FIFO,
        /// a pad that went away): nothing more to do.
        case noAnswer
    }

    static let fullReportID: UInt8 = 0x30
    static let usbCommandReportID: UInt8 = 0x80
    static let usbReplyReportID: UInt8 = 0x81
    static let usbHandshake: [[UInt8]] = [[0x80, 0x02], [0x80, 0x03], [0x80, 0x02], [0x80, 0x04]]
    static let setReportMode: (id: UInt8, arguments: [UInt8]) = (0x03, [0x30])
    static let enableIMU: (id: UInt8, arguments: [UInt8]) = (0x40, [0x01])

    /// - Parameter wait: how long to listen for 0x30 reports before starting the pad, and for each reply, s.
    static func ensureFullReports(_ reader: ReportReader, bus: HIDBus, wait: Double = 0.3) -> Outcome {
        switch reader.firstReport(within: wait, where: { $0.first == fullReportID }) {
        case .found: return .alreadyStreaming
        case .ended: return .noAnswer
        case .timedOut: break
        }
        if bus == .usb {
            for command in usbHandshake {
                guard reader.writeReport(command) else { return .noAnswer }
                // 0x80 0x04 is not answered; the others are, with 0x81 and the same command byte
                if command[1] != 0x04 {
                    _ = reader.firstReport(within: wait) { $0.count > 1 && $0[0] == usbReplyReportID && $0[1] == command[1] }
                }
            }
        }
        var subcommand = SwitchSubcommand()
        for (id, arguments) in [setReportMode, enableIMU] {
            guard reader.writeReport(subcommand.report(id, arguments)) else { return .noAnswer }
            guard case .found = reader.firstReport(within: wait, where: { SwitchSubcommand.isReply($0, to: id) }) else {
                return .noAnswer
            }
        }
        guard case .found = reader.firstReport(within: wait, where: { $0.first == fullReportID }) else { return .noAnswer }
        return .started
    }
}

/// Output report 0x01 of Nintendo pads: a subcommand with its arguments (deku
/// bluetooth_hid_subcommands_notes; INPUT_FACTS §4): [0x01, packet counter 0–15, 8 bytes of neutral
/// rumble, subcommand, arguments…]. The pad answers with input report 0x21, the subcommand's ID
/// echoed at byte 14.
struct SwitchSubcommand {
    static let neutralRumble: [UInt8] = [0x00, 0x01, 0x40, 0x40, 0x00, 0x01, 0x40, 0x40]
    static let replyReportID: UInt8 = 0x21
    static let replyIDOffset = 14

    private var counter: UInt8 = 0

    /// The next output report carrying `id` with `arguments`.
    mutating func report(_ id: UInt8, _ arguments: [UInt8]) -> [UInt8] {
        defer { counter = (counter + 1) & 0x0F }
        return [0x01, counter] + Self.neutralRumble + [id] + arguments
    }

    /// Whether `report` is the pad's reply to subcommand `id`.
    static func isReply(_ report: [UInt8], to id: UInt8) -> Bool {
        report.count > replyIDOffset && report[0] == replyReportID && report[replyIDOffset] == id
    }
}

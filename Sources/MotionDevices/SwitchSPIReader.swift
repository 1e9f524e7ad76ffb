/// Reads a Nintendo pad's SPI flash over hidraw with subcommand 0x10 (deku
/// bluetooth_hid_subcommands_notes; INPUT_FACTS §4): arguments address u32 LE and length; the
/// reply (input report 0x21) has the address at 15–18 and the data from byte 20.
struct SwitchSPIReader {
    static let readSubcommand: UInt8 = 0x10
    static let replyDataOffset = 20

    private var subcommand = SwitchSubcommand()

    /// The output report that asks for `length` bytes (≤ 0x1D) at `address`.
    mutating func request(address: UInt32, length: UInt8) -> [UInt8] {
        subcommand.report(Self.readSubcommand, [UInt8(address & 0xFF), UInt8(address >> 8 & 0xFF),
                                               UInt8(address >> 16 & 0xFF), UInt8(address >> 24), length])
    }

    /// The data in a reply to a read at `address`, or nil if `report` is something else.
    static func data(inReply report: [UInt8], address: UInt32, length: Int) -> [UInt8]? {
        guard report.count >= replyDataOffset + length, SwitchSubcommand.isReply(report, to: readSubcommand),
              report.uint32LE(at: 15) == address else { return nil }
        return Array(report[replyDataOffset..<replyDataOffset + length])
    }

    /// Reads the factory (0x6020) and user (0x8026) calibration; nominal when the pad does not answer.
    static func readCalibration(from reader: ReportReader, timeout: Double = 1.0) -> SwitchCalibration {
        var spi = SwitchSPIReader()
        func read(_ address: UInt32, _ length: Int) -> [UInt8]? {
            guard reader.writeReport(spi.request(address: address, length: UInt8(length))) else { return nil }
            // The pad keeps streaming 0x30 reports; the reply arrives among them.
            guard case .found(let reply) = reader.firstReport(within: timeout, where: {
                data(inReply: $0, address: address, length: length) != nil
            }) else { return nil }
            return data(inReply: reply, address: address, length: length)
        }
        let factory = read(SwitchCalibration.factoryAddress, SwitchCalibration.blockLength)
        let user = read(SwitchCalibration.userAddress, 2 + SwitchCalibration.blockLength)
        return SwitchCalibration(factory: factory, user: user)
    }
}

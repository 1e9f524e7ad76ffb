/// What is wrong with a profile, where: `FILE:LINE: what is wrong` (LINE left out when the fault
/// has no line, e.g. a file that cannot be read).
///
///     shooter.toml:12: unknown key "gyro_sense" (did you mean "gyro_sens"?)
public struct MapperProfileError: Error, CustomStringConvertible, Hashable, Sendable {
    public var file: String
    /// 1-based; nil when the fault is the whole file.
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}

/// Why an accelerometer history file could not be opened, read or written: one line with the
/// file, and the reading (oldest first, from 0) where one is at fault.
///
///     "acc.tkhist: reading 12 of 40 (byte 416): time nan is not a finite number of seconds"
public struct AccelerometerHistoryFileError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var problem: String
    /// The reading at fault, oldest first, and how many the file holds.
    public var reading: (index: Int, of: Int, byteOffset: Int)?

    public init(path: String, problem: String, reading: (index: Int, of: Int, byteOffset: Int)? = nil) {
        self.path = path
        self.problem = problem
        self.reading = reading
    }

    public var description: String {
        guard let reading else { return "\(path): \(problem)" }
        return "\(path): reading \(reading.index) of \(reading.of) (byte \(reading.byteOffset)): \(problem)"
    }

    /// A problem before the file's path is known (the pure layout's checks).
    struct Problem: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }
}

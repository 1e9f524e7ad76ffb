import Foundation

/// A CSV file split into lines and cells. Cells stay byte ranges into the file, so a large
/// trace parses without a `String` per cell; numbers are checked strictly (no NaN, no inf,
/// no stray text) and every error carries the file and line.
struct CSVDocument {
    /// One non-blank line: its 1-based number in the file and its cells.
    struct Line {
        let number: Int
        let cells: [Range<Int>]
    }

    let file: String
    let bytes: [UInt8]
    /// Non-blank lines in order, comments (`#…`) included.
    let lines: [Line]

    init(contentsOf url: URL, name: String) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw TraceError(file: name, line: nil, problem: .unreadable(reason: CSVDocument.reason(error)))
        }
        self.init(bytes: [UInt8](data), name: name)
    }

    init(bytes: [UInt8], name: String) {
        self.file = name
        self.bytes = bytes
        var lines: [Line] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            var number = 0
            var start = 0
            while start < count {
                number += 1
                // memchr: a debug build scans a 1.7 MB trace many times faster than with a Swift loop.
                let end = memchr(base + start, 0x0A, count - start).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? count
                var contentEnd = end
                if contentEnd > start && base[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                if !CSVDocument.isBlank(base, start..<contentEnd) {
                    lines.append(Line(number: number, cells: CSVDocument.cells(base, start..<contentEnd)))
                }
                start = end + 1
            }
        }
        self.lines = lines
    }

    var isEmpty: Bool { lines.isEmpty }

    func isComment(_ line: Line) -> Bool {
        guard let first = line.cells.first, !first.isEmpty else { return false }
        return bytes[first.lowerBound] == UInt8(ascii: "#")
    }

    /// The whole line as text (for headers and comments).
    func text(of line: Line) -> String {
        guard let first = line.cells.first, let last = line.cells.last else { return "" }
        return String(decoding: bytes[first.lowerBound..<last.upperBound], as: UTF8.self)
    }

    /// A cell as text, surrounding quotes and spaces removed.
    func text(_ cell: Range<Int>) -> String {
        String(decoding: bytes[trimmed(cell)], as: UTF8.self)
    }

    /// A cell as a finite number, or nil when the cell is empty.
    func number(_ cell: Range<Int>, column: String, line: Int) throws -> Double? {
        let r = trimmed(cell)
        if r.isEmpty { return nil }
        let parsed: Double? = bytes.withUnsafeBufferPointer { buffer -> Double? in
            // Only digits, sign, point and exponent: Swift's and C's parsers would also accept
            // "nan", "inf" and hex, which a trace must not contain.
            for i in r {
                switch buffer[i] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"),
                     UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E"):
                    continue
                default:
                    return nil
                }
            }
            // Up to 15 bytes a String is stored inline, so this allocates nothing for most cells.
            return Double(String(decoding: UnsafeBufferPointer(rebasing: buffer[r]), as: UTF8.self))
        }
        guard let value = parsed else {
            let text = String(decoding: bytes[r], as: UTF8.self)
            let spelled = text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "+-"))
            let nonFinite = ["nan", "inf", "infinity", "snan"].contains(spelled)
            throw TraceError(file: file, line: line,
                             problem: nonFinite ? .notFinite(column: column, text: text) : .textInNumber(column: column, text: text))
        }
        guard value.isFinite else {
            throw TraceError(file: file, line: line, problem: .notFinite(column: column, text: String(decoding: bytes[r], as: UTF8.self)))
        }
        return value
    }

    /// Throws unless `line` has exactly `expected` cells; a short last line is reported as
    /// truncated (a recording cut off mid-write).
    func checkCellCount(_ line: Line, expected: Int) throws {
        let found = line.cells.count
        guard found != expected else { return }
        let isLast = line.number == lines.last?.number
        let problem: TraceError.Problem = isLast && found < expected
            ? .truncatedLastLine(found: found, expected: expected)
            : .wrongCellCount(found: found, expected: expected)
        throw TraceError(file: file, line: line.number, problem: problem)
    }

    private func trimmed(_ cell: Range<Int>) -> Range<Int> {
        var lo = cell.lowerBound, hi = cell.upperBound
        while lo < hi && (bytes[lo] == 0x20 || bytes[lo] == 0x09) { lo += 1 }
        while hi > lo && (bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09) { hi -= 1 }
        if hi - lo >= 2 && bytes[lo] == 0x22 && bytes[hi - 1] == 0x22 { lo += 1; hi -= 1 }
        return lo..<hi
    }

    private static func isBlank(_ bytes: UnsafePointer<UInt8>, _ range: Range<Int>) -> Bool {
        for i in range where bytes[i] != 0x20 && bytes[i] != 0x09 { return false }
        return true
    }

    /// Splits on commas outside double quotes.
    private static func cells(_ bytes: UnsafePointer<UInt8>, _ range: Range<Int>) -> [Range<Int>] {
        var cells: [Range<Int>] = []
        var cellStart = range.lowerBound
        var quoted = false
        var i = range.lowerBound
        while i < range.upperBound {
            let b = bytes[i]
            if b == 0x22 { quoted.toggle() } else if b == 0x2C && !quoted {
                cells.append(cellStart..<i)
                cellStart = i + 1
            }
            i += 1
        }
        cells.append(cellStart..<range.upperBound)
        return cells
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSCocoaErrorDomain && ns.code == NSFileReadNoSuchFileError { return "no such file" }
        return ns.localizedDescription
    }
}

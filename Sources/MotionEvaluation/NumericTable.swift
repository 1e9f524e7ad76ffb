import Foundation
import Motion

/// A CSV of numbers with a one-line header, read column-wise: the shape of BROAD's trials and of
/// the evaluation outputs. Empty cells and `nan` read as NaN. Parsing is byte-level (strtod on
/// the buffer) because the ten BROAD trials are 90 MB.
public struct NumericTable: Sendable {
    public var names: [String]
    /// `columns[i][row]`.
    public var columns: [[Double]]

    public var rowCount: Int { columns.first?.count ?? 0 }

    public func column(_ name: String) -> [Double]? {
        names.firstIndex(of: name).map { columns[$0] }
    }

    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        case empty(path: String)
        case malformed(path: String, line: Int, reason: String)

        public var description: String {
            switch self {
            case .empty(let path): return "\(path): empty file, expected a header line"
            case .malformed(let path, let line, let reason): return "\(path):\(line): \(reason)"
            }
        }
    }

    public static func load(contentsOf url: URL) throws -> NumericTable {
        try parse(try Data(contentsOf: url), path: url.path)
    }

    public static func parse(_ data: Data, path: String = "<data>") throws -> NumericTable {
        var bytes = [UInt8](data)
        bytes.append(0)  // strtod stops at the terminator
        guard let headerEnd = bytes.firstIndex(of: UInt8(ascii: "\n")), headerEnd > 0 else {
            throw Error.empty(path: path)
        }
        let header = String(decoding: bytes[0..<headerEnd], as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let names = header.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        var columns = [[Double]](repeating: [], count: names.count)
        let estimate = bytes.count / max(1, names.count * 10)
        for i in columns.indices { columns[i].reserveCapacity(estimate) }
        let count = bytes.count - 1
        try bytes.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            var i = headerEnd + 1
            var line = 2
            while i < count {
                if base[i] == UInt8(ascii: "\n") || base[i] == UInt8(ascii: "\r") { i += 1; continue }  // blank line
                var column = 0
                while true {
                    let c = base[i]
                    let value: Double
                    if c == UInt8(ascii: ",") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") || c == 0 {
                        value = .nan
                    } else {
                        var end: UnsafeMutablePointer<CChar>?
                        let start = UnsafeMutableRawPointer(base + i).assumingMemoryBound(to: CChar.self)
                        value = strtod(start, &end)
                        let consumed = UnsafeMutableRawPointer(end!) - UnsafeMutableRawPointer(start)
                        if consumed == 0 {
                            throw Error.malformed(path: path, line: line, reason: "column \(column + 1) is not a number")
                        }
                        i += consumed
                    }
                    guard column < names.count else {
                        throw Error.malformed(path: path, line: line, reason: "more than \(names.count) columns")
                    }
                    columns[column].append(value)
                    column += 1
                    let d = base[i]
                    if d == UInt8(ascii: ",") { i += 1; continue }
                    if d == UInt8(ascii: "\r") { i += 1 }
                    if base[i] == UInt8(ascii: "\n") || base[i] == 0 { i += 1; break }
                    throw Error.malformed(path: path, line: line, reason: "unexpected text in column \(column)")
                }
                if column != names.count {
                    throw Error.malformed(path: path, line: line, reason: "\(column) columns, header has \(names.count)")
                }
                line += 1
            }
        }
        return NumericTable(names: names, columns: columns)
    }
}

/// An aligned plain-text table: a header row, a rule, then rows; numbers right-aligned.
///
///     var t = TextTable(["variant", "p50 ns"], alignments: [.left, .right])
///     t.append(["plain copy", "4.1"])
///     print(t.rendered)
public struct TextTable: Sendable {
    public enum Alignment: Sendable { case left, right }

    public var header: [String]
    public var alignments: [Alignment]
    public private(set) var rows: [[String]] = []
    /// Spaces between columns.
    public var gap = 2

    /// Column alignments default to left for the first column and right for the rest (figures).
    public init(_ header: [String], alignments: [Alignment]? = nil) {
        self.header = header
        self.alignments = alignments ?? header.indices.map { $0 == 0 ? .left : .right }
    }

    /// Adds a row; missing cells are blank, extra cells are an error in the caller and are dropped.
    public mutating func append(_ row: [String]) {
        rows.append(header.indices.map { $0 < row.count ? row[$0] : "" })
    }

    public var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            var out = ""
            for (column, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                let isLast = column == cells.count - 1
                switch alignments[column] {
                case .left: out += cell + (isLast ? "" : padding)
                case .right: out += padding + cell
                }
                if !isLast { out += String(repeating: " ", count: gap) }
            }
            return out
        }
        let ruleWidth = widths.reduce(0, +) + gap * Swift.max(0, widths.count - 1)
        let rule = String(repeating: "-", count: ruleWidth)
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

/// Number formatting shared by the tables: fixed decimals, no locale.
public enum Figure {
    /// `value` with `decimals` digits after the point; "—" for NaN or infinity.
    public static func fixed(_ value: Double, _ decimals: Int = 1) -> String {
        guard value.isFinite else { return "—" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (abs(value) * scale).rounded() / scale
        let sign = value < 0 && rounded != 0 ? "-" : ""
        let whole = Int(rounded)
        guard decimals > 0 else { return sign + String(whole) }
        let fraction = Int(((rounded - Double(whole)) * scale).rounded())
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    /// A ratio such as "2.3×".
    public static func ratio(_ value: Double) -> String { fixed(value, value < 10 ? 2 : 1) + "×" }

    /// A count with thin grouping: 1234567 → "1 234 567".
    public static func count<T: BinaryInteger>(_ value: T) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += " " }
            out.append(c)
        }
        return (value < 0 ? "-" : "") + out
    }
}

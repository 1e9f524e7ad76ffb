/// Where each key of a TOML document sits, by line: TOMLKit (toml++) reports a line for syntax
/// errors only, so a profile's key-level errors find theirs here. Handles what a profile uses:
/// `[table]` headers, `key = value` lines with bare or quoted keys, comments.
struct TOMLKeyLines: Sendable {
    /// "table.key" (or "key" at the top level) → 1-based line, first occurrence.
    private var lines: [String: Int] = [:]
    private var tables: [String: Int] = [:]

    init(_ text: String) {
        var table = ""
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") {
                let name = line.dropFirst().prefix { $0 != "]" }.trimmingSpaces
                table = name
                if tables[name] == nil { tables[name] = index + 1 }
                continue
            }
            guard let equals = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
            var key = line[..<equals].trimmingSpaces
            if key.count >= 2, let first = key.first, first == "\"" || first == "'", key.last == first {
                key = String(key.dropFirst().dropLast())
            }
            let path = table.isEmpty ? key : "\(table).\(key)"
            if lines[path] == nil { lines[path] = index + 1 }
        }
    }

    /// The line of `key` in `table` ("" for the top level), if it is written there.
    func line(of key: String, in table: String = "") -> Int? {
        lines[table.isEmpty ? key : "\(table).\(key)"] ?? tables[table.isEmpty ? key : "\(table).\(key)"]
    }

    /// The line of the `[table]` header.
    func line(ofTable table: String) -> Int? { tables[table] }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}

/// The closest of `candidates` to `word` by edit distance, if close enough to be a slip of the
/// fingers (at most 2 edits, and at most half the word), case-insensitive.
func nearestName(to word: String, in candidates: [String]) -> String? {
    let lower = Array(word.lowercased())
    // Ties go to the candidate nearest in length ("L4" → "L3" rather than "L").
    var best: (name: String, distance: Int, lengthDifference: Int)?
    for candidate in candidates {
        let d = editDistance(lower, Array(candidate.lowercased()))
        let lengthDifference = abs(candidate.count - lower.count)
        guard d <= 2, d * 2 <= lower.count else { continue }
        if best == nil || (d, lengthDifference) < (best!.distance, best!.lengthDifference) { best = (candidate, d, lengthDifference) }
    }
    return best?.name
}

/// Levenshtein distance.
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

extension CSVDocument {
    /// The index of each of `names` in the header `line`; throws naming every missing one. With
    /// `required: false`, returns nil when none of them is present. With `ignoringUnits`, a header
    /// cell `magnetometerX(µT)` matches the name `magnetometerX` (units vary in spelling: µ or μ).
    func columns(_ names: [String], in line: Line, required: Bool = true, ignoringUnits: Bool = false) throws -> [Int]? {
        let header = line.cells.map { cell -> String in
            let name = text(cell)
            guard ignoringUnits, let open = name.firstIndex(of: "(") else { return name }
            return String(name[..<open])
        }
        let found = names.map { header.firstIndex(of: $0) }
        let missing = zip(names, found).filter { $0.1 == nil }.map(\.0)
        if missing.count == names.count && !required { return nil }
        guard missing.isEmpty else {
            throw TraceError(file: file, line: line.number, problem: .missingColumns(missing))
        }
        return found.compactMap { $0 }
    }

    /// The three cells at `indices` on `line` as a vector: nil if all are empty, an error if some are.
    func vector(_ indices: [Int], names: [String], on line: Line) throws -> Vector3? {
        guard let v = try values(indices, names: names, on: line) else { return nil }
        return Vector3(v[0], v[1], v[2])
    }

    /// The cells at `indices` on `line` as numbers: nil if all are empty, an error if some are.
    func values(_ indices: [Int], names: [String], on line: Line) throws -> [Double]? {
        var values: [Double] = []
        values.reserveCapacity(indices.count)
        for (i, index) in indices.enumerated() {
            if let v = try number(line.cells[index], column: names[i], line: line.number) { values.append(v) }
        }
        if values.isEmpty { return nil }
        guard values.count == indices.count else {
            throw TraceError(file: file, line: line.number, problem: .incompleteVector(columns: names))
        }
        return values
    }

    /// The largest time in seconds a trace may hold (about 31,700 years): beyond it, durations and
    /// gaps lose all precision or overflow (`1e308` would make a 309-digit duration and an "inf ms" gap).
    static let maxTime = 1e12

    /// A required time cell, strictly after `previous`.
    func time(_ index: Int, name: String, on line: Line, after previous: Double?) throws -> Double {
        guard let t = try number(line.cells[index], column: name, line: line.number) else {
            throw TraceError(file: file, line: line.number, problem: .emptyCell(column: name))
        }
        guard abs(t) <= CSVDocument.maxTime else {
            throw TraceError(file: file, line: line.number, problem: .timeOutOfRange(column: name, value: t))
        }
        if let previous, t <= previous {
            throw TraceError(file: file, line: line.number, problem: .nonIncreasingTime(previous: previous, current: t))
        }
        return t
    }
}

import Foundation

/// Tiltkit's own trace format, version 1:
///
///     # tiltkit-trace v1
///     # source: xio/sensor_data.csv
///     # nominal-rate-hz: 100.0
///     t (s),ax (g),ay (g),az (g),gx (rad/s),gy (rad/s),gz (rad/s),mx (uT),my (uT),mz (uT),p (kPa)
///     0.0,-0.001015204,0.02045836,-0.9970807,0.000287040165,…
///
/// Acceleration includes gravity, in g, Core Motion's sign (face up reads (0, 0, −1)); only the
/// columns a trace fills are written, an empty cell means absent. Numbers are written in Swift's
/// shortest round-trip form, so write → read is exact.
enum TiltkitTraceFormat {
    static let magic = "# tiltkit-trace"
    private static let sourceKey = "source"
    private static let rateKey = "nominal-rate-hz"
    private static let importedKey = "imported-from"

    /// The comment lines and header row, each ending in a newline.
    static func preamble(metadata: TraceMetadata, channels: [TraceChannel]) -> String {
        var text = "\(magic) v\(TraceFormatVersion.current)\n"
        text += "# \(sourceKey): \(metadata.source.replacingOccurrences(of: "\n", with: " "))\n"
        if let rate = metadata.nominalRate { text += "# \(rateKey): \(rate)\n" }
        if let format = metadata.importedFrom { text += "# \(importedKey): \(format.rawValue)\n" }
        text += channels.flatMap { channel in channel.names.indices.map { channel.headerCell($0) } }
            .joined(separator: ",")
        return text + "\n"
    }

    /// One data row, ending in a newline.
    static func row(_ s: MotionSample, channels: [TraceChannel]) -> String {
        var cells: [String] = []
        cells.reserveCapacity(24)
        func add(_ v: Vector3?) {
            if let v { cells += [v.x.description, v.y.description, v.z.description] } else { cells += ["", "", ""] }
        }
        for channel in channels {
            switch channel {
            case .time: cells.append(s.timestamp.description)
            case .acceleration: add(s.acceleration)
            case .rotationRate: add(s.rotationRate)
            case .magneticField: add(s.magneticField)
            case .pressure: cells.append(s.pressure?.description ?? "")
            case .referenceAttitude:
                if let q = s.reference?.attitude {
                    cells += [q.w.description, q.x.description, q.y.description, q.z.description]
                } else { cells += ["", "", "", ""] }
            case .referenceEulerAngles: add(nil)
            case .referenceGravity: add(s.reference?.gravity)
            case .referenceUserAcceleration: add(s.reference?.userAcceleration)
            }
        }
        return cells.joined(separator: ",") + "\n"
    }

    /// The metadata comments and the reader for the rows under the header line.
    static func header(_ document: CSVDocument) throws -> (TraceMetadata, TraceColumnReader) {
        guard let first = document.lines.first else {
            throw TraceError(file: document.file, line: 1, problem: .emptyFile)
        }
        let version = document.text(of: first).dropFirst(magic.count).trimmingCharacters(in: .whitespaces)
        guard version == "v\(TraceFormatVersion.current)" else {
            throw TraceError(file: document.file, line: first.number, problem: .unsupportedVersion(version))
        }
        var metadata = TraceMetadata(source: document.file)
        var headerIndex = 1
        while headerIndex < document.lines.count, document.isComment(document.lines[headerIndex]) {
            let line = document.lines[headerIndex]
            try apply(comment: document.text(of: line), to: &metadata, document: document, line: line.number)
            headerIndex += 1
        }
        guard headerIndex < document.lines.count else {
            throw TraceError(file: document.file, line: (document.lines.last?.number ?? 0) + 1,
                             problem: .missingColumns(TraceChannel.time.names + TraceChannel.acceleration.names))
        }
        let header = document.lines[headerIndex]
        var names: [String] = []
        for cell in header.cells {
            let (name, unit) = splitUnit(document.text(cell))
            if let channel = TraceChannel.allCases.first(where: { $0.names.contains(name) }), channel.unit != unit {
                throw TraceError(file: document.file, line: header.number,
                                 problem: .wrongUnit(column: name, found: unit, expected: channel.unit))
            }
            names.append(name)
        }
        return (metadata, try TraceColumnReader(file: document.file, header: header, names: names))
    }

    private static func apply(comment: String, to metadata: inout TraceMetadata, document: CSVDocument, line: Int) throws {
        let body = comment.dropFirst().trimmingCharacters(in: .whitespaces)
        guard let colon = body.firstIndex(of: ":") else { return }
        let key = body[..<colon].trimmingCharacters(in: .whitespaces)
        let value = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch key {
        case sourceKey: metadata.source = value
        case rateKey:
            guard let rate = Double(value), rate.isFinite, rate > 0 else {
                throw TraceError(file: document.file, line: line, problem: .badMetadata("\(rateKey) '\(value)'"))
            }
            metadata.nominalRate = rate
        case importedKey:
            guard let format = TraceFormat(rawValue: value) else {
                throw TraceError(file: document.file, line: line, problem: .badMetadata("\(importedKey) '\(value)'"))
            }
            metadata.importedFrom = format
        default: break  // free-form notes
        }
    }

    /// `"gx (rad/s)"` → `("gx", "rad/s")`; `"ref_qw"` → `("ref_qw", "")`.
    private static func splitUnit(_ cell: String) -> (String, String) {
        guard cell.hasSuffix(")"), let open = cell.firstIndex(of: "(") else { return (cell, "") }
        let name = cell[..<open].trimmingCharacters(in: .whitespaces)
        let unit = cell[cell.index(after: open)..<cell.index(before: cell.endIndex)]
        return (name, String(unit))
    }
}

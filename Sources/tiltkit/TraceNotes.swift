import Foundation

/// The `# key: value` lines at the top of a trace file (a Tiltkit trace's free-form notes, such as
/// `# steps_truth: 326`), which `TraceMetadata` does not keep. Empty for a folder or a file without them.
struct TraceNotes {
    static func read(contentsOf url: URL) throws -> [String: String] {
        // A folder has none; a FIFO or device is left to the trace reader, which says what it is
        // (opening one here would wait for a writer forever).
        guard (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType == .typeRegular else {
            return [:]
        }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let head = String(decoding: try handle.read(upToCount: 4096) ?? Data(), as: UTF8.self)
        var notes: [String: String] = [:]
        for line in head.split(whereSeparator: \.isNewline) {
            guard line.hasPrefix("#") else { break }
            let body = line.dropFirst()
            guard let colon = body.firstIndex(of: ":") else { continue }
            notes[body[..<colon].trimmingCharacters(in: .whitespaces)] =
                body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return notes
    }
}

import Foundation

/// The `# key: value` lines at the top of a trace file (a Tiltkit trace's free-form notes, such as
/// `# steps_truth: 326`), which `TraceMetadata` does not keep. Empty for a folder or a file without them.
struct TraceNotes {
    static func read(contentsOf url: URL) throws -> [String: String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
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

import Foundation
import Motion
import MotionEvaluation

/// Where the benches find real recordings: `--data DIR`, else `$TILTKIT_SHARED_DATA`, else
/// `../shared/data` beside the repository, else the repository's bundled `Assets/traces`.
public struct BenchData: Sendable {
    /// The folder searched.
    public var root: URL

    public init(root: URL) { self.root = root }

    /// The default folder as described above, looked up from the working directory and from the
    /// executable's location (`.build*/release/tiltkit` sits three levels below the repository).
    public static func locateDefault() throws(BenchError) -> BenchData {
        let fm = FileManager.default
        let cwd = URL(fileURLWithPath: fm.currentDirectoryPath)
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let repositories = [cwd, executable.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()]
        var candidates: [URL] = []
        if let env = ProcessInfo.processInfo.environment["TILTKIT_SHARED_DATA"] { candidates.append(URL(fileURLWithPath: env)) }
        candidates += repositories.map { $0.deletingLastPathComponent().appendingPathComponent("shared/data") }
        candidates += repositories.map { $0.appendingPathComponent("Assets/traces") }
        for candidate in candidates where fm.fileExists(atPath: candidate.path) {
            return BenchData(root: candidate.standardizedFileURL)
        }
        throw .missingData("no recordings found: looked in \(candidates.map(\.path).joined(separator: ", ")); pass --data DIR")
    }

    /// Every CSV below `root` (sorted by path, so runs are repeatable), split into BROAD trials and
    /// Core Motion-layout traces by their header.
    public func recordings() throws(BenchError) -> (broad: [URL], traces: [URL]) {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw .missingData("cannot read \(root.path)")
        }
        var broad: [URL] = [], traces: [URL] = []
        for case let url as URL in walker where url.pathExtension.lowercased() == "csv" {
            if url.lastPathComponent.hasSuffix("_original.csv") { continue }   // raw copies of converted files
            guard let header = BenchData.firstLine(of: url) else { continue }
            if BenchData.isBroadHeader(header) { broad.append(url) } else { traces.append(url) }
        }
        return (broad.sorted { $0.path < $1.path }, traces.sorted { $0.path < $1.path })
    }

    /// The file's path relative to `root`, without extension, for tables ("mpower/walk_data").
    public func shortName(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let base = root.standardizedFileURL.path + "/"
        let relative = path.hasPrefix(base) ? String(path.dropFirst(base.count)) : url.lastPathComponent
        return relative.hasSuffix(".csv") ? String(relative.dropLast(4)) : relative
    }

    /// BROAD trials converted to CSV start with `t_s,gx,gy,gz` (see the BROAD README).
    static func isBroadHeader(_ header: String) -> Bool { header.hasPrefix("t_s,gx,gy,gz") }

    static func firstLine(of url: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 4096), let text = String(data: data, encoding: .utf8) else { return nil }
        return text.split(separator: "\n", maxSplits: 1).first.map { String($0).trimmingCharacters(in: .whitespaces) }
    }
}

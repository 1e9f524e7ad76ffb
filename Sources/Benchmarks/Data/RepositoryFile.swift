import Foundation

/// Files the benches take from the repository they run in (peer scripts and programs), found from
/// the working directory or from the executable's folder upwards, as `tiltkit` runs from either.
enum RepositoryFile {
    /// `relativePath` under the working directory or a folder above the executable, where `accept`
    /// holds for it; nil when there is none.
    static func locate(_ relativePath: String, where accept: (URL) -> Bool) -> URL? {
        let fm = FileManager.default
        var folders = [URL(fileURLWithPath: fm.currentDirectoryPath)]
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while dir.path != "/" && !dir.path.isEmpty {
            folders.append(dir)
            dir = dir.deletingLastPathComponent()
        }
        return folders.map { $0.appendingPathComponent(relativePath) }.first(where: accept)
    }
}

import Foundation
import Motion
import Testing
import TestSupport

/// Every README picture is listed in `Assets/screenshots/manifest.tsv` with the command that makes
/// it, and is what that command made when `scripts/screenshots.sh` last ran: the recorded CRC-32 of
/// the command must match the command (edit a command without rerunning: stale) and the recorded
/// size the file (replace an image by hand: stale). Benchmark plots (`Assets/bench/`) are listed too,
/// with the bench command that draws them.
@Suite struct ScreenshotManifestTests {
    struct Entry {
        var image: String, bytes: Int, checksum: String, command: String
    }

    static func entries(_ manifest: String) -> [Entry] {
        manifest.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Entry(image: f[0], bytes: Int(f.count > 1 ? f[1] : "") ?? -1, checksum: f.count > 2 ? f[2] : "",
                         command: f.count > 3 ? f[3] : "")
        }
    }

    /// What is wrong, one line each; `size` gives a file's bytes (nil: missing).
    static func problems(readme: String, manifest: String, size: (String) -> Int?) -> [String] {
        let listed = entries(manifest)
        var problems: [String] = []
        let pattern = try! NSRegularExpression(pattern: #"\]\((Assets/[^)]+\.png)\)"#)
        let range = NSRange(readme.startIndex..., in: readme)
        let pictures = Set(pattern.matches(in: readme, range: range).map { String(readme[Range($0.range(at: 1), in: readme)!]) })
        for picture in pictures.sorted() {
            if !listed.contains(where: { $0.image == picture }) { problems.append("\(picture): in the README, not in the manifest") }
        }
        for entry in listed {
            guard let bytes = size(entry.image) else { problems.append("\(entry.image): missing"); continue }
            let crc = String(format: "%08x", CRC32.checksum(Array(entry.command.utf8)))
            if entry.checksum != crc { problems.append("\(entry.image): its command changed since it was made (run scripts/screenshots.sh)") }
            if entry.bytes != bytes { problems.append("\(entry.image): not the file its command made (run scripts/screenshots.sh)") }
            let target = entry.command.contains("--screenshot") ? entry.image : (entry.image as NSString).deletingLastPathComponent
            if !entry.command.contains(target) { problems.append("\(entry.image): its command does not write it") }
        }
        return problems
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: TestData.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    static func size(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: TestData.repositoryRoot.appendingPathComponent(path).path))?[.size] as? Int
    }

    @Test func everyREADMEPictureIsListedPresentAndWhatItsCommandMade() throws {
        let problems = Self.problems(readme: try Self.read("README.md"), manifest: try Self.read("Assets/screenshots/manifest.tsv"),
                                     size: Self.size)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theCheckCatchesAnEditedCommandAReplacedImageAndAnUnlistedPicture() throws {
        let manifest = try Self.read("Assets/screenshots/manifest.tsv")
        let readme = try Self.read("README.md")
        let edited = manifest.replacingOccurrences(of: "--at 28 --screenshot", with: "--at 29 --screenshot")
        #expect(Self.problems(readme: readme, manifest: edited, size: Self.size).contains { $0.contains("command changed") })
        #expect(Self.problems(readme: readme, manifest: manifest, size: { Self.size($0).map { $0 + 1 } })
            .contains { $0.contains("not the file") })
        #expect(Self.problems(readme: readme + "\n![new](Assets/screenshots/new.png)\n", manifest: manifest, size: Self.size)
            .contains { $0.hasPrefix("Assets/screenshots/new.png") })
        #expect(Self.problems(readme: readme, manifest: manifest, size: { _ in nil }).contains { $0.hasSuffix("missing") })
    }
}

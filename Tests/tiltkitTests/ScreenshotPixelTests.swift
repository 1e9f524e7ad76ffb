import Dispatch
import Engine
import Foundation
import Synchronization
import Testing
import TestSupport

/// Every picture in `Assets/screenshots/` is drawn again by the command its manifest line gives
/// (the built `tiltkit`, SDL's offscreen driver, the frames stepped) and compared with the committed
/// PNG pixel by pixel: a picture that no longer shows what the code draws (a yaw the README quotes
/// that has moved, say) fails here, where comparing the command's checksum would pass it. The
/// renders run two at a time, the longest first.
@Suite struct ScreenshotPixelTests {
    /// A pixel differs when one of its channels moved by more than this many counts (of 255). Two
    /// renders of one command differ on 0.01–0.05% of the pixels, all beyond any threshold (the
    /// HUD's measured frame time); the compare view's fusion yaw drawn at −41.1° instead of −42.9°
    /// moves 6.3% of them by more than 16, and the teapot half a second later in the recording 4.2%.
    static let channelTolerance: UInt8 = 16
    /// A picture passes while at most this share of its pixels differ.
    static let differingShareTolerance = 0.0025

    static var executable: URL? { PedometerCommandTests.executable }

    struct Render: Sendable {
        var image: String
        var arguments: [String]
    }

    /// The manifest's screenshots (not the bench and compare plots, which are measurements and SVG
    /// conversions), each command with its `--screenshot` path replaced by one in `folder`.
    static func renders(manifest: String, into folder: URL) -> [Render] {
        ScreenshotManifestTests.entries(manifest).filter { $0.image.hasPrefix("Assets/screenshots/") }.map { entry in
            var arguments = entry.command.split(separator: " ").map(String.init).dropFirst().map { $0 }
            if let at = arguments.firstIndex(of: "--screenshot"), at + 1 < arguments.count {
                arguments[at + 1] = folder.appendingPathComponent((entry.image as NSString).lastPathComponent).path
            }
            return Render(image: entry.image, arguments: arguments)
        }
    }

    /// Frames a command steps: the renders' cost, to start the longest first.
    static func frames(_ render: Render) -> Int {
        guard let at = render.arguments.firstIndex(of: "--frames"), at + 1 < render.arguments.count else { return 0 }
        return Int(render.arguments[at + 1]) ?? 0
    }

    /// Runs the command; returns what went wrong, or nil.
    static func draw(_ render: Render, executable: URL) -> String? {
        var environment = ProcessInfo.processInfo.environment
        environment["SDL_VIDEODRIVER"] = "offscreen"
        do {
            let result = try ChildProcess.run(executable, render.arguments, environment: environment,
                                              directory: TestData.repositoryRoot)
            return result.status == 0 ? nil : "\(render.image): its command exited \(result.status): \(result.err)"
        } catch {
            return "\(render.image): its command did not run: \(error)"
        }
    }

    /// What is wrong with `rendered` as a new drawing of `committed` (both paths), or nil.
    static func compare(committed: String, rendered: String) -> String? {
        do {
            let old = try Image(contentsOfPNG: TestData.repositoryRoot.appendingPathComponent(committed).path)
            let new = try Image(contentsOfPNG: rendered)
            guard let difference = new.difference(from: old, beyond: channelTolerance) else {
                return "\(committed): drawn \(new.width)x\(new.height) now, committed \(old.width)x\(old.height)"
            }
            guard difference.share <= differingShareTolerance else {
                let percent = String(format: "%.2f%%", difference.share * 100)
                return "\(committed): \(percent) of its pixels differ from what its command draws now "
                    + "(run scripts/screenshots.sh \((committed as NSString).lastPathComponent))"
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-screenshots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("every screenshot is, within llvmpipe's noise, what its listed command draws now",
          .enabled(if: executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func everyScreenshotMatchesItsCommand() throws {
        let executable = try #require(Self.executable, "tiltkit is not built beside the tests")
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try ScreenshotManifestTests.read("Assets/screenshots/manifest.tsv")
        let renders = Self.renders(manifest: manifest, into: folder).sorted { Self.frames($0) > Self.frames($1) }
        #expect(renders.count >= 10)
        let next = Atomic<Int>(0)
        let problems = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < renders.count else { return }
                let render = renders[i]
                let output = render.arguments[render.arguments.firstIndex(of: "--screenshot")! + 1]
                if let problem = Self.draw(render, executable: executable) ?? Self.compare(committed: render.image, rendered: output) {
                    problems.withLock { $0.append(problem) }
                }
            }
        }
        let found = problems.withLock { $0.sorted() }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("a picture drawn by a changed command (half a second later in the recording) fails the comparison",
          .enabled(if: executable != nil || TestData.isCI, "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func aDriftedPictureFails() throws {
        let executable = try #require(Self.executable, "tiltkit is not built beside the tests")
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try ScreenshotManifestTests.read("Assets/screenshots/manifest.tsv")
        var render = try #require(Self.renders(manifest: manifest, into: folder).first { $0.image.hasSuffix("teapot-object-fusion.png") })
        let at = try #require(render.arguments.firstIndex(of: "--at"))
        render.arguments[at + 1] = String(Double(render.arguments[at + 1])! + 0.5)
        #expect(Self.draw(render, executable: executable) == nil)
        let output = render.arguments[render.arguments.firstIndex(of: "--screenshot")! + 1]
        let problem = Self.compare(committed: render.image, rendered: output)
        #expect(problem?.contains("of its pixels differ") == true, "\(problem ?? "no difference found")")
    }
}

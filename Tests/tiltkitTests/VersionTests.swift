import Foundation
import Motion
import Testing
import TestSupport

/// The version is written once (`TiltkitVersion`); everything that names it must agree with it.
@Suite("The version: TiltkitVersion, scripts/version.sh, CHANGELOG.md, tiltkit --version")
struct VersionTests {
    static let changelog = TestData.repositoryRoot.appendingPathComponent("CHANGELOG.md")

    @Test("TiltkitVersion is semantic: three numbers")
    func semantic() {
        let parts = TiltkitVersion.string.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(TiltkitVersion.string)")
    }

    @Test("scripts/version.sh reads the same version (the SONAME, tiltkit.pc and the .deb take it from there)")
    func script() throws {
        let script = TestData.repositoryRoot.appendingPathComponent("scripts/version.sh")
        let full = try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [script.path])
        #expect(full.status == 0, "\(full.err)")
        #expect(String(decoding: full.out, as: UTF8.self) == TiltkitVersion.string + "\n")
        let major = try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [script.path, "--major"])
        #expect(String(decoding: major.out, as: UTF8.self) == TiltkitVersion.string.prefix { $0 != "." } + "\n")
    }

    @Test("CHANGELOG.md's newest release is TiltkitVersion",
          .enabled(if: FileManager.default.fileExists(atPath: changelog.path), "CHANGELOG.md is absent from this checkout"))
    func changelogTopEntry() throws {
        let text = try String(contentsOf: Self.changelog, encoding: .utf8)
        // Keep a Changelog's "## [0.1.0] - 2026-11-27"; an "## [Unreleased]" section above it names no version.
        let top = text.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.lowercased().hasPrefix("## [unreleased]") }
        let entry = try #require(top, "CHANGELOG.md has no '## [X.Y.Z] - DATE' entry")
        #expect(entry.hasPrefix("## [\(TiltkitVersion.string)] - "), "CHANGELOG.md's top entry is '\(entry)'")
    }

    @Test("tiltkit --version prints TiltkitVersion",
          .enabled(if: PedometerCommandTests.executable != nil || TestData.isCI,
                   "tiltkit is not built beside the tests; under CI=true this fails instead"))
    func command() throws {
        let result = try PedometerCommandTests.run(["--version"])
        #expect(result.status == 0, "\(result.err)")
        #expect(String(decoding: result.out, as: UTF8.self) == TiltkitVersion.string + "\n")
    }
}

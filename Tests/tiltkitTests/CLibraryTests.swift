import Foundation
import Testing
import TestSupport

/// The C API as a C programmer meets it: `scripts/install-c-library.sh` into a temporary prefix,
/// the examples in `Examples/C` built with `pkg-config --cflags --libs tiltkit` and run on the
/// bundled trace. Not under a sanitizer: an instrumented libtiltkit.so cannot load into a plain C program.
@Suite("C API: libtiltkit.so, tiltkit.h, tiltkit.pc", .serialized,
       .disabled(if: ProcessInfo.processInfo.environment["TILTKIT_SANITIZER"] != nil,
                 "the sanitized libTiltkitC.so needs the sanitizer's runtime loaded first, which a C program has not"))
struct CLibraryTests {
    /// The folder holding libTiltkitC.so: the test bundle's (`swift build --build-tests` builds it there).
    static let binPath: URL? = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("libTiltkitC.so").path) { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()

    static let trace = TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv").path

    /// Installs once per test into its own prefix; returns it.
    static func install() throws -> URL {
        let bin = try #require(binPath, "libTiltkitC.so is not built beside the tests")
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-c-\(UUID().uuidString)")
        let script = TestData.repositoryRoot.appendingPathComponent("scripts/install-c-library.sh").path
        let result = try shell("bash '\(script)' --prefix '\(prefix.path)' --from '\(bin.path)'")
        #expect(result.status == 0, "\(result.err)")
        for file in ["lib/libtiltkit.so", "include/tiltkit.h", "lib/pkgconfig/tiltkit.pc"] {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file) not installed")
        }
        return prefix
    }

    /// Builds `Examples/C/<example>` with the README's pkg-config line into the prefix.
    static func build(_ example: String, compiler: String, packages: String = "tiltkit", in prefix: URL) throws -> String {
        let source = TestData.repositoryRoot.appendingPathComponent("Examples/C/\(example)").path
        let output = prefix.appendingPathComponent((example as NSString).deletingPathExtension).path
        let result = try shell("\(compiler) -Wall -Wextra -Werror '\(source)' -o '\(output)' $(pkg-config --cflags --libs \(packages))",
                               prefix: prefix)
        #expect(result.status == 0, "\(result.err)")
        return output
    }

    static func shell(_ command: String, prefix: URL? = nil, environment extra: [String: String] = [:])
        throws -> (status: Int32, out: String, err: String) {
        var environment = ProcessInfo.processInfo.environment
        if let prefix { environment["PKG_CONFIG_PATH"] = prefix.appendingPathComponent("lib/pkgconfig").path }
        // A C program sees none of the test process's interposers.
        environment["LD_PRELOAD"] = nil
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command],
                                          environment: environment.merging(extra) { $1 })
        return (result.status, String(decoding: result.out, as: UTF8.self), result.err)
    }

    /// The numbers after `label=(` in `line`.
    static func vector(_ label: String, in line: Substring) -> [Double] {
        guard let start = line.range(of: "\(label)=(") else { return [] }
        let rest = line[start.upperBound...].prefix { $0 != ")" }
        return rest.split(separator: " ").compactMap { Double($0) }
    }

    @Test("pull.c, built with pkg-config, pulls device motion from the bundled trace: unit quaternions, 1 g of gravity")
    func pullFromTrace() throws {
        let prefix = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let pull = try Self.build("pull.c", compiler: "cc -std=c99", in: prefix)
        let result = try Self.shell("'\(pull)' '\(Self.trace)' 1.5")
        #expect(result.status == 0, "\(result.err)")
        let samples = result.out.split(separator: "\n").filter { $0.hasPrefix("t=") }
        #expect(samples.count == 15, "\(result.out)")
        for line in samples {
            let q = Self.vector("q", in: line), g = Self.vector("gravity", in: line)
            #expect(q.count == 4 && abs(q.map { $0 * $0 }.reduce(0, +) - 1) < 0.01, "\(line)")
            // The x-io recording starts lying still, face up: gravity along -z.
            #expect(g.count == 3 && abs(g[2] + 1) < 0.05, "\(line)")
        }
    }

    @Test("auto from anywhere: without a device, the installed library replays the trace installed beside it")
    func autoFindsTheInstalledTrace() throws {
        let prefix = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/tiltkit/Assets/traces/xio/LICENSE").path))
        let pull = try Self.build("pull.c", compiler: "cc -std=c99", in: prefix)
        // From / with no TILTKIT_ASSETS: neither ./Assets nor the checkout is in reach, only the prefix.
        let result = try Self.shell("cd / && '\(pull)' auto 0.5", environment: ["TILTKIT_ASSETS": ""])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.split(separator: "\n").filter { $0.hasPrefix("t=") }.count == 5, "\(result.out)")
    }

    @Test("Errors come back as text, never printed by the library or thrown: bad source, bad frame, frame the source cannot give")
    func errorsAreReturned() throws {
        let prefix = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let pull = try Self.build("pull.c", compiler: "cc -std=c99", in: prefix)
        let unknown = try Self.shell("'\(pull)' nosuch:thing 0.1")
        #expect(unknown.status == 1)
        #expect(unknown.err.contains("unknown source kind 'nosuch'"), "\(unknown.err)")
        let missing = try Self.shell("'\(pull)' /nonexistent/trace.csv 0.1")
        #expect(missing.status == 1 && missing.err.contains("/nonexistent/trace.csv"), "\(missing.err)")
        let frame = try Self.shell("'\(pull)' '\(Self.trace)' 0.1 Sideways")
        #expect(frame.status == 1 && frame.err.contains("unknown reference frame 'Sideways'"), "\(frame.err)")
        // True north needs a location, which pull.c never sets.
        let north = try Self.shell("'\(pull)' '\(Self.trace)' 0.1 CMAttitudeReferenceFrameXTrueNorthZVertical")
        #expect(north.status == 1 && north.err.contains("x-true-north-z-vertical is unavailable"), "\(north.err)")
        let magnetic = try Self.shell("'\(pull)' '\(Self.trace)' 1.5 XMagneticNorthZVertical")
        #expect(magnetic.status == 0, "\(magnetic.err)")
        let headings = magnetic.out.split(separator: "\n").compactMap { line -> Double? in
            guard let value = line.range(of: "heading=") else { return nil }
            return Double(line[value.upperBound...])
        }
        #expect(!headings.isEmpty && headings.allSatisfy { (0..<360).contains($0) }, "\(magnetic.out)")
    }

    @Test("sdl_window.c: an SDL2 window pulling once per frame runs headless; push.cpp compiles as C++ and gets every sample")
    func sdlWindowAndCpp() throws {
        let prefix = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let window = try Self.build("sdl_window.c", compiler: "cc -std=c99", packages: "tiltkit sdl2", in: prefix)
        let run = try Self.shell("'\(window)' '\(Self.trace)' 60", environment: ["SDL_VIDEODRIVER": "offscreen"])
        #expect(run.status == 0, "\(run.err)")
        let pulled = run.out.split(separator: " ").dropFirst(2).first.flatMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
        #expect(pulled == 60, "\(run.out)")

        let push = try Self.build("push.cpp", compiler: "c++ -std=c++17", in: prefix)
        let pushed = try Self.shell("'\(push)' '\(Self.trace)' 1")
        #expect(pushed.status == 0, "\(pushed.err)")
        // The recording has 100 samples a second; a loaded machine may deliver them late, never drop them.
        let count = pushed.out.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        #expect((count ?? 0) > 50, "\(pushed.out)")
    }
}

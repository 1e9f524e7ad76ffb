import Foundation
import Testing
import TestSupport

/// What every command shares: `-` for standard output, the nearest command for a typo, `--json`,
/// one spelling per option, and a progress line on long headless renders.
@Suite("tiltkit's command-line conventions")
struct CLIConventionsTests {
    static let built = PedometerCommandTests.executable != nil || TestData.isCI
    static let reason: Comment = "tiltkit is not built beside the tests; under CI=true this fails instead"
    static let trace = TestData.assets.appendingPathComponent("traces/broad/01_undisturbed_slow_rotation_A_26-61s.csv").path
    static let shortTrace = TestData.assets.appendingPathComponent("traces/motionsense/ups_12_sub_1.csv").path

    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let r = try PedometerCommandTests.run(arguments)
        return (r.status, String(decoding: r.out, as: UTF8.self), r.err)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not one JSON object: \(text)")
    }

    @Test("a mistyped command names the nearest one, at the top and in a group; a word near none lists them", .enabled(if: built, reason))
    func nearestCommand() throws {
        var r = try Self.run(["repaly", Self.trace])
        #expect(r.status == 64 && r.out.isEmpty)
        #expect(r.err == "tiltkit: no command 'repaly'; did you mean 'replay'?\n")
        r = try Self.run(["docter"])
        #expect(r.err == "tiltkit: no command 'docter'; did you mean 'doctor'?\n")
        r = try Self.run(["bench", "fusoin"])
        #expect(r.err == "tiltkit: no command 'bench fusoin'; did you mean 'bench fusion'?\n")
        r = try Self.run(["xyzzy"])
        #expect(r.status == 64 && r.err.hasPrefix("tiltkit: no command 'xyzzy'; commands: teapot, cart, aim, replay"))
        // A command's own arguments are not judged: a trace path after `replay` is its input.
        r = try Self.run(["replay", Self.shortTrace])
        #expect(r.status == 0, "\(r.err)")
    }

    @Test("'-' writes fuse's CSV and convert's trace to standard output, their summaries to stderr", .enabled(if: built, reason))
    func standardOutput() throws {
        let fused = try Self.run(["fuse", Self.shortTrace, "--out", "-"])
        #expect(fused.status == 0, "\(fused.err)")
        let rows = fused.out.split(separator: "\n")
        #expect(rows.first == "t,qw,qx,qy,qz,roll,pitch,yaw,gravx,gravy,gravz,uax,uay,uaz,rrx,rry,rrz,heading")
        #expect(rows.count > 1_000 && rows.dropFirst().allSatisfy { $0.split(separator: ",").count == 18 || !$0.contains(",") })
        #expect(fused.err.contains("→ standard output"), "\(fused.err)")

        let converted = try Self.run(["convert", Self.shortTrace, "-", "--start", "1", "--end", "2"])
        #expect(converted.status == 0, "\(converted.err)")
        #expect(converted.out.hasPrefix("# tiltkit-trace v1"), "\(converted.out.prefix(80))")
        #expect(converted.err.hasPrefix("wrote ") && converted.err.contains("to standard output"), "\(converted.err)")
        // What went to stdout is a trace replay reads back from standard input, and names so.
        let piped = try ChildProcess.run(try #require(PedometerCommandTests.executable), ["replay", "-", "--json"],
                                         input: Data(converted.out.utf8))
        #expect(piped.status == 0, "\(piped.err)")
        let fromStdin = try Self.json(String(decoding: piped.out, as: UTF8.self))
        #expect((fromStdin["duration_s"] as? Double).map { $0 > 0.9 && $0 <= 1 } == true, "\(fromStdin)")
        let broken = try ChildProcess.run(try #require(PedometerCommandTests.executable), ["fuse", "-", "--out", "-"],
                                          input: Data("# tiltkit-trace v1\nnot,a,trace\n".utf8))
        #expect(broken.status == 1 && broken.err.hasPrefix("tiltkit: standard input"), "\(broken.err)")
        // And from a file.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-stdout-\(getpid()).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try converted.out.write(to: file, atomically: true, encoding: .utf8)
        let summary = try Self.json(try Self.run(["replay", file.path, "--json"]).out)
        #expect((summary["duration_s"] as? Double).map { $0 > 0.9 && $0 <= 1 } == true, "\(summary)")
    }

    @Test("replay --json: the documented keys, the same figures as the text", .enabled(if: built, reason))
    func replayJSON() throws {
        let r = try Self.run(["replay", Self.shortTrace, "--json"])
        #expect(r.status == 0, "\(r.err)")
        let o = try Self.json(r.out)
        #expect(Set(o.keys) == ["trace", "imported_from", "samples", "duration_s", "mean_rate_hz", "median_period_ms", "nominal_rate_hz",
                                "sensors", "reference", "gap_factor", "gap_count", "gaps", "ranges", "replayed"])
        #expect(o["replayed"] is NSNull)
        let text = try Self.run(["replay", Self.shortTrace]).out
        let samples = try #require(o["samples"] as? Int)
        #expect(text.contains("samples    \(samples) over "))
        let ranges = try #require(o["ranges"] as? [[String: Any]])
        #expect(!ranges.isEmpty && ranges.allSatisfy { Set($0.keys) == ["column", "unit", "min", "max", "samples"] })
        #expect(o["sensors"] as? [String] == ["accelerometer", "gyroscope"])
    }

    @Test("devices --json and compare --json: documented keys", .enabled(if: built, reason))
    func devicesAndCompareJSON() throws {
        let devices = try Self.run(["devices", "--json"])
        #expect(devices.status == 0, "\(devices.err)")
        let d = try Self.json(devices.out)
        #expect(Set(d.keys) == ["devices", "step_counters", "sdl", "sdl_version", "auto"])
        #expect(d["sdl"] is NSNull && d["sdl_version"] is NSNull && d["devices"] is [Any])
        for device in d["devices"] as? [[String: Any]] ?? [] {
            #expect(Set(device.keys) == ["source", "kind", "path", "name", "sensors", "rate_hz", "calibration", "accessible", "refusal", "auto"])
        }

        let compare = try Self.run(["compare", Self.trace, "--json", "--cutoffs", "1,5"])
        #expect(compare.status == 0, "\(compare.err)")
        let c = try Self.json(compare.out)
        #expect(Set(c.keys) == ["trace", "reference", "turning_samples", "rest_samples", "rows", "plots"])
        #expect(c["reference"] as? String == "recording")
        let rows = try #require(c["rows"] as? [[String: Any]])
        #expect(rows.compactMap { $0["cutoff_hz"] as? Double } == [1, 5])
        #expect(rows.allSatisfy { Set($0.keys) == ["estimator", "cutoff_hz", "tilt_error_rms_deg", "lag_ms", "jitter_deg"] })
        // The table's first figure is the JSON's, rounded.
        let table = try Self.run(["compare", Self.trace, "--cutoffs", "1,5"]).out
        let first = try #require(rows.first?["tilt_error_rms_deg"] as? Double)
        #expect(table.contains(String(format: "%10.2f deg", first)), "\(table)")
    }

    @Test("record: --out - streams the trace, --json sums up on stderr then", .enabled(if: built, reason))
    func recordToStandardOutput() throws {
        let r = try Self.run(["record", "--source", "trace:\(Self.shortTrace)", "--out", "-", "--speed", "20", "--duration", "0.5", "--json"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("# tiltkit-trace v1"))
        let summary = try Self.json(String(try #require(r.err.split(separator: "\n").last)))
        #expect(Set(summary.keys) == ["samples", "skipped", "source", "out", "reports", "gyro_calibration"])
        #expect(summary["out"] as? String == "standard output" && summary["reports"] is NSNull)
        let rows = r.out.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("t (s),") }
        #expect(summary["samples"] as? Int == rows.count && rows.count > 100, "\(rows.count) rows")
    }

    @Test("fuse takes --location as the demos do; the hidden --declination still works; both at once is refused", .enabled(if: built, reason))
    func locationOption() throws {
        let help = try Self.run(["fuse", "--help"]).out
        #expect(help.contains("--location") && !help.contains("--declination <"))
        func yaw(_ extra: [String]) throws -> Double {
            let r = try Self.run(["fuse", Self.shortTrace, "--out", "-", "--frame", "x-true-north-z-vertical"] + extra)
            #expect(r.status == 0, "\(r.err)")
            let last = try #require(r.out.split(separator: "\n").last?.split(separator: ","))
            return try #require(Double(last[7]))
        }
        let none = try yaw([]), london = try yaw(["--location", "51.48,-0.0015"]), given = try yaw(["--declination", "10"])
        // True north turns the yaw by the declination: London's is small (about 1°), 10° is 10°.
        func turned(_ a: Double, _ b: Double) -> Double { abs(remainder(a - b, 2 * .pi)) * 180 / .pi }
        #expect(turned(given, none) > 9 && turned(given, none) < 11, "\(turned(given, none))")
        #expect(turned(london, none) > 0.1 && turned(london, none) < 3, "\(turned(london, none))")
        let both = try Self.run(["fuse", Self.shortTrace, "--out", "-", "--location", "1,2", "--declination", "3"])
        #expect(both.status != 0 && both.err.contains("--location or --declination"), "\(both.err)")
        let bad = try Self.run(["fuse", Self.shortTrace, "--out", "-", "--location", "north"])
        #expect(bad.status != 0 && bad.err.contains("--location must be LAT,LON"), "\(bad.err)")
    }

    @Test("a headless render of 100 frames or more says its progress on stderr each tenth, not with --quiet", .enabled(if: built, reason))
    func renderProgress() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SDL_VIDEODRIVER"] = "offscreen"
        let executable = try #require(PedometerCommandTests.executable)
        let loud = try ChildProcess.run(executable, ["teapot", "--headless", "--frames", "100", "--size", "64x48"], environment: environment)
        guard loud.status == 0 else {
            // No OpenGL context here (the frame bench skips the same way).
            #expect(!TestData.isCI, "teapot failed under CI: \(loud.err)")
            print("render progress not checked: \(loud.err)")
            return
        }
        let lines = loud.err.split(separator: "\n").filter { $0.hasPrefix("tiltkit teapot: frame ") }
        #expect(lines.count == 10, "\(loud.err)")
        #expect(lines.first?.hasPrefix("tiltkit teapot: frame 10 of 100 (10 %), ") == true)
        #expect(lines.last?.hasPrefix("tiltkit teapot: frame 100 of 100 (100 %), ") == true)
        let quiet = try ChildProcess.run(executable, ["teapot", "--headless", "--frames", "100", "--size", "64x48", "--quiet"],
                                         environment: environment)
        #expect(quiet.status == 0 && !quiet.err.contains("frame "), "\(quiet.err)")
        let short = try ChildProcess.run(executable, ["teapot", "--headless", "--frames", "99", "--size", "64x48"], environment: environment)
        #expect(short.status == 0 && !short.err.contains("frame "), "\(short.err)")
    }

    @Test("errors are one line naming the path, never Foundation's own text", .enabled(if: built, reason))
    func oneLineErrors() throws {
        let cases: [([String], String)] = [
            (["compare", Self.trace, "--cutoffs", "1", "--plot", "/proc/tiltkit-plots"],
             "tiltkit: --plot /proc/tiltkit-plots: expected a folder to write the plots in; /proc/tiltkit-plots: No such file or directory\n"),
            (["fuse", Self.shortTrace, "--out", "/proc/tiltkit-missing/fused.csv"], "tiltkit: /proc/tiltkit-missing/fused.csv: cannot write: "),
            (["replay", "/proc/tiltkit-missing.csv"], "tiltkit: /proc/tiltkit-missing.csv: cannot read: no such file\n"),
        ]
        for (arguments, expected) in cases {
            let r = try Self.run(arguments)
            #expect(r.status == 1, "\(arguments)")
            #expect(r.err.hasPrefix(expected) && r.err.split(separator: "\n").count == 1, "\(r.err)")
            #expect(!r.err.contains("Error Domain") && !r.err.contains("UserInfo"), "\(r.err)")
        }
    }

    @Test("--plot on a bench that draws no charts there is refused, not ignored", .enabled(if: built, reason))
    func plotWithoutCharts() throws {
        let cases: [([String], String)] = [
            (["bench", "fusion", "--quick", "--plot", "/tmp/tiltkit-no-plots"], "Error: bench fusion draws no charts"),
            (["bench", "latency", "--quick", "--plot", "/tmp/tiltkit-no-plots"], "Error: bench latency draws its charts from a live source: --plot needs --source"),
        ]
        for (arguments, expected) in cases {
            let r = try Self.run(arguments)
            #expect(r.status == 64, "\(arguments): \(r.err)")   // ArgumentParser's usage error
            #expect(r.err.hasPrefix(expected), "\(r.err)")
            #expect(!FileManager.default.fileExists(atPath: "/tmp/tiltkit-no-plots"))
        }
    }

    @Test("serve dsu --json: the closing summary's documented keys, a slot per source", .enabled(if: built, reason))
    func serveJSON() throws {
        let port = 20_000 + Int(getpid()) % 20_000
        let r = try Self.run(["serve", "dsu", "--source", Self.shortTrace, "--duration", "0.5", "--json", "--port", "\(port)",
                              "--status-interval", "0"])
        #expect(r.status == 0, "\(r.err)")
        let o = try Self.json(r.out)
        #expect(Set(o.keys) == ["served_s", "clients_seen", "requests", "replies", "dropped", "clients_evicted",
                                "pad_data_packets", "send_failures", "slots"])
        let slots = try #require(o["slots"] as? [[String: Any]])
        #expect(slots.count == 1 && slots[0]["state"] as? String == "connected")
        #expect(Set(slots[0].keys) == ["slot", "name", "state", "disconnect_reason", "samples", "packets_sent", "samples_per_s", "packets_per_s"])
        #expect((slots[0]["samples"] as? Int).map { $0 > 0 } == true, "\(slots)")
    }
}

import Foundation
import TestSupport
@testable import Motion

/// The real recordings and hand-made fixtures the trace tests read, and a scratch folder.
enum TraceTestFiles {
    static var traces: URL { TestData.assets.appendingPathComponent("traces") }
    static var xio: URL { traces.appendingPathComponent("xio/sensor_data.csv") }
    static var xioOriginal: URL { traces.appendingPathComponent("xio/sensor_data_original.csv") }
    static var mpowerBalance: URL { traces.appendingPathComponent("mpower/balance_data.csv") }
    static var motionSenseJog: URL { traces.appendingPathComponent("motionsense/jog_16_sub_1.csv") }
    static var motionSenseStairs: URL { traces.appendingPathComponent("motionsense/ups_12_sub_1.csv") }
    static var fixtures: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures") }

    /// `Trace.load(contentsOf:)`, once per file per test run: a debug build takes about a second
    /// for the x-io recording, and many tests start from the same recordings.
    static func loaded(_ url: URL) throws -> Trace {
        cacheLock.lock(); defer { cacheLock.unlock() }
        if let trace = cache[url] { return trace }
        let trace = try Trace.load(contentsOf: url)
        cache[url] = trace
        return trace
    }

    private static let cacheLock = NSLock()
    nonisolated(unsafe) private static var cache: [URL: Trace] = [:]

    /// A fresh temporary folder for files a test writes.
    static func scratchFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The first `count` lines of a real file (header included), each without its newline.
    static func lines(of url: URL, count: Int) throws -> [String] {
        let text = try String(contentsOf: url, encoding: .utf8)
        return Array(text.split(separator: "\n", omittingEmptySubsequences: false).prefix(count).map(String.init))
    }

    /// Writes `text` to `name` in `folder` and returns its URL.
    static func write(_ text: String, named name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }
}

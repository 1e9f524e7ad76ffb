import Foundation

/// A long headless render's progress on stderr: one line at each tenth of the frames,
/// "tiltkit teapot: frame 300 of 3000 (10 %), 4.2 s".
final class RenderProgress: @unchecked Sendable {
    /// Shorter renders finish before a line would help.
    static let minimumFrames = 100

    let command: String
    let total: Int
    private let started = Date()
    private var lastTenth = 0

    init(command: String, total: Int) {
        self.command = command
        self.total = total
    }

    /// The line for `drawn` frames, when it completes another tenth; nil otherwise.
    func line(drawn: Int, elapsed: Double) -> String? {
        let tenth = drawn * 10 / max(total, 1)
        guard tenth > lastTenth else { return nil }
        lastTenth = tenth
        return String(format: "%@: frame %d of %d (%d %%), %.1f s", command, drawn, total, tenth * 10, elapsed)
    }

    /// Called by the render loop, on its one thread.
    func frameDrawn(_ drawn: Int) {
        if let line = line(drawn: drawn, elapsed: Date().timeIntervalSince(started)) { printError(line) }
    }
}

import Foundation

/// Set by SIGINT (Ctrl-C) or SIGTERM, so a long-running command stops cleanly (closes its file,
/// stops its devices, prints its summary) instead of being killed mid-write.
final class InterruptFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false
    private var signalSources: [DispatchSourceSignal] = []

    init(signals: [Int32] = [SIGINT, SIGTERM]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.raise() }
            source.resume()
            signalSources.append(source)
        }
    }

    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return set }

    private func raise() { lock.lock(); set = true; lock.unlock() }
}

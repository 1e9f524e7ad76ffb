import ArgumentParser

// Placeholder until its issue lands in this session; replaced by the real command.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "(in progress)")
    func run() throws { throw ValidationError("'Replay' is not built yet") }
}

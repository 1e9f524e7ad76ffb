import ArgumentParser

// Placeholder until its issue lands in this session; replaced by the real command.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "(in progress)")
    func run() throws { throw ValidationError("'Bench' is not built yet") }
}

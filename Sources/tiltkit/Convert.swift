import ArgumentParser

// Placeholder until its issue lands in this session; replaced by the real command.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "(in progress)")
    func run() throws { throw ValidationError("'Convert' is not built yet") }
}

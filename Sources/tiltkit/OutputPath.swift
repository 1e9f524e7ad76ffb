import Foundation

/// A file a command writes, where `-` means standard output (then the command's own summary goes
/// to stderr, so the data stays alone on stdout).
///
///     let out = OutputPath("-")
///     let file = try LineFileWriter(path: out.path, name: out.name)
///     out.summary("fused 120 samples")          // stderr here, stdout for a named file
struct OutputPath {
    /// As given on the command line.
    let argument: String

    init(_ argument: String) { self.argument = argument }

    var isStandardOutput: Bool { argument == "-" }
    /// What to open: LineFileWriter writes /dev/stdout through descriptor 1 itself.
    var path: String { isStandardOutput ? "/dev/stdout" : argument }
    var url: URL { URL(fileURLWithPath: path) }
    /// For messages.
    var name: String { isStandardOutput ? "standard output" : argument }

    /// A line about the command's work: stdout, unless the data went there.
    func summary(_ line: String) {
        if isStandardOutput { printError(line) } else { print(line) }
    }
}

/// The help text's note for an output option or argument.
let standardOutputNote = "'-' for standard output."

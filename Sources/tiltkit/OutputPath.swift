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

    /// The file to write into: standard output itself, or a temporary file beside the named one,
    /// renamed over it by `commit()` (nil for standard output, which streams).
    func open(reading inputs: [String]) throws -> (path: String, file: OutputFile?) {
        guard !isStandardOutput else { return (path, nil) }
        let file = try OutputFile(argument, reading: inputs)
        return (file.temporaryPath, file)
    }

    /// Throws when `output` is one of `inputs`: the same file (device and inode), through a
    /// symbolic link, a hard link or another spelling. Writing it would destroy what is being read.
    /// Paths that do not exist (yet) and `-` match nothing.
    static func refuseOverwriting(_ output: String, inputs: [String]) throws {
        for input in inputs where input != "-" && output != "-" && isSameFile(output, input) {
            throw OutputOverInput(output: output, input: input)
        }
    }

    /// Whether two paths name one file (device and inode), links and relative spellings included.
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }
}

/// An output that is the command's own input.
struct OutputOverInput: Error, CustomStringConvertible {
    let output: String
    let input: String
    var description: String {
        output == input ? "\(output): is the input being read; give another file to write"
                        : "\(output): is the input \(input) (the same file); give another file to write"
    }
}

/// The help text's note for an output option or argument.
let standardOutputNote = "'-' for standard output."

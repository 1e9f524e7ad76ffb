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
    /// renamed over it by `commit()` (nil for standard output, which streams). A device, a pipe or a
    /// socket (`/dev/null`, a FIFO another program reads) is written as it is, as standard output
    /// is: renamed over, it would be replaced by a regular file (as root, /dev/null itself). A
    /// symbolic link is followed: the file it names is replaced, the link stays.
    func open(reading inputs: [String]) throws -> (path: String, file: OutputFile?) {
        guard !isStandardOutput else { return (path, nil) }
        var info = stat()
        guard stat(argument, &info) == 0 else {  // nothing there yet (or a dangling link): a new file
            let file = try OutputFile(argument, reading: inputs)
            return (file.temporaryPath, file)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            let file = try OutputFile(Self.resolved(argument), reading: inputs)
            return (file.temporaryPath, file)
        case S_IFDIR:
            throw OutputNotWritable(output: argument, kind: "a folder")
        default:
            try Self.refuseOverwriting(argument, inputs: inputs)
            return (argument, nil)
        }
    }

    /// Throws unless `path` is a regular file or names nothing yet: for outputs written whole under
    /// another name and renamed over it (Foundation's atomic writes), which would replace a device
    /// or a pipe with a regular file, and cannot replace a folder.
    static func requireFileOrNothing(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw OutputNotWritable(output: path, kind: "a folder")
        default: throw OutputNotWritable(output: path, kind: "a device, a pipe or a socket, not a file")
        }
    }

    /// The file a path names, through any symbolic links.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
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

/// An output path that names something no file can be written as.
struct OutputNotWritable: Error, CustomStringConvertible {
    let output: String
    let kind: String
    var description: String { "\(output): is \(kind); give a file to write" }
}

/// The help text's note for an output option or argument.
let standardOutputNote = "'-' for standard output."

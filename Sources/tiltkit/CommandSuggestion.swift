import ArgumentParser

/// "no command 'repaly'; did you mean 'replay'?": a word where a subcommand belongs that names
/// none, and the nearest name by edit distance (git's "did you mean", for a typo or two).
enum CommandSuggestion {
    /// The message for the first word of `arguments` that should name a subcommand of `root` (or
    /// of a group below it, such as `bench`) and does not; nil when every such word does, or when
    /// options come first. Groups whose default command takes positional arguments are not judged.
    static func unknownCommand(in arguments: [String], root: any ParsableCommand.Type) -> String? {
        unknownCommand(in: arguments[...], configuration: root.configuration, path: [])
    }

    private static func unknownCommand(in arguments: ArraySlice<String>, configuration: CommandConfiguration,
                                       path: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-"), word != "help", !configuration.subcommands.isEmpty else { return nil }
        let names = configuration.subcommands.map(commandNames)
        if let index = names.firstIndex(where: { $0.contains(word) }) {
            return unknownCommand(in: arguments.dropFirst(), configuration: configuration.subcommands[index].configuration,
                                  path: path + [names[index][0]])
        }
        if let fallback = configuration.defaultSubcommand, takesPositionalArguments(fallback) { return nil }
        let known = names.map { $0[0] }
        let prefix = path.isEmpty ? "" : path.joined(separator: " ") + " "
        guard let nearest = nearest(to: word, in: known) else {
            return "no command '\(prefix)\(word)'; commands: \(known.joined(separator: ", "))"
        }
        return "no command '\(prefix)\(word)'; did you mean '\(prefix)\(nearest)'?"
    }

    /// The name within a third of `word`'s length (at least 2) in edits, the closest; nil if none is.
    static func nearest(to word: String, in names: [String]) -> String? {
        let limit = max(2, word.count / 3)
        let scored = names.map { ($0, distance(word.lowercased(), $0)) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`: optimal string alignment.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// The command's name first, then its aliases.
    private static func commandNames(_ command: any ParsableCommand.Type) -> [String] {
        [command._commandName] + command.configuration.aliases
    }

    /// Whether `command` declares an `@Argument` (then a bare word may be its input, not a typo).
    private static func takesPositionalArguments(_ command: any ParsableCommand.Type) -> Bool {
        Mirror(reflecting: command.init()).children.contains { String(describing: type(of: $0.value)).hasPrefix("Argument<") }
    }
}

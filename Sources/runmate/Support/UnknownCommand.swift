import ArgumentParser
import PlanEngine
import RunningCore

/// A mistyped subcommand (`runmate planz`), named in one line with the closest command, instead of the parser's
/// "unexpected argument" and a usage dump.
enum UnknownCommand {
  /// The message for `arguments` (the command line without the program name) when its leading words name an
  /// unknown subcommand; nil when they do not (the parser's own message stands).
  ///
  /// At the root, and in a group without a default subcommand, any other word is an unknown command. In a group
  /// with a default subcommand (`runmate log 2027-01-05`), other words are that subcommand's arguments, so only a
  /// near miss of a subcommand's name (`runmate plans shwo`) is taken for one.
  static func message(for arguments: [String], root: any ParsableCommand.Type = RunMate.self) -> String? {
    var command = root
    var path: [String] = []
    for word in arguments {
      let subcommands = command.configuration.subcommands
      guard !word.hasPrefix("-"), !subcommands.isEmpty else { return nil }
      if let next = subcommands.first(where: { $0._commandName == word }) {
        command = next
        path.append(word)
        continue
      }
      if path.isEmpty && word == "help" { return nil }
      let names = subcommands.map { $0._commandName }
      let suggestion = closestName(to: word, among: names)
      if command.configuration.defaultSubcommand != nil && suggestion == nil { return nil }
      let prefix = path.map { $0 + " " }.joined()
      let help = (["runmate"] + path + ["--help"]).joined(separator: " ")
      if let suggestion {
        return "unknown command '\(prefix)\(word)'; did you mean '\(prefix)\(suggestion)'?"
      }
      return "unknown command '\(prefix)\(word)'; the commands are \(names.joined(separator: ", ")) (see '\(help)')"
    }
    return nil
  }
}

/// A negative number given to an option (`--max-hr -5`), which the parser takes for an option and reports as a
/// missing value: said as what it is, naming the option and the value.
enum NegativeValue {
  /// The message when the parser's `message` is a missing value for an option that `arguments` gives a negative
  /// number; nil otherwise.
  static func message(for message: String, arguments: [String]) -> String? {
    guard message.hasPrefix("Missing value for '--"),
      let option = message.dropFirst("Missing value for '".count).split(whereSeparator: { $0 == " " || $0 == "'" })
        .first
    else { return nil }
    for (index, word) in arguments.enumerated().dropLast() where word == option {
      let value = arguments[index + 1]
      if value.count > 1, value.hasPrefix("-"), Double(value.dropFirst()) != nil {
        return "\(option) \(value): a negative number is not allowed; give a positive one"
      }
    }
    return nil
  }
}

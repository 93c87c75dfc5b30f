import ArgumentParser
import Foundation

/// `runmate`: turn a running goal into a training plan.
@main
struct RunMate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "runmate",
    abstract: "Turn a running goal into a training plan.",
    discussion: """
      Start with `runmate plan --distance half --level beginner --weeks 12`.
      Plans follow rules in plan-templates/ (see `runmate templates list`).
      """,
    version: "0.1.0",
    subcommands: [
      PlanCommand.self, ScheduleCommand.self, ExportCommand.self, PlansCommand.self, LogCommand.self,
      ImportCommand.self,
      ProgressCommand.self, TodayCommand.self, WeekCommand.self, ReplanCommand.self, PauseCommand.self,
      MoveCommand.self, SkipCommand.self,
      ReportCommand.self, PacesCommand.self, WorkoutsCommand.self,
      ProfileCommand.self, CoachCommand.self, CoachesCommand.self, HealthCommand.self, TemplatesCommand.self,
      LintCommand.self,
      FeedCommand.self, ServeCommand.self, SyncCommand.self, DatabaseCommand.self, AccountCommand.self,
      PushCommand.self, PullCommand.self,
    ])

  /// Runs the command; domain errors print one line on stderr and exit with a sysexits code.
  static func main() {
    var command: any ParsableCommand
    do {
      command = try parseAsRoot()
    } catch {
      refuse(error, parsing: true)
    }
    do {
      try command.run()
    } catch {
      refuse(error, parsing: false)
    }
  }

  /// Ends the run for `error`: a domain error is its one line and sysexits code; a command line the parser refused
  /// is one line naming the command's help, exit 64; help and the version print and exit 0.
  static func refuse(_ error: any Error, parsing: Bool) -> Never {
    if let failure = runMateError(error) { fail(failure.message, code: failure.exitCode) }
    // What the parser throws is the library's own type: its text and its exit code both come from one rendering of
    // the command's usage (in a debug build, every option group validated again, most of a refused run's time), so
    // the text is rendered once and read, rather than asking for the code and then the message.
    let refusal: ParserRefusal? = parsing ? ParserRefusal(fullMessage(for: error)) : nil
    switch refusal {
    case .help(let text):
      print(text)
      Foundation.exit(ExitCode.success.rawValue)
    case .usage(let message):
      refuseUsage(message)
    case nil:
      let code = exitCode(for: error)
      if code == .success { exit(withError: error) }
      if code == .validationFailure { refuseUsage(self.message(for: error)) }
      fail(self.message(for: error) + seeHelp, code: code.rawValue)
    }
  }

  /// A refused command line: a mistyped command's suggestion, or the parser's message with a negative number's hint.
  static func refuseUsage(_ parserMessage: String) -> Never {
    if let unknown = UnknownCommand.message(for: Array(CommandLine.arguments.dropFirst())) {
      fail(unknown, code: ExitCodes.usage)
    }
    let message = parserMessage.split(separator: "\n").map(String.init).joined(separator: "; ")
    fail(
      (NegativeValue.message(for: message, arguments: CommandLine.arguments) ?? message) + seeHelp,
      code: ExitCodes.usage)
  }

  /// Where to read more: the subcommand's help, else the program's.
  static var seeHelp: String {
    if let sub = CommandLine.arguments.dropFirst().first, !sub.hasPrefix("-") {
      return " (see 'runmate \(sub) --help')"
    }
    return " (see 'runmate --help')"
  }

  /// Prints `runmate: MESSAGE` as one line (several lines are joined with "; ", control characters escaped, so
  /// no value inside a message can reach the terminal raw; a word over 120 characters is shortened) and exits with `code`.
  static func fail(_ message: String, code: Int32) -> Never {
    let line = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }.joined(separator: "; ")
    FileHandle.standardError.write(Data("runmate: \(terminalSafe(elidingLongWords(line)))\n".utf8))
    Foundation.exit(code)
  }
}

/// What swift-argument-parser's full text for a parse error is: its help (or version) text, or a usage error's
/// message (`Error: MESSAGE`, then `Help:  …` and `Usage: …` lines, which are left out); nil for anything else
/// (an exit code or another error thrown while validating), which the caller asks the library about.
enum ParserRefusal {
  case help(String)
  case usage(String)

  init?(_ fullText: String) {
    let prefix = "Error: "
    guard fullText.hasPrefix(prefix) else {
      guard !fullText.isEmpty else { return nil }
      self = .help(fullText)
      return
    }
    let body = fullText.dropFirst(prefix.count)
    guard let end = body.range(of: "\nHelp:  ") ?? body.range(of: "\nUsage: ") else { return nil }
    self = .usage(String(body[..<end.lowerBound]))
  }
}

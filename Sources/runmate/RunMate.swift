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
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      if let failure = runMateError(error) { fail(failure.message, code: failure.exitCode) }
      let code = exitCode(for: error)
      if code == .success { exit(withError: error) }
      if code == .validationFailure,
        let unknown = UnknownCommand.message(for: Array(CommandLine.arguments.dropFirst()))
      {
        fail(unknown, code: ExitCodes.usage)
      }
      var message = self.message(for: error).split(separator: "\n").map(String.init).joined(separator: "; ")
      message = NegativeValue.message(for: message, arguments: CommandLine.arguments) ?? message
      if let sub = CommandLine.arguments.dropFirst().first, !sub.hasPrefix("-") {
        message += " (see 'runmate \(sub) --help')"
      } else {
        message += " (see 'runmate --help')"
      }
      fail(message, code: code == .validationFailure ? ExitCodes.usage : code.rawValue)
    }
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

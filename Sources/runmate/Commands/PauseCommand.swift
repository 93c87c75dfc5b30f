import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate pause FROM..TO [--reason ill|injury|travel]`: `replan --pause FROM..TO --apply`, the pause saved with the
/// schedule so every later replan, export and feed keeps its days free.
struct PauseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pause",
    abstract: "Pause training (ill, injured, away): the days stay free, the plan brings you back, and it is saved.",
    discussion: """
      Examples:
        runmate pause 2027-02-01..2027-02-07           # ill: easier weeks
        runmate pause 2027-02-01..2027-02-04 --reason travel
        runmate export --out plan.ics                  # new calendar
      """)

  @Argument(
    help: ArgumentHelp(
      "The days with no running, e.g. 2027-02-01..2027-02-07, one day, or today..sunday.", valueName: "dates"))
  var dates: String
  @OptionGroup var options: ReplanOptions

  func run() throws {
    try ReplanCommand.replan(apply: true, options: options) { today in
      try SettingValues.dateRange(dates, option: "dates", today: today)
    }
  }
}

import ArgumentParser
import Foundation
import RunningCore
import Training
import TrainingDomain

/// `runmate skip DATE [--reason …]`: leave out the workouts of a day (or days), saved with the plan's schedule.
struct SkipCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "skip",
    abstract: "Skip a workout (or the workouts of several days) without replanning; saved with the plan.",
    discussion: """
      Examples:
        runmate skip wednesday                # this Wednesday
        runmate skip 2027-01-12 --reason busy
        runmate skip 2027-01-12 --undo        # it is back
        runmate pause 2027-01-12..2027-01-18  # ill: replans
      """)

  @Argument(
    help: ArgumentHelp("The day or days, e.g. 2027-01-12, wednesday, monday..wednesday.", valueName: "dates"))
  var dates: String
  @Option(name: .long, help: ArgumentHelp("Why, in a word or two (ill, busy, tired).", valueName: "reason"))
  var reason: String?
  @Flag(name: .long, help: "Undo the skips of these days: their workouts are back.")
  var undo = false
  @OptionGroup var options: ChangeOptions

  func run() throws {
    let why = try SettingValues.skipReason(reason ?? "")
    try options.apply { today in
      let days = try SettingValues.dateRange(dates, option: "dates", today: today)
      return undo ? .unskip(days: days) : .skip(days: days, reason: why)
    }
  }
}

import ArgumentParser
import Foundation
import RunningCore
import Training
import TrainingDomain

/// `runmate move DATE TO`: the workout on one day goes to another, saved with the plan's schedule.
struct MoveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "move",
    abstract: "Move a workout to another day (saved: every later replan, export and feed keeps it).",
    discussion: """
      Examples:
        runmate move today tomorrow           # can't run today
        runmate move 2027-01-12 2027-01-13
        runmate export --out plan.ics         # new calendar
      """)

  @Argument(help: ArgumentHelp("The day of the workout, e.g. 2027-01-12, today, tuesday.", valueName: "date"))
  var date: String
  @Argument(help: ArgumentHelp("Its new day, e.g. 2027-01-13, tomorrow.", valueName: "to"))
  var to: String
  @OptionGroup var options: ChangeOptions

  func run() throws {
    try options.apply { today in
      .move(
        from: try SettingValues.day(date, option: "date", today: today),
        to: try SettingValues.day(to, option: "to", today: today))
    }
  }
}

/// The options `move` and `skip` share, and what both do: work the change out, save it, say what it does.
struct ChangeOptions: ParsableArguments {
  @OptionGroup var plan: PlanSelection
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions

  /// Works out the change `read` makes of the runner's words on their own today (in their time zone), saves it and
  /// says what it did.
  func apply(_ read: (CivilDate) throws -> ScheduleChange) throws {
    _ = try read(try clock.today())  // words refused before the database is opened (or created)
    let runner = try RunnerPlan(database, plan: plan, clock: clock)
    let (db, saved, state) = (runner.db, runner.saved, runner.state)
    let change = try read(runner.today)
    let now = try clock.instant()
    let proposal = try state.makeChange(change, today: runner.today, db: db, now: now)
    let units = DistanceUnit.display(chosen: nil, profile: state.profileUnits, plan: state.stored?.units)
    let titles = Dictionary(
      saved.plan.workouts.map { ($0.id, $0.title(in: units)) }, uniquingKeysWith: { first, _ in first })
    var lines: [String] = []
    for workout in proposal.affected {
      let title = titles[workout.workoutID] ?? workout.kind.rawValue
      switch change {
      case .move(_, let to):
        lines.append("Moved W\(workout.week) \(title) from \(workout.date.shortLabel) to \(to.shortLabel).")
      case .skip(_, let reason):
        lines.append(
          "Skipped W\(workout.week) \(workout.date.shortLabel) \(title)" + (reason.isEmpty ? "." : " (\(reason))."))
      case .unskip:
        break
      }
    }
    if case .unskip(let days) = change {
      for workout in proposal.datedWorkouts where days.contains(workout.date) {
        lines.append(
          "Back: W\(workout.week) \(workout.date.shortLabel) \(titles[workout.workoutID] ?? workout.kind.rawValue).")
      }
    }
    lines += proposal.warnings
    if let calendar = proposal.calendarChanges {
      lines.append("calendar events against the last export: \(ExportDiff(changes: calendar).summary())")
    }
    lines.append("Saved. Update your calendar with `runmate export --out FILE` over your last export.")
    try writeText(lines.map { terminalSafe($0) }.joined(separator: "\n") + "\n")
  }
}

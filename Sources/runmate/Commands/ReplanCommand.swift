import ArgumentParser
import Foundation
import Logbook
import PlanEngine
import RunningCore
import Scheduling
import Training
import TrainingProgress

/// `runmate replan`: rebuild the remaining weeks from what was actually run.
struct ReplanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replan",
    abstract: "Rebuild the rest of the plan from what you actually ran (race day stays); --apply saves it.",
    discussion: """
      Examples:
        runmate replan                                 # the changes
        runmate replan --pause 2027-02-01..2027-02-07  # ill: easier weeks
        runmate replan --pause 2027-02-01..2027-02-04 --reason travel
        runmate replan --apply                         # save them
        runmate export --out plan.ics                  # new calendar
      """)

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Days with no running, e.g. 2027-02-01..2027-02-07, yesterday..friday.", valueName: "dates"))
  var pause: String?
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Why you paused: ill, injury or travel (illness and injury come back more gently).", valueName: "reason"),
    completion: .list(SettingValues.breakReasons))
  var reason: String?
  @Flag(name: .long, help: "Save the rebuilt plan (without it, only show the changes).")
  var apply = false
  @Option(name: .long, help: ArgumentHelp("The saved plan (default: the active plan).", valueName: "name"))
  var plan: String?
  @OptionGroup var templates: TemplateOptions
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions

  func run() throws {
    let today = try clock.today()
    let pauseRange = try pause.map { text throws in
      try SettingValues.dateRange(text, option: "--pause", today: today)
    }
    let breakReason = try reason.map { try SettingValues.breakReason($0) } ?? .illness
    let db = try database.open()
    let saved = try db.plan(named: plan)
    let state = try TrainingState.read(saved, db: db, profile: try db.profile(named: nil))
    let proposal = try state.proposeReplan(
      completions: try db.completions(), today: today,
      pause: pauseRange, reason: breakReason,
      rules: try templates.loadRules(), db: db,
      now: try clock.instant())
    var lines = ReplanReport(name: saved.name, proposal: proposal, units: state.units).lines
    let result = proposal.replan
    if apply && result.workoutChanges.isEmpty {
      lines.append("No workout changes: nothing saved, the plan and its calendar stay as they are.")
    } else if apply {
      // Saved with its dated workouts (the plan's settings kept) in one transaction.
      _ = try db.savePlan(
        result.plan, name: saved.name, activate: saved.active,
        schedule: (state.stored, proposal.datedWorkouts))
      lines.append("Saved. Update your calendar with `runmate export --out FILE` over your last export.")
    } else if !result.changes.isEmpty {
      lines.append("Nothing saved: run again with --apply to keep it.")
    }
    try writeText(lines.joined(separator: "\n") + "\n")
  }
}

/// What `replan` prints: the basis, the weeks whose volume changes, each workout that changes in the words of
/// `export --diff`, and what the next export will do to the calendar last exported.
struct ReplanReport {
  let name: String
  let proposal: ReplanProposal
  let units: DistanceUnit

  var lines: [String] {
    let result = proposal.replan
    var lines = ["Replan of '\(terminalSafe(name))' from \(result.basis)"]
    if result.changes.isEmpty { lines.append("No change.") }
    for change in result.changes where units.format(change.beforeKm) != units.format(change.afterKm) {
      lines.append(
        "W\(change.number): \(oneDecimal(change.beforeKm / units.kilometers)) → \(units.format(change.afterKm))")
    }
    let order: [WorkoutChangeKind] = [.moved, .changed, .cancelled, .added]
    for kind in order {
      for change in result.workoutChanges where change.kind == kind {
        let day = (change.newDate ?? change.oldDate)?.shortLabel ?? ""
        let what =
          kind == .changed ? change.detail ?? change.title : change.title + (change.detail.map { " (\($0))" } ?? "")
        lines.append(
          "\(kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) W\(change.week) \(day): \(what)")
      }
    }
    if !result.workoutChanges.isEmpty {
      lines.append(
        order.map { kind in "\(result.workoutChanges.filter { $0.kind == kind }.count) \(kind.rawValue)" }
          .joined(separator: ", ") + " workouts")
    }
    // The count the next `export` prints: an event changes with its workout, or with its week's note (events
    // quote it).
    if let calendar = proposal.calendarChanges, !result.workoutChanges.isEmpty {
      lines.append(
        "calendar events against the last export: \(DiffReport(changes: calendar).summary()) (an event "
          + "also changes when its week's note does)")
    }
    return lines
  }
}

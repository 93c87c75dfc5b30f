import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

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
        runmate replan --update-paces --apply          # race paces
        runmate export --out plan.ics                  # new calendar
      """)

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Days with no running, e.g. 2027-02-01..2027-02-07, yesterday..friday.", valueName: "dates"))
  var pause: String?
  @Flag(name: .long, help: "Save the rebuilt plan (without it, only show the changes).")
  var apply = false
  @Flag(
    name: .long,
    help: "Rebuild the workouts from today at the paces your logged races say (`runmate paces`).")
  var updatePaces = false
  @OptionGroup var options: ReplanOptions

  func run() throws {
    try ReplanCommand.replan(apply: apply, updatePaces: updatePaces, options: options) { today in
      try pause.map { text throws in try SettingValues.dateRange(text, option: "--pause", today: today) }
    }
  }

  /// Replans (with the pause `readPause` reads, on the runner's today in their zone, saved with the schedule when
  /// applied), prints the changes, saves them with `apply`.
  static func replan(
    apply: Bool, updatePaces: Bool = false, options: ReplanOptions,
    readPause: (CivilDate) throws -> ClosedRange<CivilDate>?
  ) throws {
    let (plan, templates, database, clock) = (options.plan, options.templates, options.database, options.clock)
    let reason = try options.reason.map { try SettingValues.breakReason($0) } ?? .illness
    _ = try readPause(try clock.today())  // words refused before the database is opened (or created)
    let runner = try RunnerPlan(database, plan: plan, clock: clock)
    let (db, saved, state, today) = (runner.db, runner.saved, runner.state, runner.today)
    let pauseRange = try readPause(today)
    let rules = try templates.loadRules()
    let now = try clock.instant()
    let proposal = try state.proposeReplan(
      completions: try db.completions(), today: today, pause: pauseRange, reason: reason, rules: rules, db: db,
      now: now, updatePaces: updatePaces)
    let units = DistanceUnit.display(chosen: nil, profile: state.profileUnits, plan: state.stored?.units)
    var lines = ReplanReport(name: saved.name, proposal: proposal, units: units).lines
    lines += ReplanReport.paceLines(proposal, asked: updatePaces, maxStep: rules.base.paceUpdates.maxStepVdot)
    if apply {
      lines.append(
        try state.applyReplan(proposal, db: db, now: now)
          ? "Saved. Update your calendar with `runmate export --out FILE` over your last export."
          : "No workout changes: nothing saved, the plan and its calendar stay as they are.")
    } else if !proposal.replan.changes.isEmpty {
      lines.append("Nothing saved: run again with --apply to keep it.")
    }
    try writeText(lines.joined(separator: "\n") + "\n")
  }
}

/// The options `replan` and `pause` share: the pause's reason, the plan, templates, database and clock.
struct ReplanOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Why you pause: ill, injury or travel (illness and injury come back more gently).", valueName: "reason"),
    completion: .list(SettingValues.breakReasons))
  var reason: String?
  @OptionGroup var plan: PlanSelection
  @OptionGroup var templates: TemplateOptions
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions
}

/// What `replan` prints: the basis, the weeks whose volume changes, each workout that changes in the words of
/// `export --diff`, and what the next export will do to the calendar last exported; every distance in `units`.
struct ReplanReport {
  let name: String
  let proposal: ReplanProposal
  let units: DistanceUnit

  var lines: [String] {
    let result = proposal.replan
    var lines = ["Replan of '\(terminalSafe(name))' from \(units.relabel(result.basis))"]
    if result.changes.isEmpty { lines.append("No change.") }
    for change in result.changes where units.format(change.plannedBefore) != units.format(change.plannedAfter) {
      lines.append(
        "W\(change.number): \(units.number(change.plannedBefore)) → \(units.format(change.plannedAfter))")
    }
    return lines + ReplanReport.changeLines(proposal.changeSet, units: units)
  }

  /// Each workout that changes in the words of `export --diff` (moved, changed, cancelled, added), their counts, and
  /// what the next export will do to the calendar last exported: what `replan` and `pull` print.
  static func changeLines(_ set: PlanChangeSet, units: DistanceUnit) -> [String] {
    var lines: [String] = []
    let groups = set.byKind
    for (kind, changes) in groups {
      for change in changes {
        let day = (change.newDate ?? change.oldDate)?.shortLabel ?? ""
        let what = units.relabel(
          kind == .changed ? change.detail ?? change.title : change.title + (change.detail.map { " (\($0))" } ?? ""))
        lines.append(
          "\(pad(kind.rawValue, 9)) W\(change.week) \(day): \(what)")
      }
    }
    if !set.workoutChanges.isEmpty {
      lines.append(groups.map { "\($0.changes.count) \($0.kind.rawValue)" }.joined(separator: ", ") + " workouts")
    }
    // The count the next `export` prints: an event changes with its workout, or with its week's note (events
    // quote it).
    if let summary = set.calendarSummary, !set.workoutChanges.isEmpty {
      lines.append(
        "calendar events against the last export: \(summary) (an event also changes when its week's note does)")
    }
    return lines
  }

  /// What the replan says of the paces: the ones it puts in the plan (`asked`), else those the races moved (with how
  /// to take them); then whether a goal time is on track.
  static func paceLines(_ proposal: ReplanProposal, asked: Bool, maxStep: Double) -> [String] {
    let paces = proposal.paces
    let tenth = { (value: Double) in String(format: "%.1f", value) }
    var lines: [String] = []
    if let update = proposal.paceUpdate, let race = paces.latestRace {
      let evidence = race.isEffort ? race.name : "\(race.name) on \(race.date.shortLabel)"
      lines.append(
        "Paces: VDOT \(tenth(paces.planVDOT)) → \(tenth(update.vdot)) from your \(evidence): every workout from "
          + "today on takes them")
    } else if let note = paces.replanNote(maxStep: maxStep) {
      lines.append(note.worded(by: Flags.name))
    } else if asked {
      lines.append(
        "Paces: no race since the paces were set moves them (VDOT \(tenth(paces.vdot))): nothing to update; log one with "
          + "`runmate log DATE --distance 10km --time 45:00 --race`")
    }
    if let check = proposal.goalCheck, check.status != .unknown { lines.append(check.text) }
    return lines
  }
}

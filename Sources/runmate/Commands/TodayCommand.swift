import ArgumentParser
import Foundation
import Logbook
import PlanEngine
import RunningCore
import Training
import TrainingProgress

/// `runmate today`: today's workout, or rest.
struct TodayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "today", abstract: "Today's workout from the active plan.")
  @Option(name: .long, help: ArgumentHelp("The saved plan (default: the active plan).", valueName: "name"))
  var plan: String?
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions
  @OptionGroup var output: OutputOptions

  func run() throws {
    // The workouts on their scheduled days (moved, dropped, blackout days kept free), as on the calendar.
    let runner = try RunnerPlan(database, plan: plan, clock: clock)
    let (db, saved, profile, state, today) = (runner.db, runner.saved, runner.profile, runner.state, runner.today)
    let units = try displayUnit(output, profile: profile, state: state)
    let book = state.status(runs: try db.completions(), crossTraining: try db.crossTraining(), today: today)
    let workout = state.plan.workouts.first { $0.date == today }
    let next = state.plan.workouts.first { $0.date > today }
    // Running energy (about 1 kcal per kg and km): none for a cross-training or strength day.
    let energy = workout.flatMap { item in item.kind.isRun ? profile?.weightKg.map { $0 * item.distanceKm } : nil }
    if output.format == .json {
      let dated = { (id: String) in state.workouts.first { $0.workoutID == id } }
      return try writeStandardOutput(
        JSONOutput.encode(
          TodayJSON(
            saved: saved, today: today,
            workout: workout.map {
              WorkoutDayJSON($0, dated: dated($0.id), status: book, energyKcal: energy.flatMap(jsonSeconds))
            },
            next: next.map { WorkoutDayJSON($0, dated: dated($0.id), status: book) })))
    }
    var lines: [String] = []
    if let workout {
      let status = book.status(of: workout)
      let doneKm = book.doneKm(of: workout)
      let mark =
        status == .done
        ? (workout.kind.isRun ? " (done, well run!)" : " (done)")
        : status == .partial
          ? " (partial: \(units.number(doneKm)) of "
            + "\(units.format(workout.distanceKm)) run)" : ""
      let kcal = energy.map { " · about \(wholeNumber($0)) kcal" } ?? ""
      let time = state.workouts.first { $0.workoutID == workout.id }?.startText.map { " at \($0)" } ?? ""
      lines.append("Today, \(today.shortLabel): \(workout.title(in: units))\(time)\(kcal)\(mark)")
      lines.append(workout.description(in: units))
    } else if today < saved.plan.goal.start {
      lines.append("The plan starts on \(saved.plan.goal.start.shortLabel).")
    } else if today > saved.plan.goal.raceDate {
      lines.append("The plan ended with the race on \(saved.plan.goal.raceDate.shortLabel).")
    } else {
      if let change = state.changeNote(on: today, units: units) {
        lines.append("Today, \(today.shortLabel): no run (\(change)).")
      } else {
        lines.append("Today, \(today.shortLabel): rest day. Recovery is training too.")
      }
    }
    if let next {
      lines.append("Next: \(next.date.shortLabel), \(next.title(in: units))")
    }
    try writeText(lines.joined(separator: "\n") + "\n")
  }
}

/// `runmate week`: this week's goal and how far along it is.
struct WeekCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "week", abstract: "This week's goal and how far along it is.")
  @Option(name: .long, help: ArgumentHelp("The saved plan (default: the active plan).", valueName: "name"))
  var plan: String?
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions
  @OptionGroup var output: OutputOptions

  func run() throws {
    let runner = try RunnerPlan(database, plan: plan, clock: clock)
    let (db, saved, profile, state, today) = (runner.db, runner.saved, runner.profile, runner.state, runner.today)
    let units = try displayUnit(output, profile: profile, state: state)
    let scheduled = state.plan
    let runs = try db.completions()
    let others = try db.crossTraining()
    let book = state.status(runs: runs, crossTraining: others, today: today)
    let week = scheduled.weeks.first { $0.start <= today && today <= $0.start.adding(days: 6) }
    let report = state.progress(runs, today: today)
    let progress = week.flatMap { week in report.weeks.first { $0.number == week.number } }
    let dated = Dictionary(state.workouts.map { ($0.workoutID, $0) }, uniquingKeysWith: { first, _ in first })
    let days = (week?.workouts ?? []).map { WorkoutDayJSON($0, dated: dated[$0.id], status: book) }
    if output.format == .json {
      return try writeStandardOutput(
        JSONOutput.encode(
          WeekJSON(saved: saved, today: today, week: week, progress: progress, workouts: days)))
    }
    guard let week else {
      try writeText(
        "No plan week contains \(today.shortLabel) (the plan runs \(saved.plan.goal.start) to "
          + "\(saved.plan.goal.raceDate)).\n")
      return
    }
    guard let progress else { return }
    let partial = days.filter { $0.status == .partial }.count
    let phase = week.phase.rawValue + (week.cutback ? ", cut-back" : "")
    var lines = [
      "Week \(week.number) of \(saved.plan.goal.weeks) (\(phase)): "
        + "\(units.number(progress.doneKm)) of \(units.format(week.plannedKm)), "
        + "\(progress.doneSessions) of \(progress.plannedSessions) sessions done"
        + (partial > 0 ? ", \(partial) partial" : "")
    ]
    if let rule = week.rules.first { lines.append("Why: \(units.relabel(rule))") }
    for day in days {
      let mark =
        switch day.status {
        case .done: "✔"
        case .partial: "◐"
        case .missed: "✘"
        case .paused: "‖"
        case .notLogged: "·"
        case .today: "→"
        case .upcoming: " "
        }
      let time = day.dated?.startText.map { "\($0)  " } ?? ""
      let ran =
        day.status == .paused
        ? " (paused)"
        : day.status == .notLogged
          ? " (optional, not logged)"
          : day.status == .partial
            ? " (partial: \(units.number(day.doneKm ?? 0)) of "
              + "\(units.format(day.workout.distanceKm)))"
            : ""
      lines.append("  \(mark) \(day.workout.date.shortLabel)  \(time)\(day.workout.title(in: units))\(ran)")
    }
    let thisWeek = others.filter { week.start <= $0.date && $0.date <= week.start.adding(days: 6) }
    if !thisWeek.isEmpty {
      lines.append("Cross-training (not counted as running):")
      for activity in thisWeek {
        lines.append(
          "  + \(activity.date.shortLabel)  \(terminalSafe(activity.sport)), "
            + "\(crossTrainingMinutes(activity.durationSeconds)) min, \(units.format(activity.distanceKm))")
      }
    }
    try writeText(lines.joined(separator: "\n") + "\n")
  }
}

/// The unit of tables and text: `--units`, else the profile's, else the plan's saved settings', else km.
func displayUnit(_ output: OutputOptions, profile: Profile?, state: TrainingState) throws -> DistanceUnit {
  try output.unit(profile: profile?.units, plan: state.stored?.units)
}

/// The zone of the runner's local day: the profile's, else the plan's saved settings'; nil (the old clock) when
/// neither names one.
func localZone(profile: Profile?, state: TrainingState) -> String? {
  profile?.timeZone ?? state.stored?.timeZone
}

import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate today`: today's workout, or rest.
struct TodayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "today", abstract: "Today's workout from the active plan.")
  @OptionGroup var plan: PlanSelection
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var zone: ZoneOptions
  @OptionGroup var output: OutputOptions

  func run() throws {
    // The workouts on their scheduled days (moved, dropped, blackout days kept free), as on the calendar.
    let runner = try RunnerPlan(database, plan: plan, zone: zone)
    let units = try displayUnit(output, profile: runner.profile, state: runner.state)
    let view = runner.state.todayView(
      runs: try runner.db.completions(), crossTraining: try runner.db.crossTraining(), today: runner.today,
      weightKg: runner.profile?.weightKg, units: units,
      comments: try runner.db.coachComments(of: runner.state.saved.plan))
    switch output.format {
    case .json: try writeStandardOutput(JSONOutput.encode(view))
    case .table: try writeText(TodayCommand.render(view, units: units))
    }
  }

  /// The day as text, distances in `units`.
  static func render(_ view: TodayView, units: DistanceUnit) -> String {
    var lines: [String] = []
    let today = view.today.shortLabel
    if let day = view.workout {
      let workout = day.workout
      let mark =
        day.status == .done
        ? (workout.kind.isRun ? " (done, well run!)" : " (done)")
        : day.status == .partial
          ? " (partial: \(units.number(day.done ?? .zero)) of \(units.format(workout.distance)) run)" : ""
      let kcal = day.energyKcal.map { " · about \($0) kcal" } ?? ""
      let time = day.dated?.startText.map { " at \($0)" } ?? ""
      lines.append("Today, \(today): \(workout.title(in: units))\(time)\(kcal)\(mark)")
      lines.append(workout.description(in: units))
      lines += day.comments.map { terminalSafe(coachLine($0)) }
    }
    switch view.noWorkout {
    case .beforeStart(let start): lines.append("The plan starts on \(start.shortLabel).")
    case .afterRace(let race): lines.append("The plan ended with the race on \(race.shortLabel).")
    case .changed(let change): lines.append("Today, \(today): no run (\(change)).")
    case .rest: lines.append("Today, \(today): rest day. Recovery is training too.")
    case nil: break
    }
    lines += view.restDayComments.map { terminalSafe(coachLine($0)) }
    if let next = view.next { lines.append("Next: \(next.workout.date.shortLabel), \(next.workout.title(in: units))") }
    return lines.joined(separator: "\n") + "\n"
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

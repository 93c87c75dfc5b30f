import ArgumentParser
import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain

/// `runmate week`: this week's goal and how far along it is.
struct WeekCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "week", abstract: "This week's goal and how far along it is.")
  @OptionGroup var plan: PlanSelection
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var zone: ZoneOptions
  @OptionGroup var output: OutputOptions

  func run() throws {
    let runner = try RunnerPlan(database, plan: plan, zone: zone)
    let units = try displayUnit(output, profile: runner.profile, state: runner.state)
    let view = runner.state.weekView(
      runs: try runner.db.completions(), crossTraining: try runner.db.crossTraining(), today: runner.today,
      comments: try runner.db.coachComments(of: runner.state.saved.plan))
    switch output.format {
    case .json: try writeStandardOutput(JSONOutput.encode(view))
    case .table: try writeText(WeekCommand.render(view, units: units))
    }
  }

  /// The week as text, distances in `units`.
  static func render(_ view: WeekView, units: DistanceUnit) -> String {
    let goal = view.saved.plan.goal
    guard let week = view.week else {
      return "No plan week contains \(view.today.shortLabel) (the plan runs \(goal.start) to \(goal.raceDate)).\n"
    }
    guard let progress = view.progress else { return "" }
    let partial = view.partialSessions
    let phase = week.phase.rawValue + (week.cutback ? ", cut-back" : "")
    // A week paused whole with nothing run says so, as `progress` does, not "0 of 0 sessions done".
    let standing =
      progress.isPaused
      ? "paused"
      : "\(units.number(progress.done)) of \(units.format(week.planned)), "
        + "\(progress.doneSessions) of \(progress.plannedSessions) sessions done"
        + (partial > 0 ? ", \(partial) partial" : "")
    var lines = ["Week \(week.number) of \(goal.weeks) (\(phase)): \(standing)"]
    if let rule = week.rules.first { lines.append("Why: \(units.relabel(rule))") }
    // A rest day a coach commented on is listed in its place among the workouts, its comments under it.
    var restDays = Dictionary(grouping: view.restDayComments, by: \.date).sorted { $0.key < $1.key }[...]
    func restDaysBefore(_ day: CivilDate?) {
      while let rest = restDays.first, day.map({ rest.key < $0 }) ?? true {
        lines.append("    \(rest.key.shortLabel)  Rest day")
        lines += rest.value.map { "    \(terminalSafe(coachLine($0)))" }
        restDays = restDays.dropFirst()
      }
    }
    for day in view.days {
      restDaysBefore(day.workout.date)
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
        switch day.status {
        case .paused: " (paused)"
        case .notLogged: " (optional, not logged)"
        case .partial: " (partial: \(units.number(day.done ?? .zero)) of \(units.format(day.workout.distance)))"
        default: ""
        }
      lines.append("  \(mark) \(day.workout.date.shortLabel)  \(time)\(day.workout.title(in: units))\(ran)")
      // Under the workout, indented to its day: one line per comment.
      lines += day.comments.map { "    \(terminalSafe(coachLine($0)))" }
    }
    restDaysBefore(nil)
    if !view.crossTraining.isEmpty {
      lines.append("Cross-training (not counted as running):")
      for activity in view.crossTraining {
        lines.append(
          "  + \(activity.date.shortLabel)  \(terminalSafe(activity.sport.name)), "
            + "\(crossTrainingMinutes(activity.durationSeconds)) min, \(units.format(activity.distance))")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

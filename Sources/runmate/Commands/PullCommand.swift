import ArgumentParser
import CoachClient
import Foundation
import RunningCore
import Training
import TrainingDomain

/// `runmate pull`: the coach's comments and plan changes from the server the athlete logged in to.
struct PullCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pull",
    abstract: "Get your coach's comments and plan changes (after `runmate account login`).",
    discussion: """
      Asks the server of `runmate account login` what changed since the last pull: the coaches' comments on your \
      workouts (printed with their day and workout, and kept in your logbook, once each: `runmate today`, \
      `runmate week` and the calendar's events show them) and, when a coach assigned or rebuilt your plan, the plan. \
      It is applied like `runmate replan --apply`: the same saved plan (its name, id and matched runs kept) with \
      the coach's workouts on the coach's run days and your own times, zone, busy time and reminders; each \
      workout that changes is listed, and the next `runmate export` updates the calendar's events. Pulling again \
      applies nothing twice ("Up to date."). Your logged runs are never touched. See docs/api.md.

      Examples:
        runmate pull
        runmate pull --format json
        runmate export --out plan.ics    # the changed events
      """)
  @OptionGroup var plan: PlanSelection
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions
  @OptionGroup var output: OutputOptions

  func run() throws {
    let signedIn = try SignedInSession()
    let now = try clock.instant()
    let db = try database.open()
    let profile = try db.profile(named: nil)
    let units = try output.unit(profile: profile?.units, plan: nil)
    guard let updates = try signedIn.exchange({ try await $0.updates(since: $1.cursor, session: $1) }) else { return }
    let result = try applyUpdates(
      updates, to: plan.name, server: signedIn.server, in: db, profile: profile,
      systemZone: TimeZone.current.identifier, now: now)
    // Kept only once the logbook has what it names: a pull stopped before gets the same updates again.
    try signedIn.keep(cursor: updates.cursor, planRevision: result.planRevision)
    switch output.format {
    case .json: try writeStandardOutput(JSONOutput.encode(result))
    case .table: try writeText(PullCommand.render(result, server: signedIn.server, units: units))
    }
  }

  /// The pull in words: the plan's changes as `replan` says them, then the comments.
  static func render(_ result: PullResult, server: String, units: DistanceUnit) -> String {
    if result.upToDate { return "Up to date.\n" }
    var lines: [String] = []
    if let name = result.planName, result.stored {
      if let following = result.following {
        lines.append(
          "Your coach gave you a new plan on \(terminalSafe(server)): saved as '\(terminalSafe(name))', the active "
            + "plan; '\(terminalSafe(following))' is kept as it was up to the new plan's first day, whose days "
            + "before today keep their workouts and runs:")
      } else {
        lines.append(
          result.created
            ? "Saved your coach's plan from \(terminalSafe(server)) as '\(terminalSafe(name))', the active plan:"
            : "Your coach changed plan '\(terminalSafe(name))' on \(terminalSafe(server)):")
      }
      lines += ReplanReport.changeLines(result.changeSet, units: units)
      lines.append("Saved. Update your calendar with `runmate export --out FILE` over your last export.")
    }
    if !result.comments.isEmpty {
      lines.append("Comments from your coach:")
      for comment in result.comments {
        let workout = comment.workout.map { " · " + units.relabel($0) } ?? ""
        lines.append(
          "\(comment.date.shortLabel)\(terminalSafe(workout)) · \(terminalSafe(comment.author)): "
            + terminalSafe(comment.text))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

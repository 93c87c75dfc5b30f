import ArgumentParser
import Foundation
import Logbook
import PlanEngine
import Scheduling

/// `runmate schedule`: the plan on real dates and times.
struct ScheduleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule",
    abstract: "Lay a plan onto your week: run days, long-run day, times, time zone, blackout dates.",
    discussion: """
      Examples:
        runmate schedule --distance half --level beginner --weeks 12 --days tue,thu,sat,sun --long-run-day sat
        runmate schedule --distance 10k --level intermediate --weeks 10 --at 06:30 --at sat=08:00 --tz Europe/Berlin
      """)

  @OptionGroup var goal: GoalOptions
  @OptionGroup var schedule: ScheduleOptions
  @OptionGroup var templates: TemplateOptions
  @OptionGroup var clock: ClockOptions
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var profileOption: ProfileOption

  @Option(name: .customLong("plan"), help: ArgumentHelp(
    "A saved plan to use instead of --distance/--level/... (default without them: the active plan).", valueName: "name"))
  var planName: String?
  @OptionGroup var output: OutputOptions

  func run() throws {
    let profile = try profileOption.load(database)
    let units = try output.unit(default: profile?.units)
    let preferences = try schedule.preferences(profile: profile)
    let plan = try resolvePlan(goal: goal, templates: templates, clock: clock, database: database, name: planName,
                               units: units, profile: profile)
    let busy = try schedule.busyIntervals(plan: plan, timeZoneID: preferences.timeZoneID)
    let result = try makeSchedule(plan, preferences: preferences, busy: busy)
    switch output.format {
    case .json: try writeStandardOutput(JSONOutput.encode(result))
    case .table: try writeText(ScheduleTable(schedule: result, units: units).render())
    }
  }
}

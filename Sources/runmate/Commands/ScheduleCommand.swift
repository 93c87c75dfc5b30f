import ArgumentParser
import Foundation
import PlanEngine
import TrainingDomain

/// `runmate schedule`: the plan on real dates and times.
struct ScheduleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule",
    abstract: "Lay a plan onto your week: run days, long-run day, times, time zone, blackout dates.",
    discussion: """
      Examples:
        runmate schedule --distance half --level beginner --weeks 12 \\
          --days tue,thu,sat,sun --long-run-day sat
        runmate schedule --distance 10k --level intermediate \\
          --weeks 10 --at 06:30 --at sat=08:00 --tz Europe/Berlin
        runmate schedule --plan spring --at 06:30

      The last one changes the saved plan's settings (export uses them too). Without --distance, --level and \
      the other goal options, a saved plan is laid out: --plan NAME, else the active plan.
      """)

  @OptionGroup var goal: GoalOptions
  @OptionGroup var schedule: ScheduleOptions
  @OptionGroup var templates: TemplateOptions
  @OptionGroup var clock: ClockOptions
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var profileOption: ProfileOption

  @OptionGroup var plan: PlanSelection
  @OptionGroup var output: OutputOptions

  func run() throws {
    let stores = OpenedStore(database)
    let profile = try profileOption.load(stores)
    let resolved = try resolveSchedule(
      goal: goal, request: schedule.request(), templates: templates, clock: clock, stores: stores,
      name: plan.name, profile: profile)
    let units = try output.unit(profile: profile?.units, plan: resolved.settings.units)
    switch output.format {
    case .json: try writeStandardOutput(JSONOutput.encode(resolved.schedule))
    case .table: try writeText(ScheduleTable(schedule: resolved.schedule, units: units).render())
    }
    // A start the clocks skip that day is said on stderr too, as export and plan --save say it.
    for note in resolved.schedule.notes where note.isShifted {
      writeStandardError("\(note.kind): \(note.text)")
    }
    try resolved.commit(to: stores)
  }
}

import ArgumentParser
import Foundation
import Training
import TrainingDomain

/// `--plan NAME`: the saved plan a command works on, the active plan when not given. The one declaration of `--plan`
/// for every command that selects a saved plan (`feed list` and `feed revoke` filter feeds by plan instead).
struct PlanSelection: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("The saved plan (default: the active plan).", valueName: "name"))
  var plan: String?

  /// The plan's name as given; nil for the active plan.
  var name: String? { plan }

  /// The saved plan in `store`: the one named, else the active one.
  func saved(in store: any TrainingStore) throws -> SavedPlan { try store.plan(named: plan) }
}

/// `--tz ZONE` and `--now`: the runner's day. The zone reads an instant (`--now` as an ISO time,
/// `SOURCE_DATE_EPOCH`, the system clock) as a day; without `--tz`, the command's own default applies (the
/// profile's zone, else the plan's, else the system's).
struct ZoneOptions: ParsableArguments {
  @Option(
    name: .customLong("tz"),
    help: ArgumentHelp(
      "Time zone for the days (default: the profile's, else the system's).", valueName: "zone"),
    completion: Completions.timeZone)
  var timeZone: String?

  @Option(name: .long, help: ClockOptions.nowHelp)
  var now: String?

  /// The clock `--now` sets.
  var clock: ClockOptions { ClockOptions(now: now) }

  /// `--tz` checked (a misspelt zone gets a suggestion); nil when not given.
  func given() throws(TimeZoneError) -> String? {
    try timeZone.map { (name) throws(TimeZoneError) in try checkedTimeZone(name).identifier }
  }
}

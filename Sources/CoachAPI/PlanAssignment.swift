import Foundation
import PlanEngine
import RunningCore
import Training
import TrainingDomain
import TrainingProgress

// The coach's writes of an athlete's plan: a new plan from the engine (PUT plan) and a rebuild from the athlete's runs
// (POST plan/regenerate). Training decides; these only read the request, call the use case and render its view.

extension CoachAPIHandler {
  func assignAthletePlan(_ input: Operations.AssignAthletePlan.Input) async throws
    -> Operations.AssignAthletePlan.Output
  {
    let account = try signedIn()
    let body =
      switch input.body {
      case .json(let request): request
      }
    do {
      let athlete = try coachedAthlete(named: input.path.athlete, for: account, in: store)
      guard let rules = configuration.rules else { return .serviceUnavailable(noRules) }
      let request = PlanRequest(
        distance: body.distance, level: body.level, weeks: body.weeks, raceDate: body.raceDate, start: body.start,
        goalTime: body.goalTime, runDays: body.runDays, longRunDay: body.longRunDay, runsPerWeek: body.runsPerWeek,
        currentWeeklyKm: body.currentWeeklyKm, longestRecentRunKm: body.longestRecentRunKm,
        recentRace: body.recentRace, name: body.name)
      let assignment = try Training.assignPlan(
        request, to: athlete, by: account, in: store, rules: rules, systemZone: systemZone, now: configuration.now())
      return .ok(.init(body: .json(render(assignment))))
    } catch let error as CoachViewError {
      if case .invalid = error { return .badRequest(badRequest(apiMessage(error))) }
      return .notFound(notFound(apiMessage(error)))
    } catch let error as any RunnerFacingError where error.kind == .badInput {
      return .badRequest(badRequest(apiMessage(error)))
    }
  }

  func regenerateAthletePlan(_ input: Operations.RegenerateAthletePlan.Input) async throws
    -> Operations.RegenerateAthletePlan.Output
  {
    let account = try signedIn()
    do {
      let athlete = try coachedAthlete(named: input.path.athlete, for: account, in: store)
      guard let rules = configuration.rules else { return .serviceUnavailable(noRules) }
      let assignment = try regeneratePlan(
        of: athlete, by: account, in: store, rules: rules, systemZone: systemZone, now: configuration.now())
      return .ok(.init(body: .json(render(assignment))))
    } catch let error as CoachViewError {
      return .notFound(notFound(apiMessage(error)))
    } catch let error as any RunnerFacingError where error.kind == .badInput {
      return .conflict(.init(body: .json(.init(error: apiMessage(error)))))
    }
  }

  private var noRules: Components.Responses.NoRules {
    .init(
      body: .json(
        .init(error: "this server has no training rules: its operator gives it a templates folder when starting it")))
  }
}

/// A core error as the API words it: each field by its JSON name (``apiFieldName(_:)``).
func apiMessage(_ error: any RunnerFacingError) -> String {
  (error as? any FieldError)?.message(naming: apiFieldName) ?? error.description
}

/// A use case's refusal as the API words it: each field by its JSON path (``apiPath(_:)``).
func apiMessage(_ error: CoachViewError) -> String { error.message(naming: apiPath) }

/// Where a refused value is in the request, as JSON (`runs[3].distance_km`, `since`, `plan_file`).
func apiPath(_ field: RequestField) -> String {
  switch field {
  case .runs: "runs"
  case .run(let index, let value): "runs[\(index)]" + apiMember(value)
  case .deleted: "deleted"
  case .deletedRun(let index): "deleted[\(index)]"
  case .since: "since"
  case .base: "base"
  case .planFile: "plan_file"
  case .days: "days"
  case .text: "text"
  case .query: "q"
  case .specialty: "specialty"
  case .date: "date"
  case .from: "from"
  }
}

/// The member of a pushed run that holds `field`, with its dot (`.distance_km`).
private func apiMember(_ field: RequestField.RunField) -> String {
  switch field {
  case .clientID: ".client_id"
  case .kind: ".kind"
  case .record(.date): ".date"
  case .record(.startTime): ".started_at"
  case .record(.distance): ".distance_km"
  case .record(.time): ".duration_s"
  case .record(.movingTime): ".moving_s"
  case .record(.rpe): ".rpe"
  case .record(.averageHeartRate): ".average_heart_rate"
  case .record(.elevationGain): ".elevation_gain_m"
  case .record(.note): ".note"
  // The pace is distance_km over duration_s (moving_s when given): no one member holds it.
  case .record(let other): " \(other.label)"
  }
}

/// The JSON name of a field of the API's requests (`race_date`), else the field's plain name.
func apiFieldName(_ field: InputField) -> String {
  switch field {
  case .distance: "distance"
  case .level: "level"
  case .weeks: "weeks"
  case .raceDate: "race_date"
  case .start: "start"
  case .goalTime: "goal_time"
  case .days: "run_days"
  case .longRunDay: "long_run_day"
  case .runsPerWeek: "runs_per_week"
  case .currentWeeklyKm, .weeklyVolume: "current_weekly_km"
  case .longestRecentRunKm: "longest_recent_run_km"
  case .recentRace: "recent_race"
  case .name, .plan: "name"
  default: field.label
  }
}

func render(_ assignment: PlanAssignment) -> Components.Schemas.PlanAssignment {
  .init(
    plan: render(assignment.saved, athlete: assignment.athlete), saved: assignment.stored, basis: assignment.basis,
    changes: assignment.changes.map { change in
      .init(
        change: .init(rawValue: change.kind.rawValue) ?? .changed, week: change.week, date: change.date.description,
        title: change.title, before: change.before)
    },
    warnings: assignment.warnings)
}

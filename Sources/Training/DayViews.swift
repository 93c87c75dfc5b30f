import Foundation
import Logbook
import PlanEngine
import RunningCore
import TrainingDomain
import TrainingProgress

// The day and the week as the runner sees them (`today`, `week`): view models the CLI renders as text or encodes as
// the `runmate.today/1` and `runmate.week/1` contracts: metric whatever the runner's unit, distances in km to 0.1,
// durations in whole seconds, dates `YYYY-MM-DD`, null where a value is absent.

/// A distance in km to 0.1; nil (null) for a value no run can have.
public func jsonKm(_ km: Double) -> Double? {
  km.isFinite ? (km * 10).rounded() / 10 : nil
}

/// Whole seconds; nil (null) for a value no run can have.
public func jsonSeconds(_ seconds: Double) -> Int? {
  seconds.isFinite && abs(seconds) < 1e15 ? Int(seconds.rounded()) : nil
}

/// A planned workout on its scheduled day, with how it stands (``PlanStatus``: the one status rule).
public struct WorkoutDay: Sendable, Encodable {
  /// The workout, on its scheduled day.
  public let workout: Workout
  /// Its day and time on the calendar (nil: not scheduled).
  public let dated: DatedWorkout?
  /// Done, partial, missed, today, upcoming, not logged or paused.
  public let status: WorkoutStatus
  /// The distance of the runs matched to it (nil: none).
  public let done: Distance?
  /// Running energy, kcal (nil: no weight in the profile, or not a run).
  public let energyKcal: Int?
  /// The coaches' comments on it (``commentsByWorkout(_:on:)``), oldest day first.
  public let comments: [CoachComment]

  init(
    _ workout: Workout, dated: DatedWorkout?, status book: PlanStatus, energyKcal: Int? = nil,
    comments: [String: [CoachComment]]
  ) {
    self.workout = workout
    self.dated = dated
    status = book.status(of: workout)
    done = book.matched[workout.id] == nil ? nil : book.done(of: workout)
    self.energyKcal = energyKcal
    self.comments = comments[workout.id] ?? []
  }

  enum CodingKeys: String, CodingKey {
    case id, date, kind, title, description, hard, status
    case plannedDate = "planned_date"
    case start
    case distanceKm = "distance_km"
    case durationMin = "duration_min"
    case done = "done_km"
    case energyKcal = "energy_kcal"
    case comments
  }

  /// Encodes the workout as `runmate.today/1` and `runmate.week/1` have it.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(workout.id, forKey: .id)
    try container.encode(workout.date.description, forKey: .date)
    let planned = dated.flatMap { $0.plannedDate == $0.date ? nil : $0.plannedDate.description }
    try container.encode(planned, forKey: .plannedDate)
    try container.encode(dated?.startText, forKey: .start)
    try container.encode(workout.kind.rawValue, forKey: .kind)
    try container.encode(workout.title, forKey: .title)
    try container.encode(workout.description, forKey: .description)
    try container.encode(workout.hard, forKey: .hard)
    try container.encode(jsonKm(workout.distanceKm), forKey: .distanceKm)
    try container.encode(workout.durationMin, forKey: .durationMin)
    try container.encode(status, forKey: .status)
    try container.encode(done.flatMap { jsonKm($0.kilometers) }, forKey: .done)
    try container.encode(energyKcal, forKey: .energyKcal)
    try container.encode(comments.map { CommentJSON(comment: $0, dated: false) }, forKey: .comments)
  }
}

/// A coach's comment as `runmate.today/1` and `runmate.week/1` write it: its `date` only where no workout says it.
struct CommentJSON: Encodable {
  let comment: CoachComment
  let dated: Bool

  enum CodingKeys: String, CodingKey {
    case date, author, text
    case createdAt = "created_at"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if dated { try container.encode(comment.date.description, forKey: .date) }
    try container.encode(comment.author, forKey: .author)
    try container.encode(comment.text, forKey: .text)
    try container.encode(PlanFile.timestamp(comment.createdAt), forKey: .createdAt)
  }
}

/// The runner's day (`runmate today`): today's workout, or why there is none, and the next one.
public struct TodayView: Sendable, Encodable {
  /// Why a day has no workout.
  public enum NoWorkout: Sendable, Hashable {
    /// Before the plan's first day.
    case beforeStart(CivilDate)
    /// After race day.
    case afterRace(CivilDate)
    /// The runner moved, skipped or paused it: the change in words (`Easy 7 km moved to Thu 10 Dec`).
    case changed(String)
    /// A rest day.
    case rest
  }

  /// The plan.
  public let saved: SavedPlan
  /// The runner's today.
  public let today: CivilDate
  /// Today's scheduled workout, nil on a day without one.
  public let workout: WorkoutDay?
  /// Why there is none (nil when there is one).
  public let noWorkout: NoWorkout?
  /// The next workout, nil after the race.
  public let next: WorkoutDay?
  /// The coaches' comments on today when it is a rest day (``restDayComments(_:on:)``); a workout's are on it.
  public let restDayComments: [CoachComment]

  enum CodingKeys: String, CodingKey {
    case schema, today, workout, next
    case restDayComments = "rest_day_comments"
    case planID = "plan_id"
    case planName = "plan_name"
    case planStart = "plan_start"
    case raceDate = "race_date"
  }

  /// Encodes `runmate.today/1`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode("runmate.today/1", forKey: .schema)
    try container.encode(saved.id, forKey: .planID)
    try container.encode(saved.name, forKey: .planName)
    try container.encode(saved.plan.goal.start.description, forKey: .planStart)
    try container.encode(saved.plan.goal.raceDate.description, forKey: .raceDate)
    try container.encode(today.description, forKey: .today)
    try container.encode(workout, forKey: .workout)
    try container.encode(next, forKey: .next)
    try container.encode(restDayComments.map { CommentJSON(comment: $0, dated: false) }, forKey: .restDayComments)
  }
}

/// The runner's week (`runmate week`): the plan week holding today, how far along it is, each workout's status and
/// the week's cross-training.
public struct WeekView: Sendable, Encodable {
  /// The plan.
  public let saved: SavedPlan
  /// The runner's today.
  public let today: CivilDate
  /// The plan week holding today (nil: none does).
  public let week: Week?
  /// Its progress (nil: no week).
  public let progress: WeekProgress?
  /// Its workouts on their days, with their status.
  public let days: [WorkoutDay]
  /// Other sports logged this week (never counted as running).
  public let crossTraining: [Completion]
  /// The coaches' comments on the week's rest days (``restDayComments(_:on:)``), oldest day first.
  public let restDayComments: [CoachComment]

  /// Workouts partly done.
  public var partialSessions: Int { days.filter { $0.status == .partial }.count }

  enum CodingKeys: String, CodingKey {
    case schema, today, week
    case planID = "plan_id"
    case planName = "plan_name"
  }

  enum WeekKeys: String, CodingKey {
    case number, weeks, phase, cutback, start, end, why, workouts
    case plannedKm = "planned_km"
    case doneKm = "done_km"
    case plannedSessions = "planned_sessions"
    case doneSessions = "done_sessions"
    case partialSessions = "partial_sessions"
    case missedSessions = "missed_sessions"
    case extraRuns = "extra_runs"
    case restDayComments = "rest_day_comments"
  }

  /// Encodes `runmate.week/1`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode("runmate.week/1", forKey: .schema)
    try container.encode(saved.id, forKey: .planID)
    try container.encode(saved.name, forKey: .planName)
    try container.encode(today.description, forKey: .today)
    guard let week, let progress else { return try container.encodeNil(forKey: .week) }
    var nested = container.nestedContainer(keyedBy: WeekKeys.self, forKey: .week)
    try nested.encode(week.number, forKey: .number)
    try nested.encode(saved.plan.goal.weeks, forKey: .weeks)
    try nested.encode(week.phase.rawValue, forKey: .phase)
    try nested.encode(week.cutback, forKey: .cutback)
    try nested.encode(week.start.description, forKey: .start)
    try nested.encode(week.start.adding(days: 6).description, forKey: .end)
    try nested.encode(week.rules.first, forKey: .why)
    try nested.encode(jsonKm(week.plannedKm), forKey: .plannedKm)
    try nested.encode(jsonKm(progress.done.kilometers), forKey: .doneKm)
    try nested.encode(progress.plannedSessions, forKey: .plannedSessions)
    try nested.encode(progress.doneSessions, forKey: .doneSessions)
    try nested.encode(partialSessions, forKey: .partialSessions)
    try nested.encode(progress.missedSessions, forKey: .missedSessions)
    try nested.encode(progress.extraRuns, forKey: .extraRuns)
    try nested.encode(days, forKey: .workouts)
    try nested.encode(restDayComments.map { CommentJSON(comment: $0, dated: true) }, forKey: .restDayComments)
  }
}

extension TrainingState {
  /// The workouts by id on their scheduled days.
  private var datedByID: [String: DatedWorkout] {
    Dictionary(workouts.map { ($0.workoutID, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The runner's `today` from the logged `runs` and `crossTraining`: today's workout (with its running energy,
  /// about 1 kcal per kg and km, when the profile gives `weightKg`; none for cross-training or strength), or why
  /// there is none (a change in `units`), and the next workout, each with the coaches' `comments` on it (the plan's,
  /// ``TrainingStore/coachComments(of:)``).
  public func todayView(
    runs: [Completion], crossTraining: [Completion], today: CivilDate, weightKg: Double?,
    units: DistanceUnit, comments: [CoachComment]
  ) -> TodayView {
    let book = status(runs: runs, crossTraining: crossTraining, today: today)
    let scheduled = plan
    let dated = datedByID
    let onWorkouts = commentsByWorkout(comments, on: workouts)
    let workout = scheduled.workouts.first { $0.date == today }.map { workout in
      let energy = workout.kind.isRun ? weightKg.map { $0 * workout.distanceKm } : nil
      return WorkoutDay(
        workout, dated: dated[workout.id], status: book, energyKcal: energy.flatMap(jsonSeconds),
        comments: onWorkouts)
    }
    let next = scheduled.workouts.first { $0.date > today }.map {
      WorkoutDay($0, dated: dated[$0.id], status: book, comments: onWorkouts)
    }
    var noWorkout: TodayView.NoWorkout?
    if workout == nil {
      let goal = saved.plan.goal
      noWorkout =
        today < goal.start
        ? .beforeStart(goal.start)
        : today > goal.raceDate
          ? .afterRace(goal.raceDate) : changeNote(on: today, units: units).map { .changed($0) } ?? .rest
    }
    return TodayView(
      saved: saved, today: today, workout: workout, noWorkout: noWorkout, next: next,
      restDayComments: restDayComments(comments, on: workouts).filter { $0.date == today })
  }

  /// The runner's week holding `today`, from the logged `runs` and `crossTraining`, each workout with the coaches'
  /// `comments` on it (the plan's, ``TrainingStore/coachComments(of:)``).
  public func weekView(
    runs: [Completion], crossTraining: [Completion], today: CivilDate, comments: [CoachComment]
  ) -> WeekView {
    let book = status(runs: runs, crossTraining: crossTraining, today: today)
    let week = plan.weeks.first { $0.start <= today && today <= $0.start.adding(days: 6) }
    let progress = week.flatMap { week in self.progress(runs, today: today).weeks.first { $0.number == week.number } }
    let dated = datedByID
    let onWorkouts = commentsByWorkout(comments, on: workouts)
    let days = week.map { $0.start...$0.start.adding(days: 6) }
    return WeekView(
      saved: saved, today: today, week: week, progress: progress,
      days: (week?.workouts ?? []).map { WorkoutDay($0, dated: dated[$0.id], status: book, comments: onWorkouts) },
      crossTraining: days.map { days in crossTraining.filter { days.contains($0.date) } } ?? [],
      restDayComments: days.map { days in restDayComments(comments, on: workouts).filter { days.contains($0.date) } }
        ?? [])
  }
}

import Foundation
import Ingest
import PlanEngine
import RunningCore
import TrainingDomain
import TrainingProgress

/// What the coach API refuses, by field: the API words each one as a 400 or a 404.
public enum CoachViewError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No athlete of that name that the account may see (unknown, or another coach's: the same answer).
  case noSuchAthlete(name: String)
  /// The athlete has no plan assigned.
  case noPlan(athlete: String)
  /// The athlete's plan has no workout on that day.
  case noWorkout(athlete: String, date: CivilDate)
  /// The account is not a coach (the roster is a coach's).
  case notACoach(login: String)
  /// A value outside what is allowed.
  case invalid(field: RequestField, value: String, allowed: String)
  /// The athlete's plan on the server changed since the revision a write was based on (a coach changed it).
  case planChanged(athlete: String)

  /// One line naming what is wrong, the field in plain words (``RequestField/label``).
  public var description: String { message(naming: \.label) }

  /// One line naming what is wrong, each field named by `name` (the API: its JSON member, `runs[3].distance_km`).
  public func message(naming name: (RequestField) -> String) -> String {
    switch self {
    case .noSuchAthlete(let name): "no athlete '\(name)' on this account"
    case .noPlan(let athlete): "athlete '\(athlete)' has no plan assigned"
    case .noWorkout(let athlete, let date): "athlete '\(athlete)' has no workout on \(date)"
    case .notACoach(let login): "account '\(login)' is not a coach's: it has no roster"
    case .invalid(let field, let value, let allowed): "\(name(field)): '\(value)' is not valid, allowed is \(allowed)"
    case .planChanged(let athlete):
      "athlete '\(athlete)'s plan was changed on the server (by a coach) since it was last pulled: pull it first"
    }
  }
}

/// A value of a coach API request that the use cases can refuse; the API names each by its JSON member.
public enum RequestField: Sendable, Hashable {
  /// The runs of a push (too many), or one run's value.
  case runs
  case run(index: Int, RunField)
  /// The deleted runs of a push (too many), or one of their identities.
  case deleted
  case deletedRun(index: Int)
  /// An updates cursor: where a read starts (`since`), what a write was based on (`base`).
  case since, base
  /// The plan a write carries (a plan its settings cannot schedule).
  case planFile
  /// How many days a read of runs covers.
  case days
  /// A comment's text.
  case text
  /// The trainer directory's search words and specialty.
  case query, specialty
  /// A day in a path or a query.
  case date, from

  /// A value of one pushed run.
  public enum RunField: Sendable, Hashable {
    /// The run's identity on the athlete's side.
    case clientID
    /// Its kind of workout.
    case kind
    /// A value the logbook's plausibility checks refused.
    case record(RecordField)
  }

  /// The field in plain words: `run 4's distance`, `since`.
  public var label: String {
    switch self {
    case .runs: "runs"
    case .run(let index, .clientID): "run \(index + 1)'s client id"
    case .run(let index, .kind): "run \(index + 1)'s kind"
    case .run(let index, .record(let field)): "run \(index + 1)'s \(field.label)"
    case .deleted: "deleted runs"
    case .deletedRun(let index): "deleted run \(index + 1)"
    case .since: "since"
    case .base: "base"
    case .planFile: "plan file"
    case .days: "days"
    case .text: "text"
    case .query: "search words"
    case .specialty: "specialty"
    case .date: "date"
    case .from: "from"
    }
  }
}

/// The day an instant falls on in a zone (the system's when `zone` names none or an unknown one).
public func civilDay(of instant: Date, zone: String?, systemZone: String) -> CivilDate {
  let timeZone =
    zone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: systemZone) ?? TimeZone(secondsFromGMT: 0)
    ?? TimeZone.current
  return CivilDate(instant, in: timeZone) ?? CivilDate(dayNumber: 0)
}

/// The athlete named `name` if `account` may see them: the account's own profile, or, for a coach, one of the coach's
/// athletes. Everyone else is ``CoachViewError/noSuchAthlete(name:)``, whether the profile exists or not.
public func visibleAthlete(named name: String, for account: Account, in store: any TrainingStore) throws -> Profile {
  if name == account.profileName, let own = try store.profile(named: name) { return own }
  if account.role == .coach,
    let athlete = try store.athletes(ofCoach: account.profileName).first(where: { $0.name == name })
  {
    return athlete
  }
  throw CoachViewError.noSuchAthlete(name: name)
}

/// The roster of a coach account's profile, at `now` (each athlete on their own day).
public func coachRoster(
  for account: Account, in store: any TrainingStore, systemZone: String, cache: RosterCache? = nil, now: Date
) throws -> Roster {
  guard account.role == .coach else { throw CoachViewError.notACoach(login: account.login) }
  return try coachRoster(coach: account.profileName, in: store, systemZone: systemZone, cache: cache) { zone in
    civilDay(of: now, zone: zone, systemZone: systemZone)
  }
}

/// An athlete's assigned plan and its state (the plan's settings and days).
func athleteState(
  _ athlete: Profile, in store: any TrainingStore, systemZone: String
) throws -> TrainingState {
  guard let id = athlete.id, let saved = try store.plans(ofProfile: id).first else {
    throw CoachViewError.noPlan(athlete: athlete.name)
  }
  return try TrainingState.read(saved, db: store, profile: athlete, systemZone: systemZone)
}

/// One week of an athlete's plan: its progress, colour and workouts with their status.
public struct AthleteWeek: Sendable {
  /// The plan's week.
  public let week: Week
  /// Its progress on the athlete's day.
  public let progress: WeekProgress
  /// Its workouts on their scheduled days, with how each stands.
  public let workouts: [(workout: Workout, status: WorkoutStatus)]
  /// The compliance colour.
  public var colour: ComplianceColour { ComplianceColour(percent: progress.compliancePercent) }
}

/// An athlete's plan, week by week, on the athlete's day.
public struct AthletePlanView: Sendable {
  /// The athlete's profile name.
  public let athlete: String
  /// The plan as saved.
  public let saved: SavedPlan
  /// The athlete's today.
  public let today: CivilDate
  /// Every week (the plan with its workouts on their scheduled days).
  public let weeks: [AthleteWeek]
}

/// The plan of `athlete` (as ``visibleAthlete(named:for:in:)`` gave it) and each week's progress and statuses at
/// `now`, from the runs counted for the plan.
public func athletePlan(
  _ athlete: Profile, in store: any TrainingStore, systemZone: String, now: Date
) throws -> AthletePlanView {
  let state = try athleteState(athlete, in: store, systemZone: systemZone)
  let today = civilDay(of: now, zone: athlete.timeZone ?? state.settings.timeZone, systemZone: systemZone)
  let plan = state.plan
  let first = plan.weeks.first?.start ?? plan.goal.start
  let last = (plan.weeks.last?.start ?? plan.goal.raceDate).adding(days: 6)
  let runs = try store.completions(planID: state.saved.id, from: first, through: last)
  let report = state.progress(runs, today: today)
  let book = state.status(runs: runs, today: today)
  let progress = Dictionary(report.weeks.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
  let weeks = plan.weeks.compactMap { week in
    progress[week.number].map { progress in
      AthleteWeek(week: week, progress: progress, workouts: week.workouts.map { ($0, book.status(of: $0)) })
    }
  }
  return AthletePlanView(athlete: athlete.name, saved: state.saved, today: today, weeks: weeks)
}

/// The runs of an athlete, by date, with the status each gave its workout.
public struct AthleteRunsView: Sendable {
  /// The athlete's profile name.
  public let athlete: String
  /// The first day.
  public let from: CivilDate
  /// The last day.
  public let to: CivilDate
  /// The runs counted for the athlete's plan, with their status (nil: unplanned).
  public let runs: [(run: Completion, status: WorkoutStatus?)]
}

/// The most days one read of an athlete's runs covers.
public let maxRunDays = 400

/// The runs counted for `athlete`'s plan over `days` days (default 90, at most ``maxRunDays``) from `from` (default:
/// the days ending on the athlete's today at `now`).
public func athleteRuns(
  _ athlete: Profile, from: CivilDate?, days: Int?, in store: any TrainingStore, systemZone: String, now: Date
) throws -> AthleteRunsView {
  let count = days ?? 90
  guard (1...maxRunDays).contains(count) else {
    throw CoachViewError.invalid(field: .days, value: String(count), allowed: "1 to \(maxRunDays)")
  }
  let state = try athleteState(athlete, in: store, systemZone: systemZone)
  let today = civilDay(of: now, zone: athlete.timeZone ?? state.settings.timeZone, systemZone: systemZone)
  let first = from ?? today.adding(days: 1 - count)
  let last = first.adding(days: count - 1)
  // The runs of the plan in force and of the plans it followed: the past as it was counted then.
  let chain = try PlanChain.read(from: state, in: store, profile: athlete, systemZone: systemZone)
  let runs = try chain.states.flatMap { try store.completions(planID: $0.saved.id, from: first, through: last) }
    .sorted { ($0.date, $0.id ?? 0) < ($1.date, $1.id ?? 0) }
  let statuses = runStatuses(runs, plans: chain.states.map(\.saved.plan))
  return AthleteRunsView(
    athlete: athlete.name, from: first, to: last, runs: runs.map { ($0, $0.id.flatMap { statuses[$0] }) })
}

/// The longest comment, in characters.
public let maxCommentLength = 2000

/// The plan of `athlete` holding a workout on `date`, or ``CoachViewError/noWorkout(athlete:date:)``.
private func planWithWorkout(
  _ athlete: Profile, on date: CivilDate, in store: any TrainingStore, systemZone: String
) throws -> SavedPlan {
  let state = try athleteState(athlete, in: store, systemZone: systemZone)
  guard state.workouts.contains(where: { $0.date == date }) else {
    throw CoachViewError.noWorkout(athlete: athlete.name, date: date)
  }
  return state.saved
}

/// The comments on `athlete`'s workout of `date`, oldest first.
public func workoutComments(
  _ athlete: Profile, on date: CivilDate, in store: any TrainingStore, systemZone: String
) throws -> [WorkoutComment] {
  let saved = try planWithWorkout(athlete, on: date, in: store, systemZone: systemZone)
  guard let id = athlete.id else { throw CoachViewError.noSuchAthlete(name: athlete.name) }
  return try store.comments(athleteID: id, planID: saved.id, date: date)
}

/// Stores `text` (trimmed, 1 to ``maxCommentLength`` characters) as `author`'s comment on `athlete`'s workout of
/// `date`, with its line in the audit log.
public func addWorkoutComment(
  _ text: String, by author: Account, to athlete: Profile, on date: CivilDate, in store: any TrainingStore,
  systemZone: String, now: Date
) throws -> WorkoutComment {
  let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
  guard (1...maxCommentLength).contains(trimmed.count) else {
    throw CoachViewError.invalid(
      field: .text, value: TextRules.quoted(trimmed), allowed: "1 to \(maxCommentLength) characters")
  }
  if let bad = TextRules.forbiddenInText(trimmed) {
    throw CoachViewError.invalid(
      field: .text, value: TextRules.quoted(trimmed), allowed: TextRules.textAllowed(found: bad))
  }
  let saved = try planWithWorkout(athlete, on: date, in: store, systemZone: systemZone)
  guard let id = athlete.id else { throw CoachViewError.noSuchAthlete(name: athlete.name) }
  return try store.addComment(athleteID: id, planID: saved.id, date: date, author: author, text: trimmed, at: now)
}

/// A trainer of the directory: a coach profile's public side, with contact links built from its checked values.
public struct TrainerView: Sendable, Equatable {
  /// The profile name.
  public let name: String
  /// The specialty.
  public let specialty: String?
  /// The certifications.
  public let certifications: [String]
  /// The bio.
  public let bio: String?
  /// `https://wa.me/<digits>`, when the profile has a valid number.
  public let whatsapp: String?
  /// `https://t.me/<name>`, when the profile has a valid username.
  public let telegram: String?
  /// `mailto:` with the address percent-encoded, when the profile has a valid one.
  public let email: String?
}

/// The coach profiles, by name, whose name, specialty, certifications or bio hold every word of `query` and whose
/// specialty holds `specialty` (any case; nil or blank: no filter).
public func trainerDirectory(query: String?, specialty: String?, in store: any TrainingStore) throws -> [TrainerView] {
  for (field, value) in [(RequestField.query, query), (.specialty, specialty)] {
    if let value, value.count > 100 {
      throw CoachViewError.invalid(field: field, value: String(value.prefix(40)), allowed: "at most 100 characters")
    }
  }
  let words = (query ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
  let wanted = specialty?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
  return try store.profiles().filter(\.isCoach).filter { coach in
    let text = ([coach.name, coach.specialty ?? "", coach.bio ?? ""] + (coach.certifications ?? []))
      .joined(separator: " ").lowercased()
    return words.allSatisfy(text.contains)
      && (wanted.isEmpty || (coach.specialty ?? "").lowercased().contains(wanted))
  }.map { coach in
    TrainerView(
      name: coach.name, specialty: coach.specialty, certifications: coach.certifications ?? [], bio: coach.bio,
      whatsapp: coach.whatsapp.flatMap(Profile.whatsappLink), telegram: coach.telegram.flatMap(Profile.telegramLink),
      email: coach.email.flatMap(Profile.mailtoLink))
  }
}

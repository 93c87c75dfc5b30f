import Foundation
import PlanEngine
import RunningCore

/// Why a plan cannot be scheduled.
public enum SchedulingError: FieldError, Sendable, Equatable {
  /// The time zone name is not a known IANA zone.
  case unknownTimeZone(String, suggestion: String?)
  /// The runner's days, blackouts and busy time leave no room for the plan: fewer than half of the workouts fit,
  /// or a planned week (before race week) is left empty.
  case noRoom(placed: Int, total: Int, emptyWeeks: [Int])

  /// The message for a runner: one line naming what is wrong and what is allowed.
  public func message(naming flag: (InputField) -> String) -> String {
    switch self {
    case .unknownTimeZone(let name, let suggestion):
      let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
      return "\(flag(.timeZone)): '\(name)' is not a known time zone, allowed is an IANA name such as Europe/Berlin or "
        + "America/New_York\(hint)"
    case .noRoom(let placed, let total, let emptyWeeks):
      let weeks =
        emptyWeeks.isEmpty ? "" : " (nothing fits in week \(emptyWeeks.map(String.init).joined(separator: ", ")))"
      return "your calendar leaves no room for this plan: \(total - placed) of \(total) workouts could not be placed"
        + "\(weeks); pick other times with \(flag(.at)), other days with \(flag(.days)), or check the "
        + "\(flag(.busy)) files and \(flag(.skip)) dates"
    }
  }
}

/// Lays a plan onto real days and times: `Plan + SchedulingPreferences + busy time → Schedule`.
///
/// Week by week, every workout gets a day of its plan week: the long run on the long-run day, the race on race
/// day, the rest as close to the plan's pattern as the runner's run days, blackout dates and busy time allow,
/// never two hard days in a row (across weeks too). A workout with no room is moved within its week, or dropped
/// in order of least importance (recovery and easy runs first, the long run last, the race never); every move
/// and drop is a ``ScheduleNote``. Timed workouts need a free slot of their duration at their start time;
/// all-day workouts need one inside the day window. Times are local wall-clock times in the runner's zone, so a
/// 06:30 run stays at 06:30 across DST changes.
///
/// - Throws: ``SchedulingError`` for an unknown time zone, or when the calendar leaves no room (fewer than half of
///   the workouts placed, or an empty week before race week).
public func makeSchedule(
  _ plan: Plan, preferences: SchedulingPreferences,
  busy: [BusyTime] = []
) throws(SchedulingError) -> Schedule {
  guard let zone = TimeZone(identifier: preferences.timeZoneID) else {
    throw .unknownTimeZone(preferences.timeZoneID, suggestion: suggestTimeZone(preferences.timeZoneID))
  }
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = zone
  let scheduler = WeekScheduler(
    plan: plan, preferences: preferences, calendar: calendar,
    busy: busy.sorted { ($0.start, $0.end) < ($1.start, $1.end) })
  var weeks: [ScheduledWeek] = []
  var notes: [ScheduleNote] = []
  var previousHardDays: Set<Int> = []
  var skippedWeeks: Set<Int> = []
  var skipped = 0
  for week in plan.weeks {
    let result = scheduler.schedule(week, previousHardDays: previousHardDays)
    weeks.append(ScheduledWeek(week: week, workouts: result.workouts))
    notes += result.notes
    previousHardDays = Set(result.workouts.filter(\.workout.hard).map(\.workout.date.dayNumber))
    if result.skipped > 0 { skippedWeeks.insert(week.number) }
    skipped += result.skipped
  }
  let placed = weeks.map(\.workouts.count).reduce(0, +)
  let total = plan.workouts.count - skipped
  let empty = weeks.filter {
    $0.workouts.isEmpty && !$0.week.workouts.isEmpty && $0.week.phase != .race && !skippedWeeks.contains($0.week.number)
  }.map(\.week.number)
  if placed * 2 < total || !empty.isEmpty {
    throw .noRoom(placed: placed, total: total, emptyWeeks: empty)
  }
  return Schedule(plan: plan, timeZoneID: zone.identifier, weeks: weeks, notes: notes)
}

/// The closest known zone name, for typos: the product's one zone did-you-mean (``TimeZoneNames``) over
/// Foundation's zones.
func suggestTimeZone(_ name: String) -> String? {
  knownZoneNames.suggestion(for: name)
}

/// Foundation's zone names, indexed on the first unknown zone.
private let knownZoneNames = TimeZoneNames(TimeZone.knownTimeZoneIdentifiers)

/// Schedules one week at a time.
struct WeekScheduler {
  let plan: Plan
  let preferences: SchedulingPreferences
  let calendar: Calendar
  let busy: [BusyTime]

  /// Days to move everything by so the long run lands on the preferred long-run day (−3…3): 0 when the plan's long
  /// runs are on it already (a plan laid on the runner's days has them on its own long-run day).
  var shift: Int {
    guard let wanted = preferences.longRunDay else { return 0 }
    let delta = (wanted.index - plan.goal.longRunWeekday.index + 7) % 7
    return delta > 3 ? delta - 7 : delta
  }

  struct Result {
    var workouts: [ScheduledWorkout]
    var notes: [ScheduleNote]
    /// Workouts the runner skipped (`runmate skip`): left out by choice, not for want of room.
    var skipped = 0
  }

  /// A workout's place in the search: its candidate days, cheapest first.
  struct Item {
    let workout: Workout
    let preferred: CivilDate
    let candidates: [CivilDate]
    let reasons: [Int: String]
  }

  func schedule(_ week: Week, previousHardDays: Set<Int>) -> Result {
    let raceDate = plan.goal.raceDate
    let blockEnd = min(week.start.adding(days: 6), week.phase == .race ? raceDate : week.start.adding(days: 6))
    let days = (0...max(0, week.start.days(to: blockEnd))).map { week.start.adding(days: $0) }
    var notes: [ScheduleNote] = []

    let ordered = week.workouts.sorted {
      priority($0) > priority($1) || (priority($0) == priority($1) && $0.date < $1.date)
    }
    let items = ordered.map { item(for: $0, week: week, days: days) }
    let assignment = search(items, previousHardDays: previousHardDays)
    let dropped = items.filter { assignment[$0.workout.id] == nil }.map { ($0.workout, reasonText($0)) }

    var scheduled: [ScheduledWorkout] = []
    var skipped = 0
    for item in items {
      guard let placed = assignment[item.workout.id] else { continue }
      // The runner's own skips and moves apply to the day the schedule gave the workout.
      if let reason = preferences.skips[placed], item.workout.kind != .race {
        notes.append(
          ScheduleNote(
            kind: .dropped, week: week.number, workoutID: item.workout.id,
            text: "W\(week.number) \(item.workout.title) on \(placed.shortLabel) skipped by you"
              + (reason.isEmpty ? "" : " (\(reason))")))
        skipped += 1
        continue
      }
      let movedTo = item.workout.kind == .race ? nil : preferences.moves[placed]
      let day = movedTo ?? placed
      if let movedTo {
        notes.append(
          ScheduleNote(
            kind: .moved, week: week.number, workoutID: item.workout.id,
            text:
              "W\(week.number) \(item.workout.title) moved from \(placed.shortLabel) to \(movedTo.shortLabel) by you"
          ))
      }
      var workout = item.workout
      let plannedDate = workout.date
      workout.date = day
      var time = workout.kind == .race ? preferences.raceStart : preferences.time(on: day.weekday)
      var start: Date?
      var end: Date?
      if let asked = time, let instant = instant(day, asked) {
        start = instant
        end = instant.addingTimeInterval(Double(max(1, workout.durationMin)) * 60)
        // A time in the gap of a spring-forward does not exist that day: the run is at the time the clocks show
        // then (02:30 → 03:30), which is the time every text tells; said once per day.
        let shown = localTime(of: instant)
        if shown != asked {
          time = shown
          if !notes.contains(where: { $0.kind == .shifted && $0.text.contains(day.shortLabel) }) {
            notes.append(
              ScheduleNote(
                kind: .shifted, week: week.number, workoutID: workout.id,
                text: "\(asked) does not exist on \(day.shortLabel) \(day.year) in \(calendar.timeZone.identifier) "
                  + "(clocks go forward): the run is at \(shown)"))
          }
        }
      }
      scheduled.append(
        ScheduledWorkout(
          workout: workout, time: time, start: start, end: end,
          plannedDate: day == plannedDate ? nil : plannedDate))
      if placed != item.preferred {
        let why = item.reasons[item.preferred.dayNumber] ?? "keeps hard days apart"
        var note = ScheduleNote(
          kind: .moved, week: week.number, workoutID: workout.id,
          text: "W\(week.number) \(workout.title) moved from \(item.preferred.shortLabel) to "
            + "\(placed.shortLabel): \(why)")
        note.toRunDay =
          !preferences.isBlackout(item.preferred)
          && preferences.runDays.map { !$0.contains(item.preferred.weekday) } ?? false
        notes.append(note)
      }
      if workout.kind == .race, let conflict = item.reasons[day.dayNumber] {
        notes.append(
          ScheduleNote(
            kind: .conflict, week: week.number, workoutID: workout.id,
            text: "Race day \(day.shortLabel) conflicts with your calendar: \(conflict)"))
      }
    }
    for (workout, why) in dropped {
      let loud = workout.kind == .long ? "THE LONG RUN " : ""
      notes.append(
        ScheduleNote(
          kind: .dropped, week: week.number, workoutID: workout.id,
          text: "W\(week.number) \(loud)\(workout.title) dropped: \(why)"))
    }
    scheduled.sort { $0.workout.date < $1.workout.date }
    return Result(workouts: scheduled, notes: notes, skipped: skipped)
  }

  /// Higher is more important: race, long run, quality, strides, easy, then recovery runs, cross-training and
  /// strength days.
  func priority(_ workout: Workout) -> Int {
    switch workout.kind {
    case .race: 6
    case .long: 5
    case .tempo, .intervals, .hills, .fartlek: 4
    case .strides: 3
    case .mediumLong: 3
    case .easy: 2
    case .recovery, .crossTraining, .strength: 1
    }
  }

  func item(for workout: Workout, week: Week, days: [CivilDate]) -> Item {
    var preferred = workout.kind == .race ? plan.goal.raceDate : workout.date.adding(days: shift)
    if preferred < week.start { preferred = preferred.adding(days: 7) }
    if preferred > week.start.adding(days: 6) { preferred = preferred.adding(days: -7) }
    var reasons: [Int: String] = [:]
    var candidates: [CivilDate] = []
    for day in days {
      if workout.kind == .race {
        if day == plan.goal.raceDate {
          candidates.append(day)
          if let why = unavailability(workout, on: day, ignoringRunDays: true) { reasons[day.dayNumber] = why }
        }
        continue
      }
      if day >= plan.goal.raceDate { continue }
      // Cross-training and strength days are not runs: the runner's run days do not bind them.
      if let why = unavailability(workout, on: day, ignoringRunDays: !workout.kind.isRun) {
        reasons[day.dayNumber] = why
      } else {
        candidates.append(day)
      }
    }
    candidates.sort { (abs($0.days(to: preferred)), $0) < (abs($1.days(to: preferred)), $1) }
    return Item(workout: workout, preferred: preferred, candidates: candidates, reasons: reasons)
  }

  /// Why `workout` cannot go on `day`, or nil when it can.
  func unavailability(_ workout: Workout, on day: CivilDate, ignoringRunDays: Bool) -> String? {
    if preferences.isBlackout(day) { return "\(day.shortLabel) is a blackout date" }
    if !ignoringRunDays, let runDays = preferences.runDays, !runDays.contains(day.weekday) {
      return "\(day.weekday.shortName) is not one of your run days"
    }
    let minutes = Double(max(1, workout.durationMin))
    if workout.kind != .race, let time = preferences.time(on: day.weekday) {
      guard let start = instant(day, time) else { return nil }
      let end = start.addingTimeInterval(minutes * 60)
      if let clash = busy.first(where: { $0.start < end && $0.end > start }) {
        return "busy at \(time) (\(clash.summary))"
      }
      return nil
    }
    guard let windowStart = instant(day, preferences.dayWindow.lowerBound),
      let windowEnd = instant(day, preferences.dayWindow.upperBound)
    else { return nil }
    let clashes = busy.filter { $0.start < windowEnd && $0.end > windowStart }
    if clashes.isEmpty { return nil }
    var cursor = windowStart
    var longestGap = 0.0
    for interval in clashes {
      longestGap = max(longestGap, interval.start.timeIntervalSince(cursor))
      cursor = max(cursor, interval.end)
    }
    longestGap = max(longestGap, windowEnd.timeIntervalSince(cursor))
    if longestGap >= minutes * 60 { return nil }
    if workout.kind == .race { return clashes.map(\.summary).joined(separator: ", ") }
    return "no free \(Int(minutes)) minutes between \(preferences.dayWindow.lowerBound) and "
      + "\(preferences.dayWindow.upperBound) (\(clashes.prefix(2).map(\.summary).joined(separator: ", ")))"
  }

  func reasonText(_ item: Item) -> String {
    if item.candidates.isEmpty { return "no free day in the week" }
    if let why = item.reasons[item.preferred.dayNumber] { return "no other day fits; \(why)" }
    return "every free day left is taken or next to a hard day"
  }

  /// The instant of `time` on `day` in the runner's zone (a time in a DST gap moves forward, as clocks do).
  func instant(_ day: CivilDate, _ time: LocalTime) -> Date? {
    calendar.date(
      from: DateComponents(
        year: day.year, month: day.month, day: day.day, hour: time.hour,
        minute: time.minute))
  }

  /// The wall-clock time of `instant` in the runner's zone.
  func localTime(of instant: Date) -> LocalTime {
    let parts = calendar.dateComponents([.hour, .minute], from: instant)
    return LocalTime(clampingHour: parts.hour ?? 0, minute: parts.minute ?? 0)
  }

  /// What leaving a workout out costs: far more than any move, and more the more important it is.
  /// The distance counts up to 1,000 km (a saved plan edited by hand may hold anything, `nan` included).
  func dropCost(_ workout: Workout) -> Int {
    let tenths = workout.distanceKm.isFinite ? Int(min(10_000, max(0, workout.distanceKm * 10))) : 0
    return workout.kind == .race ? 10_000_000 : 1000 * priority(workout) * priority(workout) + tenths
  }

  /// The best placement of the week's items: as few and as unimportant drops as possible, then the smallest total
  /// move in days; distinct days, no two hard days adjacent (also next to the previous week's hard days). An
  /// item missing from the result is dropped.
  func search(_ items: [Item], previousHardDays: Set<Int>) -> [String: CivilDate] {
    var best: (cost: Int, days: [Int?])?
    var chosen: [Int?] = []
    var used: Set<Int> = []
    var hard = previousHardDays
    func visit(_ index: Int, cost: Int) {
      if let best, cost >= best.cost { return }
      if index == items.count {
        best = (cost, chosen)
        return
      }
      let item = items[index]
      for day in item.candidates {
        let n = day.dayNumber
        if used.contains(n) { continue }
        if item.workout.hard && (hard.contains(n - 1) || hard.contains(n + 1)) { continue }
        used.insert(n)
        let wasHard = hard.contains(n)
        if item.workout.hard { hard.insert(n) }
        chosen.append(n)
        visit(index + 1, cost: cost + abs(day.days(to: item.preferred)))
        chosen.removeLast()
        used.remove(n)
        if item.workout.hard && !wasHard { hard.remove(n) }
      }
      chosen.append(nil)
      visit(index + 1, cost: cost + dropCost(item.workout))
      chosen.removeLast()
    }
    visit(0, cost: 0)
    var result: [String: CivilDate] = [:]
    for (item, day) in zip(items, best?.days ?? []) {
      if let day { result[item.workout.id] = CivilDate(dayNumber: day) }
    }
    return result
  }
}

extension SchedulingError {
  /// An unknown zone is a bad input; no room for the runs is what the settings and calendars hold together.
  public var kind: FailureKind {
    switch self {
    case .unknownTimeZone: .badInput
    case .noRoom: .badData
    }
  }
}

import Foundation
import ICalendar
import PlanEngine
import RunningCore
import Scheduling

/// Why a calendar cannot be made or read.
public enum ExportError: RunnerFacingError, Sendable, CustomStringConvertible {
  /// libical refused something we built (a bug) or an unknown time zone.
  case calendarLibrary(ICalendarError)
  /// A busy calendar or previous export that libical cannot read.
  case unreadableCalendar(file: String, ICalendarError)

  /// The message for a runner: one line naming what is wrong and what is allowed.
  public var description: String {
    switch self {
    case .calendarLibrary(let error): return "calendar export failed: \(error)"
    case .unreadableCalendar(let file, let error): return "\(file): \(error)"
    }
  }
}

/// Turns a schedule into an iCalendar calendar: `Schedule → VCalendar`.
///
/// - One VEVENT per workout. Its UID is `<identity>-r<weeks before race week>-<slot>@runningmate`: the plan's
///   identity, the week counted back from race week and the slot of the weekly pattern, never the date or the title,
///   so a re-imported update changes events in place.
/// - Against `options.previous`, an unchanged event keeps its SEQUENCE and DTSTAMP (a re-export with no change is
///   byte-identical); a changed or moved one gets SEQUENCE + 1 and DTSTAMP `now`; an event no longer in the plan is
///   exported once more with STATUS:CANCELLED.
/// - All-day workouts are DATE events with an exclusive DTEND, marked transparent (they do not block the day);
///   timed ones carry their local time and TZID. The race is always busy (OPAQUE), timed or not. Relative
///   reminders go on timed workouts only (on an all-day event they fire at midnight); absolute ones (`20:00` the
///   day before) on both.
public func makeCalendar(for schedule: Schedule, options: ExportOptions, now: Date) throws(ExportError) -> Export {
  var builder = EventBuilder(
    schedule: schedule, options: options,
    zone: TimeZone(identifier: schedule.timeZoneID)
      ?? TimeZone(secondsFromGMT: 0) ?? TimeZone.current)
  let stamp = utcDateTime(now)
  var events: [VEvent] = []
  var changes: [ExportChange] = []
  let workouts = schedule.weeks.reduce(0) { $0 + $1.workouts.count }
  events.reserveCapacity(workouts)
  changes.reserveCapacity(workouts)
  let previous = Dictionary(
    (options.previous?.events ?? []).filter { $0.recurrenceID == nil }.map { ($0.uid, $0) },
    uniquingKeysWith: { first, _ in first })
  // Only a previous export needs the UIDs seen (for its cancellations).
  var seen: Set<String> = []
  let comparing = options.previous != nil
  for week in schedule.weeks {
    let texts = builder.weekTexts(week)
    for item in week.workouts {
      var event = builder.event(for: item, week: texts, stamp: stamp)
      if comparing { seen.insert(event.uid) }
      if comparing, let old = previous[event.uid] {
        if sameContent(old, event) {
          event.sequence = old.sequence
          event.dtstamp = old.dtstamp
          changes.append(ExportChange(uid: event.uid, change: .unchanged, summary: event.summary))
        } else {
          event.sequence = old.sequence + 1
          let moved = old.start != event.start
          changes.append(
            ExportChange(
              uid: event.uid, change: moved ? .moved : .changed, summary: event.summary,
              detail: moved ? "\(describe(old.start)) → \(describe(event.start))" : nil))
        }
      } else {
        changes.append(ExportChange(uid: event.uid, change: .added, summary: event.summary))
      }
      events.append(event)
    }
  }
  for old in options.previous?.events ?? [] where old.recurrenceID == nil && !seen.contains(old.uid) {
    guard old.status != .cancelled else { continue }  // cancelled once already: gone now
    var cancelled = old
    cancelled.status = .cancelled
    cancelled.sequence = old.sequence + 1
    cancelled.dtstamp = stamp
    cancelled.alarms = []
    events.append(cancelled)
    changes.append(ExportChange(uid: old.uid, change: .cancelled, summary: old.summary))
  }
  let calendar = VCalendar(
    prodID: "-//RunningMate//runmate 0.1//EN", method: "PUBLISH", name: options.calendarName,
    events: events)
  return Export(calendar: calendar, changes: changes)
}

/// Equal for calendar clients: times, texts, categories, alarms, status and transparency.
func sameContent(_ a: VEvent, _ b: VEvent) -> Bool {
  sameTimes(a, b) && a.summary == b.summary && a.description == b.description
    && a.categories == b.categories && a.alarms == b.alarms && a.status == b.status && a.transparent == b.transparent
    && a.location == b.location
}

/// Same start and same length. Earlier exports wrote a timed event's end as a local DTEND: it is the same length
/// as a DURATION when its wall clock minus the start's is that duration (no clock change between them; across one,
/// the DTEND was read differently from the run's length, so the event did change).
func sameTimes(_ a: VEvent, _ b: VEvent) -> Bool {
  guard a.start == b.start else { return false }
  if a.end == b.end, a.durationSeconds == b.durationSeconds { return true }
  guard let lengthA = wallClockLength(a), let lengthB = wallClockLength(b) else { return false }
  return lengthA == lengthB
}

/// A timed event's DURATION, or its DTEND's wall clock minus its DTSTART's in the same zone; nil otherwise.
func wallClockLength(_ event: VEvent) -> Int? {
  if let seconds = event.durationSeconds { return seconds }
  guard case .zoned(let start, let startZone) = event.start, case .zoned(let end, let endZone) = event.end,
    startZone == endZone
  else { return nil }
  func seconds(_ t: ICalDateTime) -> Int {
    CivilDate.dayNumber(year: t.year, month: t.month, day: t.day) * 86_400 + t.hour * 3600 + t.minute * 60 + t.second
  }
  return seconds(end) - seconds(start)
}

/// `2027-03-05` or `2027-03-05 06:30 Europe/Berlin`.
func describe(_ time: EventTime) -> String {
  func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
  switch time {
  case .date(let d): return "\(d.year)-\(two(d.month))-\(two(d.day))"
  case .zoned(let t, let tzid): return "\(t.year)-\(two(t.month))-\(two(t.day)) \(two(t.hour)):\(two(t.minute)) \(tzid)"
  case .utc(let t): return "\(t.year)-\(two(t.month))-\(two(t.day)) \(two(t.hour)):\(two(t.minute))Z"
  case .floating(let t): return "\(t.year)-\(two(t.month))-\(two(t.day)) \(two(t.hour)):\(two(t.minute))"
  }
}

/// The UTC wall-clock fields of an instant.
func utcDateTime(_ date: Date) -> ICalDateTime {
  // Plain arithmetic: UTC has no rules to look up.
  utcFields(Int(date.timeIntervalSince1970.rounded(.down)))
}

/// Builds the VEVENT of one scheduled workout.
///
/// The texts are put together by appending into strings reserved at their final size, and what is the same for a
/// whole week or plan (UID prefix, summary prefix, the week line, the plan line, reminder times) is made once: a feed
/// renders every event of a plan each time its plan changes.
struct EventBuilder {
  let schedule: Schedule
  let options: ExportOptions
  /// Wall-clock times in the schedule's zone (Gregorian).
  var zone: ZoneOffsets
  /// `\nPlan <id> · RunningMate`, the description's last line.
  private let planLine: String
  /// `HH:MM` of the times seen so far (a plan has one or a few).
  private var timeTexts: [(time: LocalTime, text: String)] = []

  /// What the events of one week share.
  struct WeekTexts {
    let week: ScheduledWeek
    /// `<identity>-r<weeks before race week, two digits at least>-`.
    let uidPrefix: String
    /// `W<number> `.
    let summaryPrefix: String
    /// `\n\nWeek <n> of <total> · <phase>`, then ` · <first rule>` when the week has one.
    let weekLine: String
  }

  init(schedule: Schedule, options: ExportOptions, zone: TimeZone) {
    self.schedule = schedule
    self.options = options
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    self.zone = ZoneOffsets(calendar: calendar)
    planLine = "\nPlan \(schedule.plan.id) · RunningMate"
  }

  /// The texts the events of `week` share.
  func weekTexts(_ week: ScheduledWeek) -> WeekTexts {
    let countdown = ExportOptions.countdown(of: week.week, in: schedule.plan)
    var weekLine = "\n\nWeek \(week.week.number) of \(schedule.plan.goal.weeks) · \(week.week.phase.rawValue)"
    if let rule = week.week.rules.first { weekLine += " · \(options.units.relabel(rule))" }
    return WeekTexts(
      week: week, uidPrefix: "\(options.identity)-r\(countdown < 10 ? "0" : "")\(countdown)-",
      summaryPrefix: "W\(week.week.number) ", weekLine: weekLine)
  }

  /// `Tempo`, `Long run`, `Race: half marathon`.
  func name(_ workout: Workout) -> String {
    switch workout.kind {
    case .long: return "Long run"
    case .strides: return "Easy + strides"
    case .race: return "Race: \(schedule.plan.goal.distance.displayName)"
    case .easy where workout.title.hasPrefix("Shakeout"): return "Shakeout"
    default: return workout.kind.displayName
    }
  }

  mutating func event(for item: ScheduledWorkout, week: WeekTexts, stamp: ICalDateTime) -> VEvent {
    let workout = item.workout
    let name = name(workout)
    // Cross-training and strength days are in minutes: they have no distance. A long run set by time is its time,
    // with the distance it covers, as in the plan table: `3:00 r/w 9/1 (about 24.7 km)`.
    let distance = options.units.format(workout.distanceKm)
    let amount =
      !workout.kind.isRun
      ? "\(workout.durationMin) min"
      : workout.timeTarget.map { "\($0.clock)\($0.runWalkSuffix) (about \(distance))" } ?? distance
    let summary = joined(week.summaryPrefix, name, " · ", amount)
    let day = ICalDate(year: workout.date.year, month: workout.date.month, day: workout.date.day)
    let start: EventTime
    var end: EventTime?
    var duration: Int?
    if let startInstant = item.start, let endInstant = item.end {
      // A DURATION, not a DTEND: a local DTEND in the repeated hour of a fall-back is read as its first
      // occurrence (RFC 5545 §3.3.5), so a 67-minute run at 01:30 would end at 01:37, 7 minutes later. A start in
      // that hour is written in UTC: consumers read a local one differently (libical and khal take the second).
      start =
        zone.isRepeated(startInstant)
        ? .utc(utcDateTime(startInstant)) : .zoned(zone.dateTime(startInstant), tzid: schedule.timeZoneID)
      duration = Int(endInstant.timeIntervalSince(startInstant).rounded())
    } else {
      start = .date(day)
      let next = workout.date.adding(days: 1)
      end = .date(ICalDate(year: next.year, month: next.month, day: next.day))
    }
    let moved = item.plannedDate.map { "\nMoved from \($0.shortLabel) to fit your calendar." } ?? ""
    var text = joined(describe(workout), week.weekLine, moved, planLine)
    if let note = options.notes[workout.id] { text = joined(text, "\n\n", note) }
    let categories =
      !workout.kind.isRun ? ["Training", name] : workout.kind == .race ? ["Running", "Race"] : ["Running", name]
    return VEvent(
      uid: joined(week.uidPrefix, workout.slot, "@runningmate"), dtstamp: stamp, start: start, end: end,
      summary: summary, description: text, location: nil, categories: categories, sequence: 0, status: nil,
      transparent: item.start == nil && workout.kind != .race, alarms: alarms(for: item, summary: summary),
      recurrenceRule: nil, recurrenceID: nil, durationSeconds: duration)
  }

  /// The workout's description, then its steps as the workout files have them, one a line (none for a workout of
  /// one step done once).
  func describe(_ workout: Workout) -> String {
    let lines = stepLines(workout, targets: options.targets)
    let description = workout.description(in: options.units)
    guard !lines.isEmpty else { return description }
    let steps = options.units.relabel(
      lines.joined(separator: "\n"), exact: [workout.distanceKm] + workout.steps.map(\.distanceKm))
    return joined(description, "\n\n", steps)
  }

  mutating func alarms(for item: ScheduledWorkout, summary: String) -> [VAlarm] {
    var alarms: [VAlarm] = []
    alarms.reserveCapacity(options.reminders.count)
    for reminder in options.reminders {
      switch reminder {
      case .before(let minutes):
        guard let time = item.time else { continue }  // a relative alarm on an all-day event fires at midnight
        alarms.append(
          VAlarm(
            trigger: .relative(seconds: -minutes * 60, fromEnd: false),
            description: joined(summary, " at ", timeText(time))))
      case .at(let time, let daysBefore):
        let day = item.workout.date.adding(days: -daysBefore)
        guard let instant = zone.instant(of: day, hour: time.hour, minute: time.minute) else { continue }
        let when = daysBefore == 0 ? "Today: " : daysBefore == 1 ? "Tomorrow: " : "In \(daysBefore) days: "
        alarms.append(VAlarm(trigger: .absolute(utcDateTime(instant)), description: joined(when, summary)))
      }
    }
    return alarms
  }

  /// `06:30`, made once per time.
  private mutating func timeText(_ time: LocalTime) -> String {
    for known in timeTexts where known.time == time { return known.text }
    let text = time.description
    timeTexts.append((time, text))
    return text
  }
}

/// The parts one after the other, in one string allocated at its final size (no array of parts either: these run
/// a few times per event).
private func joined(_ a: String, _ b: String, _ c: String = "", _ d: String = "") -> String {
  var text = ""
  text.reserveCapacity(a.utf8.count + b.utf8.count + c.utf8.count + d.utf8.count)
  text += a
  text += b
  if !c.isEmpty { text += c }
  if !d.isEmpty { text += d }
  return text
}

extension ExportError {
  /// A calendar that cannot be made from what is stored.
  public var kind: FailureKind { .badData }
}

import CalendarExport
import Foundation
import ICalendar
import PlanEngine
import RunMateTestSupport
import RunningCore
import Scheduling
import Testing

/// Export through real libical, parsed back through real libical.
@Suite struct CalendarExportTests {
  static let now = Date(timeIntervalSince1970: 1_795_219_200)  // 2026-11-21T00:00:00Z

  func plan(
    _ distance: RaceDistance = .half, _ level: Level = .intermediate, weeks: Int = 12, runs: Int? = nil,
    start: String = "2027-01-25", currentKm: Double? = nil
  ) throws -> Plan {
    let first = try #require(CivilDate(iso: start))
    let timeline = Timeline(start: first, raceDate: first.adding(days: 7 * weeks - 1), weeks: weeks)
    return try makePlan(
      goal: Goal(
        distance: distance, level: level, timeline: timeline, runsPerWeek: runs,
        currentWeeklyKm: currentKm), rules: repositoryRules)
  }

  func export(
    _ schedule: Schedule, previous: VCalendar? = nil,
    reminders: [Reminder] = ExportOptions.defaultReminders, now: Date = now
  ) throws -> Export {
    let options = ExportOptions(
      reminders: reminders, identity: ExportOptions.identity(of: schedule.plan),
      calendarName: "Test", previous: previous)
    return try makeCalendar(for: schedule, options: options, now: now)
  }

  func timed(_ zone: String, _ plan: Plan) throws -> Schedule {
    let preferences = SchedulingPreferences(defaultTime: LocalTime(clampingHour: 6, minute: 30), timeZoneID: zone)
    return try makeSchedule(plan, preferences: preferences)
  }

  @Test(arguments: ["Europe/Berlin", "America/New_York"])
  func roundTripKeepsEveryDateTimeUIDAndAlarm(zone: String) throws {
    // 2027-01-25 + 12 weeks spans both zones' March DST changes.
    let schedule = try timed(zone, try plan())
    let exported = try export(schedule)
    let text = try exported.calendar.serialized()
    let parsed = try VCalendar.parse(text)
    #expect(parsed.events.count == schedule.workouts.count)
    #expect(Set(parsed.events.map(\.uid)).count == parsed.events.count)
    let byUID = Dictionary(uniqueKeysWithValues: parsed.events.map { ($0.uid, $0) })
    var tz = Calendar(identifier: .gregorian)
    tz.timeZone = try #require(TimeZone(identifier: zone))
    for (event, item) in zip(exported.calendar.events, schedule.workouts) {
      let back = try #require(byUID[event.uid])
      #expect(back == event, "\(event.uid)")
      let date = item.workout.date
      switch back.start {
      case .zoned(let t, let tzid):
        #expect(tzid == zone)
        #expect((t.year, t.month, t.day, t.hour, t.minute) == (date.year, date.month, date.day, 6, 30))
        let start = try #require(item.start)
        let local = tz.dateComponents([.hour, .minute], from: start)
        #expect(local.hour == 6 && local.minute == 30)
        #expect(back.alarms.contains { $0.trigger == .relative(seconds: -1800, fromEnd: false) })
      case .date(let d):
        #expect(item.workout.kind == .race)
        #expect((d.year, d.month, d.day) == (date.year, date.month, date.day))
      default:
        Issue.record("unexpected start \(back.start)")
      }
      #expect(back.summary.hasPrefix("W"))
      #expect(back.sequence == 0)
    }
    #expect(!text.contains("freeassociation"))
    #expect(text.contains("TZID:\(zone)"))
    #expect(text.contains("METHOD:PUBLISH"))
  }

  @Test func aRaceStartTimeMakesTheRaceTimedAndBusy() throws {
    let plan = try plan(.tenK, .beginner, weeks: 8)
    let preferences = SchedulingPreferences(
      timeZoneID: "Europe/Berlin",
      raceStart: LocalTime(hour: 9, minute: 30))
    let schedule = try makeSchedule(plan, preferences: preferences)
    let exported = try export(schedule)
    let race = try #require(exported.calendar.events.first { $0.categories.contains("Race") })
    let day = plan.goal.raceDate
    #expect(
      race.start
        == .zoned(
          ICalDateTime(
            year: day.year, month: day.month, day: day.day, hour: 9, minute: 30,
            second: 0), tzid: "Europe/Berlin"))
    #expect(!race.transparent)
    // Training stays all-day without --at: the race time is the race's only.
    let training = exported.calendar.events.filter { !$0.categories.contains("Race") }
    #expect(training.allSatisfy { $0.transparent })
  }

  @Test func allDayEventsUseDatesAndAbsoluteReminders() throws {
    let schedule = try makeSchedule(
      try plan(.tenK, .beginner, weeks: 8), preferences: SchedulingPreferences(timeZoneID: "Europe/Berlin"))
    let exported = try export(schedule)
    for (event, item) in zip(exported.calendar.events, schedule.workouts) {
      let day = item.workout.date
      let next = day.adding(days: 1)
      #expect(event.start == .date(ICalDate(year: day.year, month: day.month, day: day.day)))
      #expect(event.end == .date(ICalDate(year: next.year, month: next.month, day: next.day)))
      // All-day training does not block the day; the race does (OPAQUE), timed or not.
      #expect(event.transparent == (item.workout.kind != .race))
      // No relative alarm (it would fire at midnight); 20:00 Berlin the evening before, in UTC.
      #expect(event.alarms.count == 1)
      let before = day.adding(days: -1)
      let winter = before.month <= 3 && !(before.month == 3 && before.day >= 28)
      let expected = ICalDateTime(
        year: before.year, month: before.month, day: before.day,
        hour: winter ? 19 : 18, minute: 0, second: 0)
      #expect(event.alarms.first?.trigger == .absolute(expected), "\(event.uid)")
    }
  }

  @Test func reExportWithoutChangeIsByteIdenticalAndLaterDTSTAMPDoesNotMatter() throws {
    let schedule = try timed("Europe/Berlin", try plan())
    let first = try export(schedule).calendar.serialized()
    let again = try export(
      schedule, previous: try VCalendar.parse(first),
      now: Self.now.addingTimeInterval(86_400 * 3)
    ).calendar.serialized()
    #expect(first == again)
  }

  @Test func updatedPlanKeepsUIDsAndBumpsSequenceOnlyWhereChanged() throws {
    let plan = try plan()
    let before = try export(try timed("Europe/Berlin", plan))
    let previous = try VCalendar.parse(try before.calendar.serialized())
    // The runner blacks out one Saturday: that week's workouts move, nothing else changes.
    let saturday = try #require(CivilDate(iso: "2027-02-13"))
    var preferences = SchedulingPreferences(
      defaultTime: LocalTime(clampingHour: 6, minute: 30),
      timeZoneID: "Europe/Berlin")
    preferences.blackouts = [saturday...saturday]
    let later = Self.now.addingTimeInterval(86_400)
    let after = try export(try makeSchedule(plan, preferences: preferences), previous: previous, now: later)
    let old = Dictionary(uniqueKeysWithValues: previous.events.map { ($0.uid, $0) })
    #expect(Set(after.calendar.events.map(\.uid)) == Set(old.keys))
    var changed = 0
    for event in after.calendar.events {
      let was = try #require(old[event.uid])
      if event.start == was.start && event.description == was.description {
        #expect(event.sequence == was.sequence && event.dtstamp == was.dtstamp, "\(event.uid)")
      } else {
        changed += 1
        #expect(event.sequence == was.sequence + 1, "\(event.uid)")
        #expect(event.dtstamp == ICalDateTime(year: 2026, month: 11, day: 22, hour: 0, minute: 0, second: 0))
      }
    }
    #expect(changed >= 1)
    #expect(after.changes.contains { $0.change == .moved })
    #expect(after.changes.filter { $0.change != .unchanged }.count == changed)
  }

  @Test func removedWorkoutsAreCancelledOnceThenGone() throws {
    let five = try timed("UTC", try plan(runs: 5))
    let four = try timed("UTC", try plan(runs: 4))
    let first = try VCalendar.parse(try export(five).calendar.serialized())
    let update = try export(four, previous: first)
    let cancelled = update.calendar.events.filter { $0.status == .cancelled }
    #expect(!cancelled.isEmpty)
    #expect(cancelled.count == first.events.count - four.workouts.count)
    for event in cancelled {
      let was = try #require(first.events.first { $0.uid == event.uid })
      #expect(event.sequence == was.sequence + 1)
      #expect(event.alarms.isEmpty)
    }
    #expect(update.changes.filter { $0.change == .cancelled }.count == cancelled.count)
    // Exported once: the next export against the update no longer carries them.
    let next = try export(four, previous: try VCalendar.parse(try update.calendar.serialized()))
    #expect(!next.calendar.events.contains { $0.status == .cancelled })
    #expect(next.calendar.events.count == four.workouts.count)
  }

  @Test func identityIsTheRaceNotTheLevel() throws {
    let a = try plan(.half, .intermediate)
    let b = try plan(.half, .advanced)
    let c = try plan(.half, .intermediate, weeks: 13)
    #expect(ExportOptions.identity(of: a) == ExportOptions.identity(of: b))
    #expect(ExportOptions.identity(of: a) != ExportOptions.identity(of: c))
    let uidsA = Set(try export(try timed("UTC", a)).calendar.events.map(\.uid))
    let uidsB = Set(try export(try timed("UTC", b)).calendar.events.map(\.uid))
    #expect(!uidsA.intersection(uidsB).isEmpty)
  }

  @Test func remindersParse() {
    #expect(Reminder(parsing: "30m") == .before(minutes: 30))
    #expect(Reminder(parsing: "2h") == .before(minutes: 120))
    #expect(Reminder(parsing: "1d") == .before(minutes: 1440))
    #expect(Reminder(parsing: "06:00") == .at(LocalTime(clampingHour: 6, minute: 0), daysBefore: 0))
    #expect(Reminder(parsing: "20:00-1d") == .at(LocalTime(clampingHour: 20, minute: 0), daysBefore: 1))
    #expect(Reminder(parsing: "soon") == nil)
    #expect(Reminder(parsing: "25:00") == nil)
    #expect(Reminder(parsing: "-5m") == nil)
  }

  @Test func remindersBeyondAWeekAreRefusedWithoutOverflow() {
    #expect(Reminder(parsing: "7d") == .before(minutes: 7 * 1440))
    #expect(Reminder(parsing: "168h") == .before(minutes: 7 * 1440))
    #expect(Reminder(parsing: "8d") == nil)
    #expect(Reminder(parsing: "169h") == nil)
    #expect(Reminder(parsing: "9223372036854775807h") == nil)
    #expect(Reminder(parsing: "9223372036854775807d") == nil)
    #expect(Reminder(parsing: "99999999999999999999m") == nil)
    #expect(Reminder(parsing: "nanm") == nil)
    #expect(Reminder(parsing: "20:00-9223372036854775807d") == nil)
  }
}

import Foundation
import PlanEngine
import RunMateTestSupport
import RunningCore
import Scheduling
import Testing

@Suite struct SchedulerTests {
  func plan(
    _ distance: RaceDistance = .tenK, _ level: Level = .intermediate, weeks: Int = 10,
    start: String = "2027-01-04"
  ) throws -> Plan {
    let first = try #require(CivilDate(iso: start))
    let timeline = Timeline(start: first, raceDate: first.adding(days: 7 * weeks - 1), weeks: weeks)
    return try makePlan(goal: Goal(distance: distance, level: level, timeline: timeline), rules: repositoryRules)
  }

  func time(_ text: String) throws -> LocalTime { try #require(LocalTime(parsing: text)) }

  /// Local wall-clock hour and minute, and the UTC offset in hours, of an instant in `zone`.
  func local(_ date: Date, _ zone: String) throws -> (hour: Int, minute: Int, offsetHours: Int) {
    let tz = try #require(TimeZone(identifier: zone))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = tz
    let parts = calendar.dateComponents([.hour, .minute], from: date)
    return (parts.hour ?? -1, parts.minute ?? -1, tz.secondsFromGMT(for: date) / 3600)
  }

  @Test(arguments: [("Europe/Berlin", "2027-03-28", 1, 2), ("America/New_York", "2027-03-14", -5, -4)])
  func timedRunsKeepTheirLocalTimeAcrossDST(zone: String, change: String, before: Int, after: Int) throws {
    // A plan whose weeks span the spring DST change of the zone.
    let plan = try plan(.half, .intermediate, weeks: 12, start: "2027-01-25")
    let preferences = SchedulingPreferences(defaultTime: try time("06:30"), timeZoneID: zone)
    let schedule = try makeSchedule(plan, preferences: preferences)
    let changeDay = try #require(CivilDate(iso: change))
    let timed = schedule.workouts.filter { $0.start != nil }
    #expect(timed.count == schedule.workouts.count - 1)  // all but the race
    var sawBefore = false
    var sawAfter = false
    for item in timed {
      let start = try #require(item.start)
      let wall = try local(start, zone)
      #expect(wall.hour == 6 && wall.minute == 30, "\(item.workout.date)")
      if item.workout.date < changeDay {
        #expect(wall.offsetHours == before)
        sawBefore = true
      } else {
        #expect(wall.offsetHours == after)
        sawAfter = true
      }
      let end = try #require(item.end)
      #expect(end.timeIntervalSince(start) == Double(item.workout.durationMin) * 60)
    }
    #expect(sawBefore && sawAfter)
  }

  @Test func runDaysAndLongRunDayAreRespectedWithoutAdjacentHardDays() throws {
    let plan = try plan(.half, .advanced, weeks: 14)
    let days: Set<Weekday> = [.monday, .tuesday, .thursday, .friday, .saturday]
    let preferences = SchedulingPreferences(runDays: days, longRunDay: .saturday, timeZoneID: "Europe/Berlin")
    let schedule = try makeSchedule(plan, preferences: preferences)
    for item in schedule.workouts where item.workout.kind != .race {
      #expect(days.contains(item.workout.date.weekday), "\(item.workout.id) on \(item.workout.date.weekday)")
    }
    for item in schedule.workouts where item.workout.kind == .long {
      #expect(item.workout.date.weekday == .saturday)
    }
    let hardDays = schedule.workouts.filter(\.workout.hard).map(\.workout.date.dayNumber).sorted()
    for (a, b) in zip(hardDays, hardDays.dropFirst()) { #expect(b - a >= 2, "hard days \(a) and \(b)") }
    // Every workout stays in its plan week, and the race stays on race day.
    for week in schedule.weeks {
      for item in week.workouts {
        #expect(week.week.start <= item.workout.date && item.workout.date <= week.week.start.adding(days: 6))
      }
    }
    #expect(schedule.workouts.last?.workout.kind == .race)
    #expect(schedule.workouts.last?.workout.date == plan.goal.raceDate)
    // Five run days for five runs: nothing dropped.
    #expect(!schedule.notes.contains { $0.kind == .dropped })
  }

  @Test func blackoutDaysAreEmptyAndMovesAreReported() throws {
    let plan = try plan()
    let first = try #require(CivilDate(iso: "2027-01-14"))
    let last = try #require(CivilDate(iso: "2027-01-17"))
    let preferences = SchedulingPreferences(timeZoneID: "UTC", blackouts: [first...last])
    let schedule = try makeSchedule(plan, preferences: preferences)
    #expect(!schedule.workouts.contains { (first...last).contains($0.workout.date) })
    let week2 = try #require(schedule.weeks.first { $0.week.number == 2 })
    // The long run (planned Sunday 17 Jan) survives, moved earlier in its week; the move is a note.
    let long = try #require(week2.workouts.first { $0.workout.kind == .long })
    #expect(long.workout.date < first)
    #expect(
      schedule.notes.contains {
        $0.kind == .moved && $0.workoutID == long.workout.id
          && $0.text.contains("Sun 17 Jan is a blackout date")
      })
    // Week 2 (base: long run, hill repeats, two easy runs, one with strides: a 10K week without repetition-pace work)
    // has three free days (Mon 11 … Wed 13). Monday follows week 1's Sunday long run and Tuesday touches Wednesday,
    // so only one of Tue/Wed can hold a hard workout: the long run takes it, the easy runs take the other two days,
    // and the hill session is dropped.
    #expect(week2.week.phase == .base)
    #expect(week2.workouts.map(\.workout.kind).sorted { $0.rawValue < $1.rawValue } == [.easy, .long, .strides])
    let dropped = schedule.notes.filter { $0.kind == .dropped && $0.week == 2 }
    #expect(dropped.count == 1)
    #expect(dropped.first?.text.contains("Hills") == true)
    #expect(!schedule.notes.contains { $0.kind == .dropped && $0.text.contains("LONG RUN") })
  }

  @Test func timedWorkoutsAvoidBusyTime() throws {
    let plan = try plan()
    let zone = "America/New_York"
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: zone))
    // Busy 06:00-08:00 on every Tuesday of the plan: the Tuesday quality session moves.
    var busy: [BusyTime] = []
    for week in plan.weeks {
      let tuesday = week.start.adding(days: 1)
      let start = try #require(
        calendar.date(
          from: DateComponents(
            year: tuesday.year, month: tuesday.month,
            day: tuesday.day, hour: 6)))
      busy.append(BusyTime(start: start, end: start.addingTimeInterval(7200), summary: "Standup"))
    }
    let preferences = SchedulingPreferences(defaultTime: try time("06:30"), timeZoneID: zone)
    let schedule = try makeSchedule(plan, preferences: preferences, busy: busy)
    for item in schedule.workouts {
      guard let start = item.start, let end = item.end else { continue }
      #expect(!busy.contains { $0.start < end && $0.end > start }, "\(item.workout.id) overlaps busy time")
    }
    #expect(schedule.workouts.allSatisfy { $0.workout.date.weekday != .tuesday })
    #expect(schedule.notes.contains { $0.kind == .moved && $0.text.contains("busy at 06:30 (Standup)") })
  }

  @Test func allDayWorkoutsNeedAFreeWindow() throws {
    let plan = try plan()
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    // Sunday 17 Jan busy from 05:00 to 22:00: no room for the long run in the 06:00-21:00 window.
    let start = try #require(calendar.date(from: DateComponents(year: 2027, month: 1, day: 17, hour: 5)))
    let busy = [BusyTime(start: start, end: start.addingTimeInterval(17 * 3600), summary: "Family visit")]
    let schedule = try makeSchedule(plan, preferences: SchedulingPreferences(timeZoneID: "UTC"), busy: busy)
    let long = try #require(schedule.weeks[1].workouts.first { $0.workout.kind == .long })
    #expect(long.workout.date != CivilDate(iso: "2027-01-17"))
    #expect(long.start == nil)
  }

  @Test func tooFewRunDaysDropLeastImportantFirst() throws {
    let plan = try plan(.tenK, .intermediate, weeks: 10)
    let preferences = SchedulingPreferences(runDays: [.wednesday, .sunday], timeZoneID: "UTC")
    let schedule = try makeSchedule(plan, preferences: preferences)
    for week in schedule.weeks where week.week.phase != .race {
      // The long run is always kept; with two days, the other day holds the most important other workout.
      #expect(week.workouts.contains { $0.workout.kind == .long }, "week \(week.week.number)")
      #expect(week.workouts.count == 2)
      #expect(
        !week.workouts.contains { $0.workout.kind == .easy || $0.workout.kind == .recovery }
          || !week.week.workouts.contains { $0.hard && $0.kind != .long })
    }
    let placed = schedule.workouts.count
    let dropped = schedule.notes.filter { $0.kind == .dropped }.count
    #expect(placed + dropped == plan.workouts.count)
  }

  @Test func unknownTimeZoneIsRefusedWithASuggestion() throws {
    let plan = try plan()
    #expect(throws: SchedulingError.unknownTimeZone("Europe/Berln", suggestion: "Europe/Berlin")) {
      try makeSchedule(plan, preferences: SchedulingPreferences(timeZoneID: "Europe/Berln"))
    }
    // A city alone gets its zone, as everywhere a zone is suggested.
    #expect(throws: SchedulingError.unknownTimeZone("london", suggestion: "Europe/London")) {
      try makeSchedule(plan, preferences: SchedulingPreferences(timeZoneID: "london"))
    }
    #expect(
      SchedulingError.unknownTimeZone("Europe/Berln", suggestion: "Europe/Berlin").description
        == "time zone: 'Europe/Berln' is not a known time zone, allowed is an IANA name such as Europe/Berlin or "
        + "America/New_York (did you mean 'Europe/Berlin'?)")
  }

  @Test func aCalendarWithNoRoomIsRefused() throws {
    let plan = try plan()
    // Busy every day from 05:00 to 23:00 in weeks 3 and 4.
    var busy: [BusyTime] = []
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    for offset in 14..<28 {
      let day = plan.goal.start.adding(days: offset)
      let start = try #require(
        calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 5)))
      busy.append(BusyTime(start: start, end: start.addingTimeInterval(18 * 3600), summary: "Conference"))
    }
    #expect(
      throws: SchedulingError.noRoom(
        placed: plan.workouts.count - 8, total: plan.workouts.count,
        emptyWeeks: [3, 4])
    ) {
      try makeSchedule(plan, preferences: SchedulingPreferences(timeZoneID: "UTC"), busy: busy)
    }
  }

  @Test func sameInputsSameSchedule() throws {
    let plan = try plan()
    let preferences = SchedulingPreferences(
      runDays: [.monday, .wednesday, .friday, .sunday], longRunDay: .sunday,
      defaultTime: try time("18:00"), timeZoneID: "Europe/Berlin")
    #expect(try makeSchedule(plan, preferences: preferences) == makeSchedule(plan, preferences: preferences))
  }
}

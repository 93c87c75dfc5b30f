import PlanEngine
import RunMateTestSupport
import RunningCore
import Testing

@Suite struct TimelineTests {
  let today = CivilDate(iso: "2026-11-21") ?? CivilDate(dayNumber: 0)  // a Saturday

  @Test func civilDateArithmeticAndWeekdays() throws {
    let date = try #require(CivilDate(iso: "2027-03-28"))
    #expect(date.weekday == .sunday)
    #expect(date.adding(days: 1).description == "2027-03-29")
    #expect(try #require(CivilDate(iso: "2028-02-28")).adding(days: 1).description == "2028-02-29")
    #expect(try #require(CivilDate(iso: "2027-12-31")).adding(days: 1).description == "2028-01-01")
    #expect(CivilDate(iso: "2027-02-29") == nil)
    #expect(CivilDate(iso: "2027-2-3") == nil)
    #expect(CivilDate(dayNumber: 0).description == "1970-01-01")
    #expect(today.next(.monday).description == "2026-11-23")
    #expect(try #require(CivilDate(iso: "2026-11-23")).next(.monday).description == "2026-11-30")
  }

  @Test func weeksAloneStartNextMondayAndEndOnSunday() throws {
    let timeline = try Timeline.resolve(weeks: 12, raceDate: nil, start: nil, today: today, maxWeeks: 40)
    #expect(timeline.start.description == "2026-11-23")
    #expect(timeline.raceDate.description == "2027-02-14")
    #expect(timeline.raceDate.weekday == .sunday)
  }

  @Test func issue22Case7ThursdayStartRacesOnTheLongRunDay() throws {
    // `plan --distance 10k --level beginner --weeks 8 --start 2026-11-26` (a Thursday) raced on Wed 20 Jan 2027.
    let start = try #require(CivilDate(iso: "2026-11-26"))
    let sunday = try Timeline.resolve(
      weeks: 8, raceDate: nil, start: start, today: today, maxWeeks: 40, longRunDay: .sunday)
    #expect(sunday.raceDate.description == "2027-01-17")
    #expect(sunday.weeks == 8 && sunday.start == start)
    let saturday = try Timeline.resolve(
      weeks: 8, raceDate: nil, start: start, today: today, maxWeeks: 40, longRunDay: .saturday)
    #expect(saturday.raceDate.description == "2027-01-16")
    // The long-run day on the start's own weekday: the last week's first day.
    let thursday = try Timeline.resolve(
      weeks: 8, raceDate: nil, start: start, today: today, maxWeeks: 40, longRunDay: .thursday)
    #expect(thursday.raceDate.description == "2027-01-14")
  }

  @Test func mondayStartWithSundayLongRunKeepsItsDates() throws {
    let given = try Timeline.resolve(
      weeks: 12, raceDate: nil, start: nil, today: today, maxWeeks: 40, longRunDay: .sunday)
    let before = try Timeline.resolve(weeks: 12, raceDate: nil, start: nil, today: today, maxWeeks: 40)
    #expect(given == before)
    #expect(given.raceDate.description == "2027-02-14")
  }

  @Test func raceOffTheLongRunDaySaysWhichDayItIs() throws {
    let race = try #require(CivilDate(iso: "2027-01-20"))
    let timeline = try Timeline.resolve(weeks: nil, raceDate: race, start: nil, today: today, maxWeeks: 40)
    #expect(
      timeline.raceDayNote(longRunDay: .sunday)
        == "race on Wednesday 20 Jan 2027: your long-run day is Sunday; the long runs stay on Sunday")
    #expect(timeline.raceDayNote(longRunDay: .wednesday) == nil)
  }

  @Test func weekStartMovesTheDefaultStart() throws {
    let timeline = try Timeline.resolve(
      weeks: 10, raceDate: nil, start: nil, today: today, maxWeeks: 40,
      weekStart: .sunday)
    #expect(timeline.start.description == "2026-11-22")
    #expect(timeline.raceDate.weekday == .saturday)
  }

  @Test func raceDateAloneCountsWeeksFromNextMonday() throws {
    let race = try #require(CivilDate(iso: "2027-04-24"))  // a Saturday
    let timeline = try Timeline.resolve(weeks: nil, raceDate: race, start: nil, today: today, maxWeeks: 40)
    #expect(timeline.start.description == "2026-11-23")
    #expect(timeline.weeks == 22)
    #expect(timeline.raceDate == race)
  }

  @Test func weeksAndRaceDateCountBackFromRaceDay() throws {
    let race = try #require(CivilDate(iso: "2027-04-25"))
    let timeline = try Timeline.resolve(weeks: 16, raceDate: race, start: nil, today: today, maxWeeks: 40)
    #expect(timeline.start.description == "2027-01-04")
    #expect(timeline.start.weekday == .monday)
  }

  @Test func disagreeingTimelineIsRefused() throws {
    let race = try #require(CivilDate(iso: "2027-04-25"))
    let start = try #require(CivilDate(iso: "2027-01-04"))
    #expect(throws: PlanError.inconsistentTimeline(weeks: 10, start: start, raceDate: race)) {
      try Timeline.resolve(weeks: 10, raceDate: race, start: start, today: today, maxWeeks: 40)
    }
    #expect(
      PlanError.inconsistentTimeline(weeks: 10, start: start, raceDate: race).description
        == "weeks 10, start 2027-01-04 and race date 2027-04-25 disagree: a 10-week plan from 2027-01-04 has its "
        + "race between 2027-03-08 and 2027-03-14; drop one of the three")
  }

  @Test func pastRaceAndStartAfterRaceAreRefused() throws {
    #expect(throws: PlanError.raceDateNotInFuture(raceDate: today, today: today)) {
      try Timeline.resolve(weeks: nil, raceDate: today, start: nil, today: today, maxWeeks: 40)
    }
    let race = try #require(CivilDate(iso: "2027-01-10"))
    let start = try #require(CivilDate(iso: "2027-01-11"))
    #expect(throws: PlanError.startNotBeforeRace(start: start, raceDate: race)) {
      try Timeline.resolve(weeks: nil, raceDate: race, start: start, today: today, maxWeeks: 40)
    }
  }

  @Test func raceTooFarAwayIsRefusedWithTheLastAllowedDate() throws {
    let race = try #require(CivilDate(iso: "2028-06-01"))
    #expect(throws: PlanError.self) {
      try Timeline.resolve(weeks: nil, raceDate: race, start: nil, today: today, maxWeeks: 40)
    }
    do {
      _ = try Timeline.resolve(weeks: nil, raceDate: race, start: nil, today: today, maxWeeks: 40)
    } catch {
      #expect(
        error.description == "race date: 2028-06-01 is out of range, allowed is at most 40 weeks after the start "
          + "(2026-11-23), that is on or before 2027-08-29; use start to begin later")
    }
  }
}

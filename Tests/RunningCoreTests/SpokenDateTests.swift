import RunningCore
import Testing

/// Days as people say them, against a plain definition of GNU `date -d`'s weekday rules (the first such day on or
/// after today, the first after today, the last before today) found by walking the calendar day by day.
struct SpokenDateTests {
  /// Friday 2027-01-08, the day the examples in ``SpokenDate``'s documentation are seen from.
  static let friday = CivilDate(dayNumber: CivilDate.dayNumber(year: 2027, month: 1, day: 8))

  @Test func theDocumentedExamples() throws {
    let today = Self.friday
    let expected: [(String, String)] = [
      ("today", "2027-01-08"), ("tomorrow", "2027-01-09"), ("Yesterday", "2027-01-07"),
      ("sunday", "2027-01-10"), ("this sunday", "2027-01-10"), ("sun", "2027-01-10"), ("next sunday", "2027-01-10"),
      ("friday", "2027-01-08"), ("next friday", "2027-01-15"), ("last friday", "2027-01-01"),
      ("last monday", "2027-01-04"), ("in 3 weeks", "2027-01-29"), ("in 10 days", "2027-01-18"),
      ("in a week", "2027-01-15"), ("in two weeks", "2027-01-22"), ("in 2 months", "2027-03-08"),
      ("2 days ago", "2027-01-06"), ("a week ago", "2027-01-01"), (" 2027-03-14 ", "2027-03-14"),
    ]
    for (text, date) in expected {
      #expect(SpokenDate.day(text, today: today)?.description == date, "\(text)")
    }
  }

  @Test func weekdaysFollowGNUDateOnEveryDayOfTheWeek() {
    for offset in 0..<14 {
      let today = Self.friday.adding(days: offset)
      for day in Weekday.allCases {
        let name = SpokenDate.weekdayName(day)
        let onOrAfter = (0...6).map { today.adding(days: $0) }.first { $0.weekday == day }
        let after = (1...7).map { today.adding(days: $0) }.first { $0.weekday == day }
        let before = (1...7).map { today.adding(days: -$0) }.first { $0.weekday == day }
        #expect(SpokenDate.day(name, today: today) == onOrAfter, "\(name) from \(today)")
        #expect(SpokenDate.day("this \(name)", today: today) == onOrAfter, "this \(name) from \(today)")
        #expect(SpokenDate.day("next \(name)", today: today) == after, "next \(name) from \(today)")
        #expect(SpokenDate.day("last \(name)", today: today) == before, "last \(name) from \(today)")
      }
    }
  }

  @Test func monthsKeepTheDayOrTakeTheMonthsLast() {
    let endOfJanuary = CivilDate(dayNumber: CivilDate.dayNumber(year: 2027, month: 1, day: 31))
    #expect(SpokenDate.day("in 1 month", today: endOfJanuary)?.description == "2027-02-28")
    #expect(SpokenDate.day("in 13 months", today: endOfJanuary)?.description == "2028-02-29")
    #expect(SpokenDate.day("2 months ago", today: endOfJanuary)?.description == "2026-11-30")
  }

  @Test func otherTextsNameNoDay() {
    for text in [
      "", "next", "sunday next", "in weeks", "in 3", "3 weeks", "in 3 fortnights", "su", "2027-02-30", "27-01-08",
      "in 1000 days", "next next sunday", "last", "tomorrow morning",
    ] {
      #expect(SpokenDate.day(text, today: Self.friday) == nil, "\(text)")
    }
  }

  @Test func typosGetTheWordsThatNameADay() {
    #expect(SpokenDate.suggestion(for: "nxt sunday", today: Self.friday) == "next sunday")
    #expect(SpokenDate.suggestion(for: "tomorow", today: Self.friday) == "tomorrow")
    #expect(SpokenDate.suggestion(for: "in 3 weeeks", today: Self.friday) == "in 3 weeks")
    #expect(SpokenDate.suggestion(for: "sundya", today: Self.friday) == "sunday")
    #expect(SpokenDate.suggestion(for: "whenever", today: Self.friday) == nil)
    #expect(SpokenDate.suggestion(for: "sunday", today: Self.friday) == nil)
  }

  @Test func aLoneWeekdayIsKnownForRanges() {
    #expect(SpokenDate.isWeekdayName("friday"))
    #expect(SpokenDate.isWeekdayName("this fri"))
    #expect(!SpokenDate.isWeekdayName("next friday"))
    #expect(!SpokenDate.isWeekdayName("2027-01-08"))
  }
}

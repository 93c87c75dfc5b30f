import Foundation
import RunMateTestSupport
import Testing

@testable import ICalendar

/// `serialized()` writes events property by property and reuses the text of repeated values; the reference
/// builds the whole VCALENDAR tree with libical and lets one `icalcomponent_as_ical_string_r` write it. The two
/// must give the same bytes.
@Suite("The event writer against libical's whole-tree serialization")
struct WriterTests {
  /// Calendars that use every property, parameter and value shape the serializer writes, with more distinct
  /// repeated values (categories, sequences, triggers) than the writer keeps, in changing order.
  static func variedCalendar(seed: UInt64, events count: Int) -> VCalendar {
    var random = SplitMix(seed: seed)
    let zones = ["Europe/Berlin", "America/New_York", "UTC", "GMT", "Australia/Lord_Howe", "Asia/Kolkata"]
    let categorySets: [[String]] = [
      [], ["Running"], ["Running", "Easy"], ["Running", "Long run"], ["Race"], ["", "Tempo"], ["Training", ""],
      ["Läufer", "Ruhetag"], ["a;b", "c\\d"], ["Intervals"], ["Running", "Hills"], ["Strength"],
    ]
    let texts = [
      "", "Easy run", "Läufer · 5 km, easy; keep HR < 145\nStretch: 10 min, \"calves\" \\ hamstrings.",
      String(repeating: "A long description that folds over several lines; ", count: 6),
      String(repeating: "ü€😀", count: 40), "Comma, semicolon; backslash \\ and newline\n",
    ]
    var events: [VEvent] = []
    for index in 0..<count {
      let day = 1 + index % 28
      let month = 1 + (index / 28) % 12
      let zone = zones[Int(random.next() % UInt64(zones.count))]
      let hour = Int(random.next() % 24)
      let startTime = ICalDateTime(year: 2027, month: month, day: day, hour: hour, minute: 15)
      let endTime = ICalDateTime(year: 2027, month: month, day: day, hour: hour, minute: 55)
      let start: EventTime
      var end: EventTime?
      var duration: Int?
      switch random.next() % 5 {
      case 0:
        start = .date(ICalDate(year: 2027, month: month, day: day))
        end = .date(ICalDate(year: 2027, month: month, day: day).adding(days: 1))
      case 1:
        start = .utc(startTime)
        end = .utc(endTime)
      case 2:
        start = .floating(startTime)
        duration = Int(random.next() % 4) * 900
      default:
        start = .zoned(startTime, tzid: zone)
        if random.next() % 3 == 0 { duration = 3600 } else { end = .zoned(endTime, tzid: zone) }
      }
      var alarms: [VAlarm] = []
      for alarm in 0..<Int(random.next() % 4) {
        let trigger: VAlarm.Trigger =
          switch random.next() % 4 {
          case 0: .absolute(ICalDateTime(year: 2027, month: month, day: day, hour: alarm, minute: 0))
          case 1: .relative(seconds: 0, fromEnd: true)
          default: .relative(seconds: -Int(random.next() % 12) * 900, fromEnd: false)
          }
        alarms.append(VAlarm(trigger: trigger, description: texts[Int(random.next() % UInt64(texts.count))]))
      }
      let statuses: [VEvent.Status?] = [nil, .tentative, .confirmed, .cancelled]
      events.append(
        VEvent(
          uid: "event-\(index)@writer.tests",
          dtstamp: ICalDateTime(year: 2027, month: 1, day: 1 + index % 3, hour: 0, minute: 0),
          start: start, end: end, summary: texts[Int(random.next() % UInt64(texts.count))],
          description: random.next() % 4 == 0 ? nil : texts[Int(random.next() % UInt64(texts.count))],
          location: random.next() % 3 == 0 ? "Tiergarten, Berlin; gate 2" : nil,
          categories: categorySets[Int(random.next() % UInt64(categorySets.count))],
          sequence: Int(random.next() % 11), status: statuses[Int(random.next() % 4)],
          transparent: random.next() % 2 == 0, alarms: alarms,
          recurrenceRule: random.next() % 7 == 0 ? "FREQ=WEEKLY;COUNT=4" : nil,
          durationSeconds: end == nil ? duration : nil))
    }
    return VCalendar(prodID: "-//RunningMate//writer tests//EN", method: "PUBLISH", name: "Writer", events: events)
  }

  @Test func theSampleCalendarIsWrittenAsLibicalWritesTheTree() throws {
    let fast = try sampleCalendar.serialized()
    let tree = try sampleCalendar.serializedThroughLibicalTree()
    #expect(Array(fast.utf8) == Array(tree.utf8))
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func variedCalendarsAreWrittenAsLibicalWritesTheTree(seed: UInt64) throws {
    let calendar = Self.variedCalendar(seed: seed, events: 120)
    let fast = try calendar.serialized()
    let tree = try calendar.serializedThroughLibicalTree()
    #expect(fast.utf8.count == tree.utf8.count)
    #expect(Array(fast.utf8) == Array(tree.utf8))
    // Something of each shape was written (the generator is not degenerate).
    for needle in ["VALUE=DATE:", "TZID=Europe/Berlin", "DURATION:", "RELATED=END", "STATUS:", "TRANSP:", "RRULE:"] {
      #expect(fast.contains(needle), "\(needle)")
    }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func theBytesAreTheStringsBytes(seed: UInt64) throws {
    let calendar = Self.variedCalendar(seed: seed, events: 60)
    #expect(try calendar.serializedUTF8() == Array(calendar.serialized().utf8))
    #expect(try calendar.serializedUTF8() == Array(calendar.serializedThroughLibicalTree().utf8))
  }

  @Test func componentLinesComeFromLibical() throws {
    for name in ["VEVENT", "VALARM", "VCALENDAR", "VTIMEZONE"] {
      let lines = try ComponentFraming(kindNamed: name)
      #expect(lines.begin == Array("BEGIN:\(name)\r\n".utf8))
      #expect(lines.end == Array("END:\(name)\r\n".utf8))
    }
    #expect(throws: ICalendarError.self) { try ComponentFraming(kindNamed: "VNOTHING") }
  }

  /// Absolute triggers differ from alarm to alarm (one property given each value): many of them, some of the same
  /// instant, next to relative ones.
  @Test func manyAbsoluteTriggersAreWrittenAsLibicalWritesTheTree() throws {
    var calendar = Self.variedCalendar(seed: 11, events: 80)
    for index in calendar.events.indices {
      let day = 1 + index % 28
      calendar.events[index].alarms = [
        VAlarm(
          trigger: .absolute(ICalDateTime(year: 2027, month: 5, day: day, hour: index % 24, minute: 7)),
          description: "at \(index)"),
        VAlarm(trigger: .relative(seconds: -600, fromEnd: false), description: ""),
        VAlarm(
          trigger: .absolute(ICalDateTime(year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 60)),
          description: "leap"),
      ]
    }
    let fast = try calendar.serializedUTF8()
    #expect(fast == Array(try calendar.serializedThroughLibicalTree().utf8))
    #expect(String(decoding: fast, as: UTF8.self).contains("TRIGGER;VALUE=DATE-TIME:20270501T000700Z"))
  }

  /// Kept texts are found by bytes: canonically equivalent spellings (equal as Strings) are different values.
  @Test func equivalentSpellingsOfCategoriesAreWrittenAsTheyAre() throws {
    var calendar = Self.variedCalendar(seed: 12, events: 4)
    let spellings = [["Caf\u{E9}"], ["Cafe\u{301}"], ["Caf\u{E9}", "Run"], ["Cafe\u{301}", "Run"]]
    for index in calendar.events.indices { calendar.events[index].categories = spellings[index] }
    let fast = try calendar.serializedUTF8()
    #expect(fast == Array(try calendar.serializedThroughLibicalTree().utf8))
    #expect(fast.count(where: { $0 == 0xCC }) >= 2)  // U+0301 written twice (0xCC 0x81)
  }

  @Test func emptyAndHeaderOnlyCalendarsAgree() throws {
    for calendar in [
      VCalendar(prodID: "-//x//EN"), VCalendar(prodID: "-//x//EN", method: "REQUEST", name: ""),
      VCalendar(prodID: "-//x//EN", name: "Only a name"),
    ] {
      #expect(try calendar.serialized() == calendar.serializedThroughLibicalTree())
    }
  }

  @Test func errorsAreTheSameOnBothPaths() {
    var calendar = Self.variedCalendar(seed: 9, events: 10)
    calendar.events[4].recurrenceRule = "FREQ=SOMETIMES"
    #expect(throws: ICalendarError.self) { try calendar.serialized() }
    let fast = Result { try calendar.serialized() }
    let tree = Result { try calendar.serializedThroughLibicalTree() }
    #expect("\(fast)" == "\(tree)")
  }
}

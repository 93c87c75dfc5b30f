import CalDAV
import CalendarExport
import Digest
import Foundation
import ICalendar
import Logbook
import PlanEngine
import RunMateTestSupport
import RunningCore
import Scheduling
import Testing
import TrainingDomain

@testable import PlanSync

/// The parts of a sync that need no server: the resources it sends and what it tells of other plans' events.
/// (`RadicaleSyncTests` runs the whole of it against a real Radicale, through the command.)
@Suite struct PlanSyncTests {
  /// A 10-week 10k plan's export, with the reminders of `runmate export`.
  func export() throws -> (plan: Plan, calendar: VCalendar) {
    let plan = try makePlan(goal: goal(.tenK, .intermediate, weeks: 10), rules: repositoryRules)
    let schedule = try makeSchedule(
      plan,
      preferences: SchedulingPreferences(
        defaultTime: LocalTime(clampingHour: 7, minute: 0),
        timeZoneID: "Europe/Berlin"))
    let options = ExportOptions(
      reminders: ExportOptions.defaultReminders, identity: ExportOptions.identity(of: plan), calendarName: "10k")
    let stamp = Date(timeIntervalSince1970: 1_795_219_200)
    return (plan, try makeCalendar(for: schedule, options: options, now: stamp).calendar)
  }

  @Test func eachEventNotCancelledIsItsOwnCalendarObject() throws {
    var (_, calendar) = try export()
    try #require(calendar.events.count > 3)
    calendar.events[1].status = .cancelled
    let dropped = calendar.events[1].uid
    let resources = try outgoingEvents(of: calendar)
    #expect(resources.map(\.uid) == calendar.events.map(\.uid).filter { $0 != dropped })
    for resource in resources {
      let text = String(decoding: resource.body, as: UTF8.self)
      let parsed = try VCalendar.parse(text)
      #expect(parsed.events.map(\.uid) == [resource.uid])
      #expect(parsed.method == nil, "a calendar collection's resources carry no METHOD")
      #expect(parsed.events.first?.alarms.isEmpty == false, "reminders go with the event")
      if case .zoned = parsed.events.first?.start {
        #expect(text.contains("BEGIN:VTIMEZONE"), "a timed event's zone goes with it")
      }
      #expect(resource.hash == SHA256.digest(resource.body))
      #expect(resource.name == resource.uid + ".ics")
    }
    let first = try #require(resources.first)
    let event = try #require(calendar.events.first)
    guard case .zoned(let start, _) = event.start else {
      Issue.record("a timed workout starts at a zoned time")
      return
    }
    let date = String(format: "%04d-%02d-%02d 07:00", start.year, start.month, start.day)
    #expect(first.label == "\(date) \(event.summary)")
  }

  @Test func otherPlansEventsInTheSameCalendarAreNamed() throws {
    let dir = try temporaryDirectory("plansync")
    defer { try? FileManager.default.removeItem(at: dir) }
    let db = try LogbookDatabase(path: dir.appendingPathComponent("runmate.sqlite").path)
    let (old, calendar) = try export()
    let moved = try makePlan(goal: goal(.tenK, .intermediate, weeks: 12), rules: repositoryRules)
    _ = try db.savePlan(old, name: "spring", activate: false)
    _ = try db.savePlan(moved, name: "spring moved", activate: true)
    let collection = "http://127.0.0.1:5232/ana/running/"
    let records = try outgoingEvents(of: calendar).prefix(3).map {
      CalDAVRecord(
        uid: $0.uid, href: "/ana/running/\($0.name)", etag: "\"1\"", bodyHash: $0.hash,
        body: String(decoding: $0.body, as: UTF8.self), label: $0.label)
    }
    try db.recordCalDAVSync(
      identity: ExportOptions.identity(of: old), collection: collection, stored: Array(records), removed: [],
      at: Date())
    try db.recordCalDAVSync(
      identity: "gone-plan", collection: collection,
      stored: [records[0]].map {
        var other = $0
        other.uid = "gone-" + $0.uid
        return other
      }, removed: [], at: Date())

    let found = try leftovers(in: db, collection: collection, besides: ExportOptions.identity(of: moved))
    #expect(
      found.contains(LeftoverEvents(planName: "spring", raceDate: "\(old.goal.raceDate)", count: 3)), "\(found)")
    #expect(found.contains(LeftoverEvents(planName: nil, raceDate: nil, count: 1)), "\(found)")
    #expect(found.count == 2)
    // The plan's own events are not leftovers, nor are events in another calendar.
    #expect(try leftovers(in: db, collection: collection, besides: ExportOptions.identity(of: old)).count == 1)
    #expect(try leftovers(in: db, collection: collection + "other/", besides: "x").isEmpty)
  }
}

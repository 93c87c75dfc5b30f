import Foundation
import ICalendar
import RunMateTestSupport
import Testing

/// `runmate sync` against a real Radicale on loopback: what lands in the collection is read from Radicale's own
/// files on disk and parsed by libical (the ICalendar module), and compared with `runmate export` of the plan.
@Suite(.serialized, .enabled(if: hasRadicale, "needs radicale (scripts/setup.sh installs it)"))
struct RadicaleSyncTests {
  @Test func firstSyncCreatesAResourcePerEventAndAChangeUpdatesThemInPlace() throws {
    let server = try RadicaleServer()
    defer { server.stop() }
    let fixture = try SyncFixture()
    defer { fixture.remove() }

    let expected = try exported(fixture, now: "2027-01-01")
    #expect(expected.count > 50)
    let first = try fixture.sync(server, now: "2027-01-01")
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("\(expected.count) created, 0 updated, 0 deleted, 0 unchanged, 0 conflicts"))
    let onServer = try eventsByUID(try server.storedFiles())
    #expect(Set(onServer.keys) == Set(expected.keys))
    for (uid, event) in onServer {
      let reference = try #require(expected[uid])
      #expect(same(event, reference), "\(uid) differs from the export")
    }
    let alarms = onServer.values.map(\.alarms.count).reduce(0, +)
    #expect(alarms > 0 && alarms == expected.values.map(\.alarms.count).reduce(0, +), "VALARMs lost")
    // Through the server too: a PROPFIND lists exactly those resources.
    let listing = try server.dav("PROPFIND", "/ana/running/", headers: ["Depth": "1"])
    #expect(listing.status == 207)
    #expect(listing.body.components(separatedBy: ".ics</").count - 1 == expected.count)

    // Nothing changed: nothing is sent.
    let again = try fixture.sync(server, now: "2027-01-02")
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("0 created, 0 updated, 0 deleted, \(expected.count) unchanged, 0 conflicts"))

    // Runs logged and the plan replanned: the events change, in place (same names, no duplicates).
    for (day, km, time) in [("2027-01-05", "3.4km", "22:30"), ("2027-01-09", "3km", "18:00")] {
      let logged = try fixture.run(["log", day, "--distance", km, "--time", time, "--now", "2027-01-13"])
      #expect(logged.status == 0, "\(logged.stderr)")
    }
    let replanned = try fixture.run(["replan", "--apply", "--now", "2027-01-14"])
    #expect(replanned.status == 0, "\(replanned.stderr)")
    let changed = try exported(fixture, now: "2027-01-14")
    let updates = changed.filter { uid, event in onServer[uid].map { !same($0, event) } ?? false }.count
    #expect(updates > 0)
    let resync = try fixture.sync(server, now: "2027-01-14")
    #expect(resync.status == 0, "\(resync.stderr)")
    let after = try eventsByUID(try server.storedFiles())
    #expect(Set(after.keys) == Set(changed.keys))
    for (uid, event) in after {
      #expect(same(event, try #require(changed[uid])), "\(uid) is not the replanned event")
      if let old = onServer[uid], !same(old, event) { #expect(event.sequence == old.sequence + 1) }
    }
    let created = Set(changed.keys).subtracting(onServer.keys).count
    let deleted = Set(onServer.keys).subtracting(changed.keys).count
    #expect(resync.stdout.contains("\(created) created, \(updates) updated, \(deleted) deleted"), "\(resync.stdout)")
  }

  @Test func aDroppedWorkoutIsDeletedAndADryRunChangesNothing() throws {
    let server = try RadicaleServer()
    defer { server.stop() }
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let first = try fixture.sync(server, now: "2027-01-01")
    #expect(first.status == 0, "\(first.stderr)")
    let before = try server.storedFiles()

    // A week away: its four workouts are dropped from the plan (and the weeks after it rebuilt).
    let paused = try fixture.run(["replan", "--pause", "2027-01-11..2027-01-17", "--apply", "--now", "2027-01-10"])
    #expect(paused.status == 0, "\(paused.stderr)")
    let rowsBefore = try fixture.syncRows()
    #expect(!rowsBefore.isEmpty)

    let dry = try fixture.sync(server, ["--dry-run"], now: "2027-01-10")
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains("dry run, nothing sent"))
    #expect(try server.storedFiles() == before, "a dry run changed the collection")
    #expect(try fixture.syncRows() == rowsBefore, "a dry run changed the sync state")
    let deleteLines = dry.stdout.split(separator: "\n").filter { $0.hasPrefix("delete ") }.count
    #expect(deleteLines > 0, "\(dry.stdout)")

    let real = try fixture.sync(server, now: "2027-01-10")
    #expect(real.status == 0, "\(real.stderr)")
    let after = try eventsByUID(try server.storedFiles())
    let expected = try exported(fixture, now: "2027-01-10")
    #expect(Set(after.keys) == Set(expected.keys))
    #expect(Set(before.keys).subtracting(after.keys.map { $0 + ".ics" }).count == deleteLines)
    // The week's four workouts, and the easy runs of rebuilt weeks too small for every run (fewer runs, said):
    // exactly what the replan cancelled.
    let cancelled = paused.stdout.split(separator: "\n").filter { $0.hasPrefix("cancelled ") }.count
    #expect(deleteLines == cancelled && cancelled >= 4, "\(paused.stdout)")
    #expect(real.stdout.contains("\(deleteLines) deleted"), "\(real.stdout)")
  }

  @Test func anEventEditedInTheCalendarAppIsAConflictAndKept() throws {
    let server = try RadicaleServer()
    defer { server.stop() }
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let first = try fixture.sync(server, now: "2027-01-01")
    #expect(first.status == 0, "\(first.stderr)")
    let synced = try eventsByUID(try server.storedFiles())

    // The plan changes; of the events it changes, one is also edited in a calendar app (a PUT of a modified copy).
    try fixture.savePlan(at: "06:15", now: "2027-01-02")
    let changed = try exported(fixture, now: "2027-01-02")
    let uid = try #require(changed.keys.sorted().first { uid in synced[uid].map { !same($0, changed[uid]!) } ?? false })
    let name = "/ana/running/\(uid).ics"
    let original = try server.dav("GET", name)
    #expect(original.status == 200)
    let edited = original.body.replacingOccurrences(of: "SUMMARY:", with: "SUMMARY:Edited in the app · ")
    let put = try server.dav("PUT", name, headers: ["Content-Type": "text/calendar; charset=utf-8"], body: edited)
    #expect(put.status == 201 || put.status == 204, "PUT answered \(put.status)")

    let resync = try fixture.sync(server, now: "2027-01-02")
    #expect(resync.status == 1, "\(resync.stderr)")
    let conflicts = resync.stdout.split(separator: "\n").filter { $0.hasPrefix("conflict ") }
    #expect(conflicts.count == 1, "\(resync.stdout)")
    #expect(conflicts.first?.contains("edited in the calendar app") == true)
    #expect(resync.stderr.contains("1 event left as the calendar app has it"))
    let kept = try eventsByUID(try server.storedFiles())
    #expect(kept[uid]?.summary.hasPrefix("Edited in the app · ") == true, "the app's edit was overwritten")
    for (other, event) in kept where other != uid {
      #expect(same(event, try #require(changed[other])), "\(other) was not updated")
    }
    // Still a conflict on the next sync; --force overwrites it.
    let still = try fixture.sync(server, now: "2027-01-02")
    #expect(still.stdout.contains("1 conflict") && still.status == 1, "\(still.stdout)")
    let forced = try fixture.sync(server, ["--force"], now: "2027-01-02")
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(forced.stdout.contains("0 created, 1 updated"), "\(forced.stdout)")
    #expect(same(try #require(try eventsByUID(try server.storedFiles())[uid]), try #require(changed[uid])))
  }

  @Test func aRefusedPasswordAWrongURLAndNoServerFailCleanlyAndStoreNothing() throws {
    let server = try RadicaleServer()
    defer { server.stop() }
    let fixture = try SyncFixture(password: "wrong")
    defer { fixture.remove() }

    let refused = try fixture.sync(server, now: "2027-01-01")
    #expect(refused.status == 77)
    #expect(
      refused.stderr == "runmate: the CalDAV server refused user ana (HTTP 401): check the app password\n",
      "\(refused.stderr)")
    #expect(refused.stdout.isEmpty)
    #expect(try server.storedFiles().isEmpty)
    #expect(try fixture.syncRows().isEmpty)

    let env = ["RUNMATE_CALDAV_PASSWORD": RadicaleServer.password]
    let base = ["sync", "--user", "ana", "--now", "2027-01-01", "--caldav"]
    // The account's calendar home, not a calendar: the error names the calendars to choose from.
    let folder = try fixture.run(base + ["http://127.0.0.1:\(server.port)/ana/"], environment: env)
    #expect(folder.status == 64)
    #expect(
      folder.stderr
        == "runmate: http://127.0.0.1:\(server.port)/ana/ is the account, not one calendar: add --calendar NAME "
        + "with one of 'Running' (--list-calendars shows their URLs)\n", "\(folder.stderr)")

    let missing = try fixture.run(base + ["http://127.0.0.1:\(server.port)/ana/nothing/"], environment: env)
    #expect(missing.status == 64, "\(missing.stderr)")
    #expect(
      missing.stderr
        == "runmate: http://127.0.0.1:\(server.port)/ana/nothing/ is not a calendar collection: HTTP 404, no such "
        + "collection; the account's calendars: 'Running' (--calendar NAME picks one; --list-calendars shows their "
        + "URLs)\n", "\(missing.stderr)")

    let closed = try freeLoopbackPort()
    let nobody = try fixture.run(base + ["http://127.0.0.1:\(closed)/ana/running/"], environment: env)
    #expect(nobody.status == 69)
    #expect(nobody.stderr.hasPrefix("runmate: cannot reach the CalDAV server 127.0.0.1:\(closed)"), "\(nobody.stderr)")

    let clear = try fixture.run(base + ["http://calendar.example.org/ana/running/"], environment: env)
    #expect(clear.status == 64)
    #expect(clear.stderr.contains("plain http is allowed to this machine only"), "\(clear.stderr)")

    let noPassword = try fixture.run(base + [server.calendarURL])
    #expect(noPassword.status == 64)
    #expect(noPassword.stderr.contains("$RUNMATE_CALDAV_PASSWORD"), "\(noPassword.stderr)")
    #expect(try server.storedFiles().isEmpty)
    #expect(try fixture.syncRows().isEmpty)

    // With the right password from the environment it works.
    let good = try fixture.run(base + [server.calendarURL], environment: env)
    #expect(good.status == 0, "\(good.stderr)")
    #expect(!(try server.storedFiles().isEmpty))
  }

  /// A moved race is a new plan: its sync says what the old plan left in the calendar, and `--remove` takes exactly
  /// those events away (the new plan's stay).
  @Test func anOldPlansEventsAreNamedAndRemovedOnRequest() throws {
    let server = try RadicaleServer()
    defer { server.stop() }
    let fixture = try SyncFixture()
    defer { fixture.remove() }
    let first = try fixture.sync(server, now: "2027-01-01")
    #expect(first.status == 0, "\(first.stderr)")
    let spring = try server.storedFiles()
    #expect(spring.count > 50)

    let moved = try fixture.run([
      "plan", "--distance", "half", "--level", "intermediate", "--weeks", "18", "--start", "2027-01-04", "--at",
      "07:00", "--tz", "Europe/Berlin", "--days", "tue,thu,sat,sun", "--save", "--name", "spring-moved", "--now",
      "2026-12-28",
    ])
    try #require(moved.status == 0, "\(moved.stderr)")
    let second = try fixture.sync(server, ["--plan", "spring-moved"], now: "2027-01-01")
    #expect(second.status == 0, "\(second.stderr)")
    #expect(
      second.stdout.contains(
        "note: this calendar also holds \(spring.count) events of plan 'spring' (race 2027-04-25); "
          + "`runmate sync --plan 'spring' --remove` with the same --caldav deletes them"), "\(second.stdout)")
    let both = try server.storedFiles()
    #expect(both.count > spring.count && Set(spring.keys).isSubset(of: Set(both.keys)))

    let dry = try fixture.sync(server, ["--plan", "spring", "--remove", "--dry-run"], now: "2027-01-01")
    #expect(
      dry.status == 0 && dry.stdout.contains("0 to create, 0 to update, \(spring.count) to delete"), "\(dry.stdout)")
    #expect(try server.storedFiles().count == both.count)

    let removed = try fixture.sync(server, ["--plan", "spring", "--remove"], now: "2027-01-01")
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(removed.stdout.contains("0 created, 0 updated, \(spring.count) deleted"), "\(removed.stdout)")
    let left = try server.storedFiles()
    #expect(Set(left.keys) == Set(both.keys).subtracting(spring.keys))
    let third = try fixture.sync(server, ["--plan", "spring-moved"], now: "2027-01-01")
    #expect(third.status == 0 && !third.stdout.contains("note:"), "\(third.stdout)")
    #expect(third.stdout.contains("0 created, 0 updated, 0 deleted, \(left.count) unchanged"), "\(third.stdout)")
  }
}

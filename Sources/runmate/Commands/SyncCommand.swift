import ArgumentParser
import CalDAV
import CalendarExport
import Digest
import Foundation
import ICalendar
import Logbook
import Training

/// `runmate sync --caldav URL`: the plan's events in a CalDAV calendar collection, one resource each.
struct SyncCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Put a saved plan's events into a CalDAV calendar (Radicale, Nextcloud, Fastmail, iCloud).",
    discussion: """
      Each event of the plan's calendar (what `runmate export` makes: the same UIDs, SEQUENCE and reminders) is \
      its own resource UID.ics in the collection. A new event is created (If-None-Match: *), a changed one \
      updated in place (If-Match with the ETag stored by the last sync), a workout the plan dropped deleted. An \
      event edited or deleted in a calendar app since the last sync is reported as a conflict and left as the \
      app has it (the exit status is then 1, after every other event is synced); --force overwrites it. The password comes from --password-file or $RUNMATE_CALDAV_PASSWORD, \
      never from the command line; use an app password where the service has them.

      --caldav is the calendar's own URL, or the account's (the server, e.g. https://caldav.fastmail.com/, or \
      its principal or calendar home): then --calendar NAME picks the calendar by its name, and --list-calendars \
      shows the account's calendars (found through /.well-known/caldav, the current user's principal and its \
      calendar home).

      Examples:
        runmate sync --caldav https://dav.example.org/ana/running/ \\
          --user ana --password-file ~/.caldav-password
        runmate sync --caldav https://caldav.fastmail.com/ \\
          --user ana@fastmail.com --list-calendars
        runmate sync --caldav https://caldav.icloud.com/ \\
          --user ana@icloud.com --calendar Running
        runmate sync --caldav https://dav.example.org/ana/running/ \\
          --user ana --dry-run
      """)

  @Option(
    name: .customLong("caldav"),
    help: ArgumentHelp("The calendar collection's URL (https; http only to this machine).", valueName: "url"))
  var url: String

  @Option(name: .long, help: ArgumentHelp("The CalDAV user name.", valueName: "user"))
  var user: String

  @Option(
    name: .customLong("calendar"),
    help: ArgumentHelp(
      "The calendar to sync to, by its name, when --caldav is the account's URL.", valueName: "name"))
  var calendarName: String?

  @Flag(name: .customLong("list-calendars"), help: "List the account's calendars (name and URL); send nothing.")
  var listCalendars = false

  @Option(
    name: .customLong("password-file"),
    help: ArgumentHelp(
      "A file whose first line is the (app) password (default: $RUNMATE_CALDAV_PASSWORD).", valueName: "file"))
  var passwordFile: String?

  @Option(name: .customLong("plan"), help: ArgumentHelp("The saved plan (default: the active one).", valueName: "name"))
  var planName: String?

  @Flag(name: .customLong("dry-run"), help: "Print what the sync would create, update and delete; send nothing.")
  var dryRun = false

  @Flag(name: .long, help: "Overwrite (or delete) events edited in a calendar app since the last sync.")
  var force = false

  @Flag(
    name: .long,
    help: "Delete the plan's events from the calendar (those its syncs put there; edited ones are kept unless --force)."
  )
  var remove = false

  @OptionGroup var clock: ClockOptions
  @OptionGroup var database: DatabaseOptions

  func run() throws {
    let password = try readPassword()
    guard
      let account = try Self.account(
        url: url, user: user, password: password, calendar: calendarName, list: listCalendars)
    else { return }
    try database.requireExisting()
    let db = try database.open()
    let saved = try db.plan(named: planName)
    let settings =
      try db.scheduleSettings(ofPlan: saved.id)
      ?? profileSettings(try db.profile(named: nil), systemZone: TimeZone.current.identifier).settings
    let schedule = try settings.schedule(saved.plan)
    let identity = ExportOptions.identity(of: saved.plan)
    let collection = account.collectionKey
    let records = try db.caldavRecords(identity: identity, collection: collection)

    // SEQUENCE counts from what this collection last received (else from the last file export).
    let previous: VCalendar?
    if records.isEmpty {
      previous = try lastExport(of: saved.plan, in: db)?.calendar
    } else {
      var events: [VEvent] = []
      for record in records {
        do {
          events += try VCalendar.parse(record.body).events
        } catch {
          throw ExportError.unreadableCalendar(file: "the CalDAV sync record of \(record.uid) in \(db.path)", error)
        }
      }
      previous = VCalendar(prodID: "-//RunningMate//runmate 0.1//EN", events: events)
    }
    let export = try planCalendar(
      saved.plan, schedule: schedule, settings: settings, previous: previous, now: try clock.instant())
    let outgoing = remove ? [] : try Self.resources(of: export.calendar)
    let stored = records.map {
      SyncedResource(uid: $0.uid, href: $0.href, etag: $0.etag, hash: $0.bodyHash, label: $0.label)
    }
    let bodies = Dictionary(outgoing.map { ($0.uid, $0.body) }, uniquingKeysWith: { first, _ in first })

    let force = self.force
    let dryRun = self.dryRun
    let box = SyncBox()
    let outcome = blockingRun {
      let client = CalDAVClient(account: account)
      do {
        let members = try await Self.members(client, calendarChosen: calendarName != nil)
        let steps = planSync(
          events: outgoing, stored: stored, server: members, hrefFor: account.href(forName:), force: force)
        box.steps = steps
        if !dryRun {
          let (outcomes, error) = await runSync(steps, client: client)
          box.outcomes = outcomes
          box.error = error
        }
      } catch {
        await client.shutdown()
        throw error
      }
      await client.shutdown()
    }
    if case .failure(let error) = outcome { throw error }

    let shown = "plan '\(terminalSafe(saved.name))' → \(terminalSafe(collection))"
    if dryRun {
      try writeText(SyncReport.dryRun(box.steps, target: shown))
      return
    }
    // What reached the server is recorded, also when a later request failed (the next sync starts from there).
    var records2: [CalDAVRecord] = []
    var removed: [String] = []
    for outcome in box.outcomes {
      switch outcome {
      case .stored(let event, let href, let etag, _):
        records2.append(
          CalDAVRecord(
            uid: event.uid, href: href, etag: etag, bodyHash: event.hash,
            body: String(decoding: bodies[event.uid] ?? event.body, as: UTF8.self), label: event.label))
      case .removed(let uid, _, _): removed.append(uid)
      case .unchanged, .conflict: break
      }
    }
    if !records2.isEmpty || !removed.isEmpty {
      try db.recordCalDAVSync(
        identity: identity, collection: collection, stored: records2, removed: removed, at: Date())
    }
    try writeText(SyncReport.done(box.outcomes, target: shown))
    if !remove { try writeText(Self.otherPlans(in: db, collection: collection, besides: identity)) }
    if let error = box.error { throw error }
    let conflicts = box.outcomes.filter { if case .conflict = $0 { return true } else { return false } }.count
    if conflicts > 0 { throw SyncConflicts(count: conflicts) }
  }

  /// The account with the calendar to sync to: the URL given, or the calendar `--calendar` names among the
  /// account's; nil when `--list-calendars` printed them.
  static func account(url: String, user: String, password: String, calendar: String?, list: Bool) throws
    -> CalDAVAccount?
  {
    var account = try CalDAVAccount(url: url, user: user, password: password)
    guard list || calendar != nil else { return account }
    let box = DiscoveryBox()
    let outcome = blockingRun { [account] in
      let client = CalDAVClient(account: account)
      do {
        box.discovery = try await client.discover()
      } catch {
        await client.shutdown()
        throw error
      }
      await client.shutdown()
    }
    if case .failure(let error) = outcome { throw error }
    guard let discovery = box.discovery else { return nil }
    if list {
      try writeText(Self.listing(discovery))
      return nil
    }
    if let calendar { account.collection = try discovery.calendar(named: calendar).url }
    return account
  }

  /// The collection's members; when the URL is the account rather than a calendar, the error names the account's
  /// calendars to choose from.
  static func members(_ client: CalDAVClient, calendarChosen: Bool) async throws -> [String: DAVEntry] {
    do {
      return try await client.members()
    } catch {
      guard case .notACalendar(let url, let detail) = error, !calendarChosen,
        let discovery = try? await client.discover(), case .home = discovery, !discovery.eventCalendars.isEmpty
      else { throw error }
      let names = discovery.eventCalendars.map(\.name)
      if error.isMissingCollection {
        throw CalDAVError.notACalendar(
          url: url,
          detail: "\(detail); the account's calendars: \(names.map { "'\($0)'" }.joined(separator: ", ")) "
            + "(--calendar NAME picks one; --list-calendars shows their URLs)")
      }
      throw CalDAVError.chooseCalendar(url: client.account.collection.absoluteString, available: names)
    }
  }

  /// A note on the events other plans' syncs left in this calendar (an earlier plan for a moved race, say), and how
  /// to remove them; "" when there are none.
  static func otherPlans(in db: LogbookDatabase, collection: String, besides identity: String) throws -> String {
    let counts = try db.caldavIdentities(collection: collection).filter { $0.key != identity }
    guard !counts.isEmpty else { return "" }
    let plans = try db.plans()
    var lines: [String] = []
    for (other, count) in counts.sorted(by: { $0.key < $1.key }) {
      let events = "\(count) event\(count == 1 ? "" : "s")"
      if let plan = plans.first(where: { ExportOptions.identity(of: $0.plan) == other }) {
        lines.append(
          "note: this calendar also holds \(events) of plan '\(terminalSafe(plan.name))' (race "
            + "\(plan.plan.goal.raceDate)); `runmate sync --plan '\(terminalSafe(plan.name))' --remove` with the same "
            + "--caldav deletes them")
      } else {
        lines.append("note: this calendar also holds \(events) of a plan no longer in this logbook")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `--list-calendars`: one line per calendar, its name and URL (tasks-only lists marked).
  static func listing(_ discovery: Discovery) -> String {
    let calendars: [DiscoveredCalendar]
    switch discovery {
    case .calendar(let one): calendars = [one]
    case .home(_, let all): calendars = all
    }
    guard !calendars.isEmpty else { return "no calendars in this account\n" }
    let width = min(32, calendars.map { terminalSafe($0.name).count }.max() ?? 0)
    return calendars.map { calendar in
      let name = terminalSafe(calendar.name)
      let padded = name.count >= width ? name : name + String(repeating: " ", count: width - name.count)
      return "\(padded)  \(terminalSafe(calendar.url.absoluteString))\(calendar.takesEvents ? "" : "  (tasks only)")"
    }.joined(separator: "\n") + "\n"
  }

  /// The password: the first line of `--password-file`, else `$RUNMATE_CALDAV_PASSWORD`.
  func readPassword() throws -> String {
    if let passwordFile {
      guard let data = FileManager.default.contents(atPath: passwordFile) else {
        throw CLIError.unreadable(path: passwordFile, reason: "cannot read the password file")
      }
      let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
      guard let line, !line.isEmpty else {
        throw CLIError.invalidData(path: passwordFile, reason: "the first line (the password) is empty")
      }
      return line
    }
    if let value = ProcessInfo.processInfo.environment["RUNMATE_CALDAV_PASSWORD"], !value.isEmpty { return value }
    throw CLIError.missingOption(
      option: "--password-file", allowed: "a file holding the password, or $RUNMATE_CALDAV_PASSWORD")
  }

  /// Each event not cancelled, as its own calendar object (a dropped workout is deleted from the collection, not
  /// kept there cancelled). No METHOD: a calendar collection's resources carry none (RFC 4791 §4.1).
  static func resources(of calendar: VCalendar) throws -> [OutgoingEvent] {
    var resources: [OutgoingEvent] = []
    for event in calendar.events where event.status != .cancelled {
      let one = VCalendar(prodID: calendar.prodID, method: nil, name: nil, events: [event])
      let text: String
      do {
        text = try one.serialized()
      } catch {
        throw ExportError.calendarLibrary(error)
      }
      let body = Array(text.utf8)
      resources.append(
        OutgoingEvent(
          uid: event.uid, body: body, hash: SHA256.digest(body), label: "\(describeStart(event.start)) \(event.summary)"
        ))
    }
    return resources
  }

  /// `2027-01-05` or `2027-01-05 06:30`.
  static func describeStart(_ time: EventTime) -> String {
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    switch time {
    case .date(let d): return "\(d.year)-\(two(d.month))-\(two(d.day))"
    case .zoned(let t, _), .utc(let t), .floating(let t):
      return "\(t.year)-\(two(t.month))-\(two(t.day)) \(two(t.hour)):\(two(t.minute))"
    }
  }
}

/// What discovery found (written by one task, read after it ends).
private final class DiscoveryBox: @unchecked Sendable {
  var discovery: Discovery?
}

/// What the async part of a sync hands back to the command (written by one task, read after it ends).
private final class SyncBox: @unchecked Sendable {
  var steps: [SyncStep] = []
  var outcomes: [SyncOutcome] = []
  var error: CalDAVError?
}

/// The lines `runmate sync` prints.
enum SyncReport {
  static func line(_ verb: String, _ text: String) -> String {
    verb.padding(toLength: 9, withPad: " ", startingAt: 0) + " " + terminalSafe(text)
  }

  /// The diff a `--dry-run` prints: one line per event to create, update or delete, and per conflict; the counts.
  static func dryRun(_ steps: [SyncStep], target: String) -> String {
    var lines: [String] = []
    var counts = (create: 0, update: 0, delete: 0, unchanged: 0, conflict: 0)
    for step in steps {
      switch step {
      case .create(let event, _, _):
        counts.create += 1
        lines.append(line("create", event.label))
      case .update(let event, _, _):
        counts.update += 1
        lines.append(line("update", event.label))
      case .delete(let record, _):
        counts.delete += 1
        lines.append(line("delete", record.label))
      case .forget(let record):
        counts.delete += 1
        lines.append(line("forget", record.label + ": dropped from the plan, already deleted in the calendar app"))
      case .unchanged: counts.unchanged += 1
      case .conflict(_, let label, let reason):
        counts.conflict += 1
        lines.append(line("conflict", "\(label): \(reason)"))
      }
    }
    lines.append(
      "dry run, nothing sent: \(target): \(counts.create) to create, \(counts.update) to update, "
        + "\(counts.delete) to delete, \(counts.unchanged) unchanged, \(counts.conflict) "
        + "conflict\(counts.conflict == 1 ? "" : "s")")
    return lines.joined(separator: "\n") + "\n"
  }

  /// What a sync did: one line per event created, updated or deleted, and per conflict; the counts.
  static func done(_ outcomes: [SyncOutcome], target: String) -> String {
    var lines: [String] = []
    var counts = (create: 0, update: 0, delete: 0, unchanged: 0, conflict: 0)
    for outcome in outcomes {
      switch outcome {
      case .stored(let event, _, _, let created):
        if created { counts.create += 1 } else { counts.update += 1 }
        lines.append(line(created ? "created" : "updated", event.label))
      case .removed(_, let label, let deleted):
        counts.delete += 1
        lines.append(line(deleted ? "deleted" : "forgot", deleted ? label : "\(label): already deleted there"))
      case .unchanged: counts.unchanged += 1
      case .conflict(_, let label, let reason):
        counts.conflict += 1
        lines.append(line("conflict", "\(label): \(reason)"))
      }
    }
    lines.append(
      "synced \(target): \(counts.create) created, \(counts.update) updated, \(counts.delete) deleted, "
        + "\(counts.unchanged) unchanged, \(counts.conflict) conflict\(counts.conflict == 1 ? "" : "s")")
    return lines.joined(separator: "\n") + "\n"
  }
}

extension CalDAVError: RunMateError {
  var message: String { description }
  var exitCode: Int32 {
    switch self {
    case .badURL, .insecure, .notACalendar, .noSuchCalendar, .chooseCalendar: ExitCodes.usage
    case .unauthorized: 77  // EX_NOPERM
    case .unreachable: 69  // EX_UNAVAILABLE
    case .unexpected, .malformedResponse: 76  // EX_PROTOCOL
    }
  }
}

/// Events left as a calendar app has them: the sync did everything else, and exits 1 so that a script notices.
struct SyncConflicts: RunMateError {
  let count: Int
  var message: String {
    "\(count) event\(count == 1 ? "" : "s") left as the calendar app has \(count == 1 ? "it" : "them") "
      + "(see the conflict lines; --force overwrites)"
  }
  var exitCode: Int32 { 1 }
}

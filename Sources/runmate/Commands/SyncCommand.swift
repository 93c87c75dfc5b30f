import ArgumentParser
import Foundation
import PlanSync

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

      Each write is recorded as soon as the server answers it, so an interrupted sync (a failure, Ctrl-C, a \
      kill) loses nothing: the next one adopts an event it finds in the calendar exactly as it would send it. \
      Plain http goes only to this machine (a loopback address, or a name resolving only to one); a redirect \
      to another server is refused with its URL. One request may take 60 s at most ($RUNMATE_CALDAV_DEADLINE, \
      in seconds).

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

  @OptionGroup var plan: PlanSelection

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
    let (password, deadline) = (try readPassword(), try Self.requestDeadline())
    let (url, user, calendar, list) = (url, user, calendarName, listCalendars)
    let target = try blockingValue {
      try await syncTarget(
        url: url, user: user, password: password, calendar: calendar, list: list, requestDeadline: deadline)
    }
    guard let target, let request = try self.request(into: target) else {
      if case .calendars(let calendars)? = target { try writeText(SyncReport.listing(calendars)) }
      return
    }
    try database.requireExisting()
    let db = try database.open()
    guard let result = try blockingValue({ [request] in try await syncPlan(request, db: db) }) else { return }
    let shown = "plan '\(terminalSafe(result.planName))' → \(terminalSafe(result.collection))"
    if dryRun { return try writeText(SyncReport.dryRun(result, target: shown)) }
    try writeText(SyncReport.done(result, target: shown) + SyncReport.leftovers(result.leftovers))
    if let error = result.error { throw error }
    if result.conflicts > 0 { throw SyncConflicts(count: result.conflicts) }
  }

  /// The sync the options ask for, into the calendar `target` found; nil when it is the account's list of calendars.
  func request(into target: SyncTarget) throws -> PlanSyncRequest? {
    guard case .account(let account) = target else { return nil }
    var request = PlanSyncRequest(
      account: account, planName: plan.name, mode: remove ? .remove : .sync, dryRun: dryRun, force: force,
      calendarChosen: calendarName != nil, now: try clock.instant(), systemZone: TimeZone.current.identifier)
    request.afterWriteAnswered = Self.faultKillAfterWrites
    return request
  }

  /// The longest one request may take: `$RUNMATE_CALDAV_DEADLINE` seconds (0.1 to 3600), else nil (60 s).
  static func requestDeadline() throws -> Duration? {
    guard let text = ProcessInfo.processInfo.environment["RUNMATE_CALDAV_DEADLINE"], !text.isEmpty else {
      return nil
    }
    guard let seconds = Double(text), seconds >= 0.1, seconds <= 3600 else {
      throw CLIError.invalidOption(
        option: "$RUNMATE_CALDAV_DEADLINE", value: text, allowed: "a number of seconds from 0.1 to 3600 (default 60)",
        suggestion: nil)
    }
    return .milliseconds(Int64((seconds * 1000).rounded()))
  }

  /// Fault injection for tests: `RUNMATE_FAULT_KILL_AFTER_WRITES=N` kills the process (SIGKILL) once the server has
  /// answered the Nth write, before its outcome is recorded. Unset (normal use): no hook.
  static var faultKillAfterWrites: (@Sendable (Int) -> Void)? {
    guard let text = ProcessInfo.processInfo.environment["RUNMATE_FAULT_KILL_AFTER_WRITES"], let writes = Int(text),
      writes > 0
    else { return nil }
    return { answered in
      if answered >= writes { kill(getpid(), SIGKILL) }
    }
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
}

/// What an async call hands back to the command (written by one task, read after it ends).
final class ResultBox<Value>: @unchecked Sendable {
  var value: Value?
}

/// Runs `body` on the concurrency pool, waits for it on this (the main) thread and hands back its value.
func blockingValue<Value>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value? {
  let box = ResultBox<Value>()
  if case .failure(let error) = blockingRun({ box.value = try await body() }) { throw error }
  return box.value
}

/// The lines `runmate sync` prints.
enum SyncReport {
  static func line(_ verb: String, _ text: String) -> String {
    pad(verb, 9) + " " + terminalSafe(text)
  }

  /// `--list-calendars`: one line per calendar, its name and URL (tasks-only lists marked).
  static func listing(_ calendars: [ListedCalendar]) -> String {
    guard !calendars.isEmpty else { return "no calendars in this account\n" }
    let width = min(32, calendars.map { terminalSafe($0.name).count }.max() ?? 0)
    return calendars.map { calendar in
      let name = terminalSafe(calendar.name)
      return "\(pad(name, width))  \(terminalSafe(calendar.url))\(calendar.takesEvents ? "" : "  (tasks only)")"
    }.joined(separator: "\n") + "\n"
  }

  /// The diff a `--dry-run` prints: one line per event to create, update or delete, and per conflict; the counts.
  static func dryRun(_ result: PlanSyncResult, target: String) -> String {
    var lines: [String] = []
    var counts = (create: 0, update: 0, delete: 0, unchanged: 0, adopt: 0, conflict: 0)
    for step in result.steps {
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
      case .adopt(let event, _, _):
        counts.adopt += 1
        lines.append(line("adopt", "\(event.label): \(adoptedReason)"))
      case .conflict(_, let label, let reason):
        counts.conflict += 1
        lines.append(line("conflict", "\(label): \(reason.worded(by: Flags.name))"))
      }
    }
    lines.append(
      "dry run, nothing sent: \(target): \(counts.create) to create, \(counts.update) to update, "
        + "\(counts.delete) to delete, \(counts.unchanged) unchanged, "
        + (counts.adopt > 0 ? "\(counts.adopt) to adopt, " : "")
        + "\(counts.conflict) conflict\(counts.conflict == 1 ? "" : "s")")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Why an event is adopted.
  static let adoptedReason =
    "already in the calendar as this sync sends it (an interrupted sync put it there); recorded"

  /// What a sync did: one line per event created, updated or deleted, and per conflict; the counts.
  static func done(_ result: PlanSyncResult, target: String) -> String {
    var lines: [String] = []
    var counts = (create: 0, update: 0, delete: 0, unchanged: 0, adopt: 0, conflict: 0)
    for outcome in result.outcomes {
      switch outcome {
      case .stored(let event, _, _, let created):
        if created { counts.create += 1 } else { counts.update += 1 }
        lines.append(line(created ? "created" : "updated", event.label))
      case .removed(_, let label, let deleted):
        counts.delete += 1
        lines.append(line(deleted ? "deleted" : "forgot", deleted ? label : "\(label): already deleted there"))
      case .unchanged: counts.unchanged += 1
      case .adopted(let event, _, _):
        counts.adopt += 1
        lines.append(line("adopted", "\(event.label): \(adoptedReason)"))
      case .conflict(_, let label, let reason):
        counts.conflict += 1
        lines.append(line("conflict", "\(label): \(reason.worded(by: Flags.name))"))
      }
    }
    lines.append(
      "synced \(target): \(counts.create) created, \(counts.update) updated, \(counts.delete) deleted, "
        + "\(counts.unchanged) unchanged, " + (counts.adopt > 0 ? "\(counts.adopt) adopted, " : "")
        + "\(counts.conflict) conflict\(counts.conflict == 1 ? "" : "s")")
    return lines.joined(separator: "\n") + "\n"
  }
}

extension SyncReport {
  /// A note per other plan whose events are in the same calendar, and how to remove them; "" when there are none.
  static func leftovers(_ leftovers: [LeftoverEvents]) -> String {
    leftovers.map { other in
      let events = "\(other.count) event\(other.count == 1 ? "" : "s")"
      guard let name = other.planName.map({ terminalSafe($0) }) else {
        return "note: this calendar also holds \(events) of a plan no longer in this logbook\n"
      }
      return "note: this calendar also holds \(events) of plan '\(name)' (race \(other.raceDate ?? "?")); "
        + "`runmate sync --plan '\(name)' --remove` with the same --caldav deletes them\n"
    }.joined()
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

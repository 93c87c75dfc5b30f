import ArgumentParser
import FeedServer
import Foundation
import Training
import TrainingDomain

/// `runmate feed`: subscription feeds of a plan for calendar apps (served by `runmate serve`).
struct FeedCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "feed",
    abstract: "Make, list, rotate or revoke a plan's calendar subscription feeds (served by `runmate serve`).",
    discussion: """
      A feed is a secret webcal:// address: subscribe to it once and the calendar app fetches the plan again \
      by itself (hourly), so a replan reaches the phone without re-importing a file. The address is printed \
      once; only a hash of its token is stored, so a lost address is rotated, not shown again.

      Examples:
        runmate feed create --plan half
        runmate feed list
        runmate feed rotate 1
        runmate feed revoke 1
      """,
    subcommands: [Create.self, List.self, Rotate.self, Revoke.self],
    defaultSubcommand: List.self)

  /// `--host`/`--port` of the server the printed address points at.
  struct Address: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The host in the printed address.", valueName: "host"))
    var host = "127.0.0.1"
    @Option(name: .long, help: ArgumentHelp("The port in the printed address.", valueName: "port"))
    var port = 8080

    /// The address of the feed with `token`, once `--host` and `--port` are checked (before anything is stored).
    func checked() throws -> @Sendable (String) -> String {
      guard (1...65535).contains(port) else {
        throw CLIError.invalidOption(option: "--port", value: String(port), allowed: "1 to 65535", suggestion: nil)
      }
      let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
      guard !host.isEmpty, !host.contains("/"), !host.contains("@"), !host.contains(where: \.isWhitespace) else {
        throw CLIError.invalidOption(
          option: "--host", value: host, allowed: "a host name or an IP address", suggestion: nil)
      }
      let port = port
      return { token in "webcal://\(shownHost):\(port)/feeds/\(token).ics" }
    }
  }

  struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "create",
      abstract: "Make a feed of a saved plan (default: the active one) and print its address once.")
    @OptionGroup var plan: PlanSelection
    @OptionGroup var address: Address
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      let url = try address.checked()
      try database.requireExisting()
      let db = try database.open()
      let saved = try plan.saved(in: db)
      let (feed, token) = try db.newFeed(of: saved, at: Date())
      try writeStandardOutput(url(token) + "\n")
      writeStandardError(
        "feed \(feed.id) of plan '\(terminalSafe(saved.name))': subscribe to the address above in your calendar app "
          + "(with `runmate serve` running); it is shown only this once")
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List the feeds (number, plan, made, last fetched); the addresses are not kept.")
    @Option(name: .customLong("plan"), help: ArgumentHelp("Only this plan's feeds.", valueName: "name"))
    var planName: String?
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      try database.requireExisting()
      let db = try database.open()
      let planID = try planName.map { try db.plan(named: $0).id }
      let feeds = try db.feeds(planID: planID)
      guard !feeds.isEmpty else {
        try writeText("no feeds; make one with `runmate feed create`\n")
        return
      }
      let rows = feeds.map { feed in
        [
          String(feed.id), terminalSafe(feed.planName), FeedCommand.minute(feed.createdAt),
          feed.lastFetchAt.map(FeedCommand.minute) ?? "never",
        ]
      }
      let header = ["ID", "PLAN", "CREATED (UTC)", "LAST FETCH (UTC)"]
      let columns = Columns([header] + rows)
      let lines = ([header] + rows).map(columns.line)
      try writeText(lines.joined(separator: "\n") + "\n")
    }
  }

  struct Rotate: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "rotate",
      abstract: "Give a feed a new address (the old one stops working at once) and print it once.")
    @Argument(help: "The feed's number (`runmate feed list`); default: the plan's only feed.") var id: Int64?
    @OptionGroup var plan: PlanSelection
    @OptionGroup var address: Address
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      let url = try address.checked()
      try database.requireExisting()
      let db = try database.open()
      let feed = try db.feed(id: id, ofPlan: plan.name, toChange: "rotate")
      let token = try db.newToken(for: feed, at: Date())
      try writeStandardOutput(url(token) + "\n")
      writeStandardError(
        "feed \(feed.id) of plan '\(terminalSafe(feed.planName))' rotated: the old address now answers 404; "
          + "subscribe to the one above")
    }
  }

  struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "revoke",
      abstract: "Revoke a feed (its address answers 404 at once), or with --plan all of a plan's feeds.")
    @Argument(help: "The feed's number (`runmate feed list`).") var id: Int64?
    @Option(name: .customLong("plan"), help: ArgumentHelp("Revoke every feed of this plan.", valueName: "name"))
    var planName: String?
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      try database.requireExisting()
      let db = try database.open()
      for feed in try db.feedsToRevoke(id: id, planName: planName) {
        _ = try db.revokeFeed(id: feed.id)
        writeStandardError("feed \(feed.id) of plan '\(terminalSafe(feed.planName))' revoked: its address answers 404")
      }
    }
  }

  /// `2026-11-23 12:10` (UTC).
  static func minute(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
  }
}

extension DatabaseOptions {
  /// Refuses a database that does not exist yet (exit 66) instead of making an empty one; a server's is there.
  func requireExisting() throws {
    guard exists else {
      throw CLIError.unreadable(path: shown, reason: "no database here yet; save a plan with `runmate plan ... --save`")
    }
  }
}

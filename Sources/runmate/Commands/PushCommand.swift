import ArgumentParser
import CoachClient
import Foundation
import RunningCore
import Training

/// `runmate push`: the logbook's runs sent to the coach server the athlete logged in to.
struct PushCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "push",
    abstract: "Send your plan and runs to your coach's server (after `runmate account login`).",
    discussion: """
      Sends your saved plan (the active one, or --plan NAME) with its schedule settings, then every run of the \
      logbook (not cross-training), to the server of `runmate account login`, as the logged-in athlete; the \
      server counts the runs for that plan and matches each to its workout. If your coach changed the plan on \
      the server since your last `runmate pull`, your plan is not sent (the coach's change is never overwritten \
      unseen): the runs still are, and push ends with an error saying to pull first. A plan unchanged since the \
      last push or pull is not sent again. Each run has an identity (a \
      digest of its day, start, source, distance and duration): the server stores a run once, so pushing again \
      sends the runs but stores only new ones, and a push stopped half-way loses nothing. Your logbook stays your \
      own copy: nothing in it changes. A run you deleted (`runmate log delete`, `log undo`) is removed from the \
      server too at the next push. See docs/api.md.

      Example:
        runmate push
      """)
  @OptionGroup var plan: PlanSelection
  @OptionGroup var database: DatabaseOptions
  @OptionGroup var clock: ClockOptions

  func run() throws {
    let signedIn = try SignedInSession()
    try database.requireExisting()
    let db = try database.open()
    let planFile = try planToPush(named: plan.name, in: db, now: try clock.instant())
    let runs = try runsToPush(in: db)
    let deleted = try deletionsToPush(in: db)
    guard
      let report = try signedIn.exchange({
        try await $0.push(plan: planFile, cursor: $1.cursor, runs: runs, deleted: deleted, session: $1)
      })
    else { return }
    if let sent = report.plan { try signedIn.keep(cursor: sent.cursor, planRevision: report.planRevision) }
    let line = planFile.map {
      PushCommand.planLine($0.name, unchanged: report.planUnchanged, stored: report.plan?.stored)
    }
    try writeText((line ?? "") + PushCommand.report(report.runs, server: signedIn.server))
    if let refused = report.planRefused { throw refused }
  }

  /// What became of the plan named `name`: not sent (`unchanged` since the last push or pull), `stored`, or already
  /// on the server; nothing when it was refused (said after the runs).
  static func planLine(_ name: String, unchanged: Bool, stored: Bool?) -> String {
    let name = terminalSafe(name)
    if unchanged { return "Plan '\(name)' unchanged since the last push or pull: not sent\n" }
    guard let stored else { return "" }
    return stored ? "Sent plan '\(name)'\n" : "Plan '\(name)' is already there\n"
  }

  /// `Pushed 12 runs to https://coach.example.org (3 already there, 1 the same as a run there); removed 1 run you
  /// deleted from your logbook`.
  static func report(_ totals: PushTotals, server: String) -> String {
    let sent = totals.added + totals.alreadyThere + totals.twins + totals.updated
    var details: [String] = []
    if totals.alreadyThere > 0 { details.append("\(totals.alreadyThere) already there") }
    if totals.updated > 0 { details.append("\(totals.updated) updated there") }
    if totals.twins > 0 { details.append("\(totals.twins) the same as a run there") }
    let tail = details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"
    let removed =
      totals.removed == 0
      ? "" : "; removed \(totals.removed) run\(totals.removed == 1 ? "" : "s") you deleted from your logbook"
    return "Pushed \(sent) run\(sent == 1 ? "" : "s") to \(terminalSafe(server))\(tail)\(removed)\n"
  }
}

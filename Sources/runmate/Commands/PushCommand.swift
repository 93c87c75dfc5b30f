import ArgumentParser
import CoachClient
import Foundation
import Training

/// `runmate push`: the logbook's runs sent to the coach server the athlete logged in to.
struct PushCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "push",
    abstract: "Send your runs to your coach's server (after `runmate account login`).",
    discussion: """
      Sends every run of the logbook (not cross-training) to the server of `runmate account login`, as the \
      logged-in athlete; the server counts them for the plan it assigned and matches each to its workout. \
      Each run has an identity (a digest of its day, start, source, distance and duration): the server stores a \
      run once, so pushing again sends the runs but stores only new ones, and a push stopped half-way loses \
      nothing. Your logbook stays your own copy: nothing in it changes. See docs/api.md.

      Example:
        runmate push
      """)
  @OptionGroup var database: DatabaseOptions

  func run() throws {
    guard let session = try SessionFile.standard().read() else { throw CoachClientError.notLoggedIn }
    try database.requireExisting()
    let db = try database.open()
    let runs = try runsToPush(in: db)
    guard
      let totals = try blockingValue({
        try await withCoachClient(server: session.server) { try await $0.pushRuns(runs, session: session) }
      })
    else { return }
    try writeText(PushCommand.report(totals, server: session.server))
  }

  /// `Pushed 12 runs to https://coach.example.org (3 already there, 1 the same as a run there)`.
  static func report(_ totals: PushTotals, server: String) -> String {
    let sent = totals.added + totals.alreadyThere + totals.twins
    var details: [String] = []
    if totals.alreadyThere > 0 { details.append("\(totals.alreadyThere) already there") }
    if totals.twins > 0 { details.append("\(totals.twins) the same as a run there") }
    let tail = details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"
    return "Pushed \(sent) run\(sent == 1 ? "" : "s") to \(terminalSafe(server))\(tail)\n"
  }
}

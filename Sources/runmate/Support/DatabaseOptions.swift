import ArgumentParser
import Foundation
import Logbook

/// `--db PATH`: the runner's database.
struct DatabaseOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp(
    "The database file (default: $RUNMATE_DB, else $XDG_DATA_HOME/runmate/runmate.sqlite, else "
      + "~/.local/share/runmate/runmate.sqlite).", valueName: "path"))
  var db: String?

  /// The database path: --db, $RUNMATE_DB, $XDG_DATA_HOME/runmate, ~/.local/share/runmate.
  var path: String {
    if let db { return db }
    let environment = ProcessInfo.processInfo.environment
    if let env = environment["RUNMATE_DB"], !env.isEmpty { return env }
    let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
    return (base as NSString).appendingPathComponent("runmate/runmate.sqlite")
  }

  /// Opens (or creates) the database.
  func open() throws -> LogbookDatabase { try LogbookDatabase(path: path) }
}

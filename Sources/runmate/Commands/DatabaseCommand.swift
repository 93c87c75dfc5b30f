import ArgumentParser
import Training

/// `runmate database`: the database itself (copying it between engines).
struct DatabaseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "database",
    abstract: "Copy the database between a SQLite file and PostgreSQL.",
    subcommands: [Copy.self])

  struct Copy: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "copy",
      abstract: "Copy every profile, plan, run, health day, feed and sync record into another, empty database.",
      discussion: """
        Copies the database in effect (--database, else $RUNMATE_DATABASE, else the default file) into --to: \
        a PostgreSQL database (create it first with createdb) or a new SQLite file, in one transaction, read back \
        and compared. Ids, dates and token hashes are kept: feed addresses, CalDAV syncs and run ids go on \
        working against the copy. The source is not changed. A target that already holds data is refused and \
        left as it was.

        Examples:
          runmate database copy --to postgres://ana@localhost/runs
          runmate database copy --db postgres://db/club --to c.sqlite
        """)

    @Option(
      name: .customLong("to"),
      help: ArgumentHelp(
        "The target: postgres://user[:password]@host[:port]/database, or a file path.", valueName: "path|url"))
    var target: String
    @OptionGroup var database: DatabaseOptions

    func run() throws {
      try database.requireExisting()
      let copy = try copyStore(from: database.path, to: target)
      try writeStandardOutput("Copied \(terminalSafe(copy.source)) to \(terminalSafe(copy.target)): \(copy.summary)\n")
    }
  }
}

import Testing

// The test tiers (docs/contributing.md, "Tests"): most tests run the use cases and modules in-process against real
// SQLite, PostgreSQL, libical and servers; the tests that start the built `runmate` are tagged end-to-end and kept to
// what only a process shows (exit codes, standard error, signals, a kill inside a transaction, the shell, the README
// tour as typed).

extension Tag {
  /// A test that starts the built `runmate` binary (or a script around it): slower, and the last word on exit
  /// codes and what a shell sees. `swift test --skip-build --skip runmateTests` leaves these suites out.
  @Tag public static var endToEnd: Self
}

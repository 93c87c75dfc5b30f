import Activity
import Foundation
import RunMateTestSupport
import Testing

/// What devices and apps write that XML forbids but a runner's file should still read.
@Suite struct DeviceQuirkTests {
  func tcx() throws -> String {
    try String(contentsOf: fixtureURL("tcx/two-activities.tcx"), encoding: .utf8)
  }

  /// Whitespace (and a byte-order mark) before `<?xml …?>`, as Strava's TCX has it: read like the file without it.
  @Test(arguments: ["\n", "  \n\t", "\u{FEFF}\n  "])
  func whitespaceBeforeTheDeclarationIsRead(_ prefix: String) throws {
    let text = try tcx()
    let plain = try readActivities(data: Data(text.utf8), name: "plain.tcx")
    let shifted = try readActivities(data: Data((prefix + text).utf8), name: "strava.tcx")
    #expect(shifted.map(\.distanceMeters) == plain.map(\.distanceMeters))
    #expect(shifted.map(\.elapsedSeconds) == plain.map(\.elapsedSeconds))
  }

  /// The line numbers of errors stay those of the file as written.
  @Test func aLaterErrorKeepsItsLine() throws {
    let text = try tcx()
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let broken = "\n\n" + lines.prefix(8).joined(separator: "\n") + "\n<Bad attr=></Bad>\n"
    let error = #expect(throws: ActivityError.self) {
      try readActivities(data: Data(broken.utf8), name: "broken.tcx")
    }
    #expect(error.map { "\($0)" }?.hasPrefix("broken.tcx:11:") == true, "\(String(describing: error))")
  }

  /// A declaration naming another encoding after whitespace is left to the parser, which refuses it by line.
  @Test func aMisplacedLatinDeclarationIsStillRefused() throws {
    let text = try tcx().replacingOccurrences(of: "UTF-8", with: "ISO-8859-1")
    #expect(throws: ActivityError.self) { try readActivities(data: Data(("\n" + text).utf8), name: "latin.tcx") }
  }
}

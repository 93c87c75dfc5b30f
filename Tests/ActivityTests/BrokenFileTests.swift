import Activity
import Foundation
import RunMateTestSupport
import Testing

/// Files under `Fixtures/broken/`: each must fail with this exact message (file name, and line for problems
/// inside the XML).
struct BrokenFileTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var file: String
    var error: ActivityError
    var message: String
    var testDescription: String { file }
  }

  static let cases: [Case] = [
    // The first 300 lines of route_2021-01-03_5.53pm.gpx and 30 bytes of line 301, which stop inside a
    // <trkpt ...> start tag: the innermost element still open is the <trkseg>.
    Case(
      file: "truncated.gpx", error: .truncated(file: "truncated.gpx", line: 301, openElement: "trkseg"),
      message: "truncated.gpx:301: the file ends before </trkseg> closes (truncated?)"),
    // Line 10: <ele>38.0</elevation>; libxml2's column is just after the bad end tag.
    Case(
      file: "malformed.gpx",
      error: .xml(
        file: "malformed.gpx", line: 10, column: 60,
        detail: "the closing tag does not match <ele> (opened on line 10)"),
      message: "malformed.gpx:10:60: XML error: the closing tag does not match <ele> (opened on line 10)"),
    Case(
      file: "not-activity.kml", error: .notActivityFile(file: "not-activity.kml", rootElement: "kml"),
      message: "not-activity.kml: not a GPX or TCX file (root element <kml>)"),
    Case(
      file: "notes.txt", error: .notActivityFile(file: "notes.txt", rootElement: nil),
      message: "notes.txt: not a GPX or TCX file (not XML)"),
    // A track whose only point has no <time>, an empty segment, and a waypoint with a time.
    Case(
      file: "empty-track.gpx", error: .noTimedPoints(file: "empty-track.gpx"),
      message: "empty-track.gpx: no track points with times"),
    Case(file: "empty.gpx", error: .empty(file: "empty.gpx"), message: "empty.gpx: the file is empty"),
    // Line 6: February 30.
    Case(
      file: "bad-time.gpx",
      error: .invalidValue(
        file: "bad-time.gpx", line: 6, field: "<time>", value: "2024-02-30T06:00:10Z", expected: .dateTime),
      message: "bad-time.gpx:6: <time> '2024-02-30T06:00:10Z' is not an ISO 8601 date-time"),
    Case(
      file: "bad-latitude.gpx",
      error: .invalidValue(
        file: "bad-latitude.gpx", line: 6, field: "<trkpt> lat", value: "95.0003", expected: .latitude),
      message: "bad-latitude.gpx:6: <trkpt> lat '95.0003' is not a latitude (-90 to 90)"),
    // Line 4: <name>Park&nbsp;run</name> (an HTML entity); the column is after the reference.
    Case(
      file: "undefined-entity.gpx",
      error: .xml(
        file: "undefined-entity.gpx", line: 4, column: 19,
        detail: "undefined entity (only &amp; &lt; &gt; &quot; &apos; are known)"),
      message:
        "undefined-entity.gpx:4:19: XML error: undefined entity (only &amp; &lt; &gt; &quot; &apos; are known)"),
    Case(
      file: "utf16.gpx", error: .unsupportedEncoding(file: "utf16.gpx", encoding: "UTF-16 or UTF-32"),
      message: "utf16.gpx: unsupported text encoding UTF-16 or UTF-32 (GPX and TCX files are read as UTF-8)"),
  ]

  @Test(arguments: cases)
  func failsWithTheExactMessage(_ broken: Case) throws {
    let url = try fixtureURL("broken/\(broken.file)")
    let error = #expect(throws: ActivityError.self) { try readActivities(at: url) }

    #expect(error == broken.error)
    #expect(error?.description == broken.message)
  }

  @Test func theTruncationLineIsTheFileLastLine() throws {
    // Independent of the parser: the truncated fixture has 300 line breaks, so it ends on line 301.
    let bytes = try Data(contentsOf: try fixtureURL("broken/truncated.gpx"))
    #expect(bytes.filter { $0 == UInt8(ascii: "\n") }.count + 1 == 301)
  }

  @Test func inMemoryDataIsNamedInErrors() throws {
    let truncated = Data(
      "<?xml version=\"1.0\"?>\n<TrainingCenterDatabase>\n  <Activities>\n    <Activity Sport=\"Running\">\n".utf8)
    let error = #expect(throws: ActivityError.self) { try readActivities(data: truncated, name: "stdin") }

    #expect(error?.description == "stdin:4: the file ends before </Activity> closes (truncated?)")
  }

  @Test func aFileThatIsNotThere() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-run-\(UUID()).gpx")
    let error = #expect(throws: ActivityError.self) { try readActivities(at: url) }

    #expect(error == .unreadable(file: url.lastPathComponent, reason: "No such file or directory"))
    #expect(error?.description == "\(url.lastPathComponent): cannot read the file (No such file or directory)")
  }

  @Test func aDirectory() throws {
    let error = #expect(throws: ActivityError.self) { try readActivities(at: try fixtureURL("gpx")) }

    #expect(error?.description == "gpx: cannot read the file (Is a directory)")
  }

  @Test(arguments: [
    // Under 4 bytes FoundationXML does not even start libxml2: the reader notices that no element came.
    ("<g", "tiny.gpx:1:1: XML error: no root element"),
    // An XML declaration and a comment, then the end of the file.
    ("<?xml version=\"1.0\"?>\n<!-- nothing else -->\n", "tiny.gpx:3:1: XML error: no root element"),
    // Text after the XML declaration.
    ("<?xml version=\"1.0\"?>\nhello\n", "tiny.gpx: not a GPX or TCX file (not XML)"),
  ])
  func documentsWithoutARootElement(_ text: String, _ message: String) throws {
    let error = #expect(throws: ActivityError.self) { try readActivities(data: Data(text.utf8), name: "tiny.gpx") }

    #expect(error?.description == message)
  }

  @Test func contentAfterTheRootElement() throws {
    let data = Data("<gpx version=\"1.1\"></gpx>\n<gpx version=\"1.1\"></gpx>\n".utf8)
    let error = #expect(throws: ActivityError.self) { try readActivities(data: data, name: "twice.gpx") }

    #expect(error?.description == "twice.gpx:2:1: XML error: extra content at the end of the document")
  }
}

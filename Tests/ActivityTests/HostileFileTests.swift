import Activity
import Foundation
import RunMateTestSupport
import Testing

/// Files that try to make the XML parser expand entities or read other files. They must be refused (or
/// parsed without expansion) at once, without reading anything but the file itself.
struct HostileFileTests {
  @Test(arguments: [
    // Ten levels of ten "lol" references: 10⁹ copies if expanded. The DOCTYPE starts on line 2.
    ("billion-laughs.gpx", 2),
    // <!ENTITY xxe SYSTEM "file:///etc/passwd"> in a DOCTYPE on line 3.
    ("xxe.gpx", 3),
  ])
  func entityDeclarationsAreRefusedQuickly(_ file: String, _ doctypeLine: Int) throws {
    let url = try fixtureURL("broken/\(file)")
    let clock = ContinuousClock()
    var error: ActivityError?
    let elapsed = clock.measure {
      error = #expect(throws: ActivityError.self) { try readActivities(at: url) }
    }

    #expect(error == .documentTypeDeclaration(file: file, line: doctypeLine))
    #expect(
      error?.description
        == "\(file):\(doctypeLine): refusing a <!DOCTYPE> with an internal subset (entities are never expanded)")
    // An expansion of 10⁹ entities would take minutes and gigabytes; a refusal takes microseconds.
    #expect(elapsed < .seconds(2))
  }

  @Test func anExternalDTDIsNeverLoaded() throws {
    // A DOCTYPE without an internal subset, pointing at a DTD that would define &place; if it were read.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("activity-dtd-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let dtd = directory.appendingPathComponent("places.dtd")
    try Data("<!ENTITY place \"EXPANDED FROM THE DTD\">\n".utf8).write(to: dtd)
    let gpx = directory.appendingPathComponent("external-dtd.gpx")
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE gpx SYSTEM "\(dtd.absoluteString)">
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
       <trk><name>&place;</name><trkseg><trkpt lat="1" lon="2"><time>2024-01-01T00:00:00Z</time></trkpt></trkseg></trk>
      </gpx>

      """
    try Data(text.utf8).write(to: gpx)

    let error = #expect(throws: ActivityError.self) { try readActivities(at: gpx) }

    // Had the DTD been loaded, &place; would be defined and the file would parse with that name. Column 20
    // is just after the reference: " <trk><name>&place;" is 19 characters.
    #expect(
      error?.description == "external-dtd.gpx:4:20: XML error: undefined entity (external DTDs are not loaded)")
  }

  @Test func aDeclaredEncodingThatHidesMarkupIsRefused() throws {
    // In UTF-7, "+ADw-" is "<": line 2 is a DOCTYPE with an external entity that a byte scan cannot see.
    let url = try fixtureURL("broken/utf7-declared.gpx")
    let error = #expect(throws: ActivityError.self) { try readActivities(at: url) }

    #expect(error == .unsupportedEncoding(file: "utf7-declared.gpx", encoding: "UTF-7"))
    #expect(
      error?.description
        == "utf7-declared.gpx: unsupported text encoding UTF-7 (GPX and TCX files are read as UTF-8)")
  }

  @Test func aDoctypeAfterALongCommentIsStillSeen() throws {
    // The scanner works across the parser's 128 KiB chunks: 300 KB of comment, then the DOCTYPE.
    let comment = "<!-- " + String(repeating: "x", count: 300_000) + " -->\n"
    let text =
      "<?xml version=\"1.0\"?>\n" + comment
      + "<!DOCTYPE gpx [<!ENTITY a \"b\">]>\n<gpx version=\"1.1\"><trk><name>&a;</name></trk></gpx>\n"
    let error = #expect(throws: ActivityError.self) {
      try readActivities(data: Data(text.utf8), name: "late-doctype.gpx")
    }

    #expect(error == .documentTypeDeclaration(file: "late-doctype.gpx", line: 3))
  }

  @Test func aDoctypeWithoutInternalSubsetIsHarmless() throws {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE gpx PUBLIC "-//example//GPX 1.1//EN" "http://www.topografix.com/GPX/1/1/gpx.dtd">
      <gpx version="1.1"><trk><name>Plain &amp; simple</name>
      <trkseg><trkpt lat="1" lon="2"><time>2024-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>

      """
    let run = try #require(try readActivities(data: Data(text.utf8), name: "public-dtd.gpx").first)

    #expect(run.name == "Plain & simple")
    #expect(run.pointCount == 1)
  }
}

extension HostileFileTests {
  @Test func aHugeValueDoesNotGrowMemory() throws {
    // A 3 MB name: kept to its first 16 KiB (the reader's limit), the rest read and dropped.
    let name = String(repeating: "x", count: 3_000_000)
    let text = """
      <?xml version="1.0"?>
      <gpx version="1.1"><trk><name>\(name)</name>
      <trkseg><trkpt lat="1" lon="2"><time>2024-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>

      """
    let run = try #require(try readActivities(data: Data(text.utf8), name: "huge-name.gpx").first)

    let kept = try #require(run.name).utf8.count
    #expect(kept == 16_384)
    #expect(run.pointCount == 1)
  }
}
